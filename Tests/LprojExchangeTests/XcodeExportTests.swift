import Foundation
import LprojExchange
import LprojTables
import Testing

/// Export and import against Xcode 27's own XLIFF of the same catalog
/// (Fixtures/Xcode27, from Murzav/xcstrings-mcp, MIT).
@Suite struct XcodeExportTests {
    static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("Xcode27")
    static let xcode = XLIFFDocument.Tool(id: "com.apple.dt.xcode", name: "Xcode", version: "27.0", buildNumber: "27A266a")

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(path)))
    }

    static func matrix() throws -> ExchangeBundle {
        ExchangeBundle(files: ["Localizable.xcstrings": try bytes("catalog-matrix/source.xcstrings")], developmentFolder: "en")
    }

    @Test func fixturesAreXcodesBytes() throws {
        // The SHA-256 that Murzav/xcstrings-mcp's manifest records for them.
        for (file, sum) in [
            ("catalog-matrix/source.xcstrings", "6c47bdab0cc70174e2fa5a2b7f4105d5c4007221ae9446139d9a60e2e078f289"),
            ("catalog-matrix/exported.xliff", "a49d1b096f236bf4a9da9f6cdf3db3e67a99751dfdf1c4a606014c4450014bd1"),
            ("missing-locale-uk/exported.xliff", "5ee966959769a54304b27d20a9d47cb8f8b5544ef00b5db45b7de909c5f84c77"),
        ] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
            process.arguments = [Self.fixtures.appendingPathComponent(file).path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(text.hasPrefix(sum), "\(file)")
        }
    }

    /// Xcode's own file reads, and writes back byte for byte.
    @Test func xcodesXLIFFReadsAndWritesBack() throws {
        let original = try Self.bytes("catalog-matrix/exported.xliff")
        let document = try XLIFFReader.read(original)
        #expect(document.files.count == 1)
        #expect(document.files[0].units.count == 54)
        let cr = try #require(document.files[0].units.first { $0.id == "key\rCR" })
        #expect(cr.source == "source key\rCR")
        #expect(document.files[0].units.first { $0.id == "key\tTAB" }?.target == "target key\tTAB")
        #expect(XLIFFWriter.write(document) == original)
    }

    /// lprojd's export of the catalog is Xcode's, unit for unit and byte for
    /// byte, but for the French `many` forms Xcode leaves out (CLDR 42
    /// gives French one, many, other; lprojd asks for all three).
    @Test func exportIsXcodesUnitForUnit() throws {
        let exchange = try LocalizationExchange(bundle: try Self.matrix(), language: "fr")
        let (ours, problems) = exchange.xliffDocument(tool: Self.xcode)
        #expect(problems.isEmpty)
        let xcode = try XLIFFReader.read(try Self.bytes("catalog-matrix/exported.xliff"))
        var withoutMany = ours
        withoutMany.files[0].units.removeAll { $0.id.hasSuffix("plural.many") }
        #expect(withoutMany == xcode.withoutLocations, "\(firstDifference(withoutMany, xcode.withoutLocations))")
        #expect(XLIFFWriter.write(withoutMany) == (try Self.bytes("catalog-matrix/exported.xliff")))
        // The extra units: every French plural's `many`, untranslated, with the English `other` as source.
        let many = ours.files[0].units.filter { $0.id.hasSuffix("plural.many") }
        #expect(
            many.map(\.id) == [
                "chained|==|device.iphone.plural.many", "multi|==|substitutions.BIRDS.plural.many",
                "multi|==|substitutions.YARDS.plural.many",
                "name_A..B|==|substitutions.@A..B@.plural.many", "name_é|==|substitutions.é.plural.many", "plural|==|plural.many",
                "source_only_plural|==|plural.many", "sub_DOT.NAME|==|substitutions.@DOT.NAME@.plural.many",
                "substitution|==|substitutions.COUNT.plural.many", "target_only_plural|==|plural.many",
                "target_only_substitution|==|substitutions.COUNT.plural.many", "varied|==|key|==|plural.many",
            ])
        #expect(many.allSatisfy { $0.target == nil })
        #expect(many.first { $0.id == "plural|==|plural.many" }?.source == "EN plural %lld many")
        #expect(many.first { $0.id == "multi|==|substitutions.BIRDS.plural.many" }?.source == "EN birds %1$lld many")
    }

    /// Ukrainian, which the catalog lacks: Xcode and lprojd both ask for
    /// few, many, one, other, with the English `other` where English has no such form.
    @Test func missingLanguageGetsItsOwnCategories() throws {
        let exchange = try LocalizationExchange(bundle: Self.fallbackCatalog(), language: "uk")
        let (ours, _) = exchange.xliffDocument(tool: Self.xcode)
        #expect(XLIFFWriter.write(ours) == (try Self.bytes("missing-locale-uk/exported.xliff")))
    }

    static func fallbackCatalog() -> ExchangeBundle {
        let catalog = """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "fallback" : {
                  "extractionState" : "manual",
                  "localizations" : {
                    "en" : {
                      "variations" : {
                        "plural" : {
                          "one" : {
                            "stringUnit" : {
                              "state" : "translated",
                              "value" : "one source %lld"
                            }
                          },
                          "other" : {
                            "stringUnit" : {
                              "state" : "translated",
                              "value" : "other source %lld"
                            }
                          }
                        }
                      }
                    }
                  }
                }
              },
              "version" : "1.0"
            }
            """
        return ExchangeBundle(files: ["Localizable.xcstrings": Array(catalog.utf8)], developmentFolder: "en")
    }

    /// Xcode's untouched export imports as nothing: no file changes (Xcode's
    /// own import fills French one/other of `source_only_plural` with the
    /// English text and renumbers `multi`'s references; lprojd invents nothing).
    @Test func xcodesExportImportsAsNothing() throws {
        let exchange = try LocalizationExchange(bundle: try Self.matrix(), language: "fr")
        let plan = exchange.importing(try XLIFFReader.read(try Self.bytes("catalog-matrix/exported.xliff")), from: "fr.xliff")
        #expect(plan.findings.isEmpty, "\(plan.findings)")
        #expect(plan.writes.isEmpty)
        #expect(plan.imported == 0)
        #expect(plan.unchanged == 50)
    }

    /// Translations edited in Xcode's file go into the catalog: only their lines change.
    @Test func editedTranslationsChangeOnlyTheirLines() throws {
        var document = try XLIFFReader.read(try Self.bytes("catalog-matrix/exported.xliff"))
        func set(_ id: String, _ target: String, state: String? = "translated") {
            let index = document.files[0].units.firstIndex { $0.id == id }!
            document.files[0].units[index].target = target
            document.files[0].units[index].state = state
        }
        set("simple", "FR simple, revu")
        set("multi|==|substitutions.BIRDS.plural.one", "FR un oiseau (%1$lld)")
        set("state_new", "Nouveau")  // the same text, now translated
        set("source_only_plural|==|plural.one", "Un (%lld)")
        set("source_only_plural|==|plural.other", "Autres (%lld)")
        let exchange = try LocalizationExchange(bundle: try Self.matrix(), language: "fr")
        let plan = exchange.importing(document, from: "fr.xliff")
        #expect(!plan.hasErrors, "\(plan.findings)")
        #expect(plan.imported == 5)
        #expect(plan.writes.map(\.path) == ["Localizable.xcstrings"])
        let before = String(decoding: try Self.bytes("catalog-matrix/source.xcstrings"), as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        let after = String(decoding: plan.writes[0].bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let difference = after.difference(from: before)
        let removed = difference.removals.map { change -> String in
            if case .remove(_, let line, _) = change { return String(line) } else { return "" }
        }
        let inserted = difference.insertions.map { change -> String in
            if case .insert(_, let line, _) = change { return String(line) } else { return "" }
        }
        #expect(
            Set(removed) == [
                #"            "value": "FR simple""#, #"                      "value": "FR birds %arg single""#,
                #"            "state": "new","#,
            ])
        #expect(removed.count == 3)
        #expect(inserted.contains(#"            "value": "FR simple, revu""#))
        #expect(inserted.contains(#"                      "value": "FR un oiseau (%arg)""#))
        #expect(inserted.contains(#"            "state": "translated","#))
        // French gets one and other for source_only_plural, and a warning for the 'many' it still lacks.
        let catalog = try StringCatalogParser().parse(plan.writes[0].bytes).catalog
        let plural = catalog.entries.first { $0.key == "source_only_plural" }?.localizations["fr"]?.variations?.plural
        #expect(plural?[.one]?.stringUnit?.value == "Un (%lld)")
        #expect(plural?[.other]?.stringUnit?.state == .translated)
        #expect(
            plan.findings.map(\.message) == [
                #""multi": fr needs the plural category 'many', which the translation lacks; 'other' is shown instead"#,
                #""source_only_plural": fr needs the plural category 'many', which the translation lacks; 'other' is shown instead"#,
            ])
    }
}
