import Foundation
import LprojEngine
import LprojFiles
import LprojTables
import Testing

@testable import LprojLint

/// `lint` on String Catalogs.
@Suite struct CatalogLintTests {
    static func unit(_ value: String, _ state: String = "translated") -> String {
        #"{ "stringUnit" : { "state" : "\#(state)", "value" : "\#(value)" } }"#
    }

    private func lint(_ files: [String: String]) -> [LintFinding] {
        Linter(files: InMemoryFileTree(texts: files)).lint(paths: ["app"])
    }

    private func codes(_ findings: [LintFinding], key: String? = nil) -> [String] {
        findings.filter { key == nil || $0.diagnostic.keyPath == key }.map(\.diagnostic.code)
    }

    @Test func everyCatalogCheck() throws {
        let findings = lint([
            "app/Localizable.xcstrings": """
            { "sourceLanguage" : "en", "strings" : {
              "%@ has %lld files" : { "localizations" : {
                "fr" : \(Self.unit("%lld fichiers pour %@")),
                "de" : \(Self.unit("%2$lld Dateien für %1$@")) } },
              "malformed" : { "localizations" : { "de" : { "stringUnit" : { "value" : "x" } } } },
              "review" : { "localizations" : { "fr" : \(Self.unit("Revoir", "needs_review")), "de" : \(Self.unit("Prüfen", "stale")) } },
              "gone" : { "extractionState" : "stale", "localizations" : { "fr" : \(Self.unit("Parti")), "de" : \(Self.unit("Weg")) } },
              "%lld days" : { "localizations" : {
                "fr" : \(Self.unit("%lld jours")),
                "ru" : { "variations" : { "plural" : { "one" : \(Self.unit("%lld день")), "other" : \(Self.unit("%lld дня")) } } } } },
              "phone" : { "localizations" : { "fr" : { "variations" : { "device" : { "iphone" : \(Self.unit("Touchez")) } } },
                "de" : \(Self.unit("Tippen")), "ru" : \(Self.unit("Нажмите")) } },
              "Brand" : { "shouldTranslate" : false, "localizations" : { "fr" : \(Self.unit("Marque")) } }
            } }
            """
        ])
        // Arguments that disagree with the source (the key): %lld and %@ swapped in French.
        let swapped = findings.filter { $0.diagnostic.keyPath == "%@ has %lld files" }
        #expect(swapped.map(\.diagnostic.code).sorted() == ["argument-type", "argument-type", "catalog-missing-translation"])
        #expect(swapped.filter { $0.diagnostic.code == "argument-type" }.allSatisfy { $0.diagnostic.message.hasPrefix("fr: ") })
        // Malformed, with its JSON path and position.
        let malformed = try #require(findings.first { $0.diagnostic.code == "catalog-entry" })
        #expect(malformed.diagnostic.keyPath == #"strings["malformed"].localizations.de.stringUnit"#)
        #expect(malformed.diagnostic.location?.line == 5 && malformed.diagnostic.severity == .error)
        #expect(malformed.formatted.hasPrefix("app/Localizable.xcstrings:5:"))
        // States.
        #expect(findings.filter { $0.diagnostic.code == "catalog-state" }.count == 2)
        #expect(codes(findings, key: "gone").contains("catalog-stale-key"))
        // Plural categories Russian needs.
        let plural = try #require(findings.first { $0.diagnostic.code == "missing-plural-category" })
        #expect(plural.diagnostic.message.hasPrefix("ru: %lld days/value: ru uses the plural categories 'few', 'many'"))
        // Missing languages, device variants a desktop cannot use, don't-translate units.
        #expect(
            try #require(findings.first { $0.diagnostic.keyPath == "review" && $0.diagnostic.code == "catalog-missing-translation" })
                .diagnostic.message.contains("has no translation in ru"))
        #expect(codes(findings, key: "phone").contains("catalog-no-desktop-variant"))
        #expect(codes(findings, key: "Brand") == ["catalog-not-translated"])
    }

    @Test func aCatalogBesideLprojFilesForTheSameTableIsReported() {
        let findings = lint([
            "app/Localizable.xcstrings": #"{ "sourceLanguage" : "en", "strings" : { } }"#,
            "app/fr.lproj/Localizable.strings": "\"a\" = \"b\";\n",
            "app/fr.lproj/Other.strings": "\"a\" = \"b\";\n",
        ])
        let conflict = findings.filter { $0.diagnostic.code == "catalog-conflict" }
        #expect(conflict.count == 1)
        #expect(conflict.first?.diagnostic.message.contains("fr.lproj/Localizable.strings") == true)
    }

    @Test func brokenJSONIsOneErrorWithItsPosition() {
        let findings = lint(["app/Localizable.xcstrings": "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n"])
        #expect(findings.map(\.formatted) == ["app/Localizable.xcstrings:4:1: error: not valid JSON: the document ends inside an object"])
    }

    /// The corpus's real catalog: no errors (Xcode compiled it), and the
    /// unfinished work its translators left is reported.
    @Test func theIceCubesCatalog() throws {
        let path = LinterTests.corpus.appendingPathComponent("IceCubesApp/IceCubesApp/Resources/Localization/Localizable.xcstrings").path
        let findings = Linter(files: DiskFileTree()).lint(paths: [path])
        // One real mistake: the Catalan translator wrote "% publicacions",
        // and "% p" is a pointer conversion where English passes a string.
        // (German's "%#@count@" where English prints no count is fine: the
        // key says the code passes it.)
        let errors = findings.filter { $0.diagnostic.severity == .error }
        #expect(errors.map(\.diagnostic.code) == ["argument-type"], "\(errors.prefix(5).map(\.formatted))")
        #expect(errors.first?.diagnostic.message.hasPrefix("ca: \"instance.list.posts-%@\": argument 1 is % p (pointer)") == true)
        let states = findings.filter { $0.diagnostic.code == "catalog-state" }
        #expect(!states.isEmpty && states.allSatisfy { $0.diagnostic.message.contains("needs review") })
        #expect(findings.filter { $0.diagnostic.code == "catalog-stale-key" }.count == 5)
        #expect(findings.contains { $0.diagnostic.code == "catalog-missing-translation" })
    }
}
