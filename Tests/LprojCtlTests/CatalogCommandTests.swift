import Foundation
import Testing

/// `lprojctl dump` and `lprojctl compile` on String Catalogs, through the real binary.
@Suite struct CatalogCommandTests {
    static var whistleYoo: URL { Tool.packageRoot.appendingPathComponent("Tests/Fixtures/WhistleYoo") }

    /// `compile` writes what Xcode's `xcstringstool compile` wrote for the
    /// same catalog, byte for byte.
    @Test func compileWritesXcodesFiles() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("lprojctl-compile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try Tool.run(
            "lprojctl", ["compile", Self.whistleYoo.appendingPathComponent("Localizable.xcstrings").path, "-o", output.path])
        #expect(result.status == 0, "\(result.errors)")
        for file in [
            "en.lproj/Localizable.strings", "en.lproj/Localizable.stringsdict", "zh-Hans.lproj/Localizable.strings",
            "zh-Hans.lproj/Localizable.stringsdict",
        ] {
            let written = try Data(contentsOf: output.appendingPathComponent(file))
            #expect(written == (try Data(contentsOf: Self.whistleYoo.appendingPathComponent(file))), "\(file)")
        }
        // Only the languages asked for; a language without plurals gets no .stringsdict.
        let only = output.appendingPathComponent("only")
        let catalog = output.appendingPathComponent("Plain.xcstrings")
        try Data(
            #"{ "sourceLanguage" : "en", "strings" : { "a" : { "localizations" : { "fr" : { "stringUnit" : { "state" : "translated", "value" : "b & <c>" } } } } } }"#
                .utf8
        ).write(to: catalog)
        #expect(try Tool.run("lprojctl", ["compile", catalog.path, "-o", only.path, "-l", "fr"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: only.path) == ["fr.lproj"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: only.appendingPathComponent("fr.lproj").path) == ["Plain.strings"])
        let plain = try String(contentsOf: only.appendingPathComponent("fr.lproj/Plain.strings"), encoding: .utf8)
        #expect(plain.contains("\t<key>a</key>\n\t<string>b &amp; &lt;c&gt;</string>\n"))
        // Foundation reads what was written.
        let parsed =
            try PropertyListSerialization.propertyList(
                from: Data(contentsOf: only.appendingPathComponent("fr.lproj/Plain.strings")), format: nil) as? [String: String]
        #expect(parsed == ["a": "b & <c>"])
        let unknown = try Tool.run("lprojctl", ["compile", catalog.path, "-o", only.path, "-l", "de"])
        #expect(unknown.status != 0 && unknown.errors.contains("the catalog has no language de"))
    }

    /// `dump --locale` prints the same JSON as `dump` of the compiled files.
    @Test func dumpPrintsTheCompiledTables() throws {
        let catalog = Self.whistleYoo.appendingPathComponent("Localizable.xcstrings").path
        for (file, kind) in [("en.lproj/Localizable.strings", "strings"), ("en.lproj/Localizable.stringsdict", "stringsdict")] {
            let compiled = try Tool.run("lprojctl", ["dump", Self.whistleYoo.appendingPathComponent(file).path])
            let fromCatalog = try Tool.run("lprojctl", ["dump", catalog, "--locale", "en", "--file", kind])
            #expect(fromCatalog.status == 0, "\(fromCatalog.errors)")
            #expect(fromCatalog.output == compiled.output, "\(file)")
        }
        let merged = try Tool.run("lprojctl", ["dump", catalog, "--locale", "en"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(merged.output.utf8)) as? [String: Any])
        #expect(object.count == 450)
        #expect((object["rules.value_lines"] as? [String: Any])?["NSStringLocalizedFormatKey"] as? String == "%#@value@")
        let missing = try Tool.run("lprojctl", ["dump", catalog, "--locale", "fr"])
        #expect(missing.status != 0 && missing.errors.contains("the catalog has no language 'fr' (it has en, zh-Hans)"))
    }

    @Test func lintCoversCatalogsInDirectories() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lprojctl-lint-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data(
            #"{ "sourceLanguage" : "en", "strings" : { "%lld items" : { "localizations" : { "de" : { "stringUnit" : { "state" : "needs_review", "value" : "%@ Dinge" } } } } } }"#
                .utf8
        )
        .write(to: root.appendingPathComponent("Localizable.xcstrings"))
        let result = try Tool.run("lprojctl", ["lint", root.path])
        #expect(result.status == 1)
        #expect(result.output.contains("Localizable.xcstrings:1:"))
        #expect(result.output.contains("error: de: \"%lld items\": argument 1 is %@ (object) here but %lld (integer) in en"))
        #expect(result.output.contains("warning: \"%lld items\" in de needs review (state needs_review)"))
    }
}
