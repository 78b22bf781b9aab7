import LprojLocales
import Testing
@testable import LprojEngine

/// What counts as a miss: a value from outside the locale's own chain.
@Suite struct MissCoverageTests {
    struct Added: StringOverlay {
        let strings: [LocaleKey: [String: String]]
        func value(forKey key: String, table: String, locale: LocaleKey) -> String? { strings[locale]?[key] }
        func strings(table: String, locale: LocaleKey) -> [String: String] { strings[locale] ?? [:] }
    }

    @Test func customLocalesOwnOnlyTheirFolderAndAddedStringsTheirLocale() throws {
        let fixture = try TemporaryBundle([
            "en.lproj/Localizable.strings": "\"hello\" = \"Hello\";\n\"bye\" = \"Bye\";\n",
            "x-pirate.lproj/Localizable.strings": "\"hello\" = \"Ahoy\";\n",
            "fr.lproj/Localizable.strings": "\"hello\" = \"Bonjour\";\n",
            "Base.lproj/Localizable.strings": "\"base.only\" = \"Base\";\n",
        ])
        let bundle = try fixture.load(custom: ["x-pirate": "en"])
        func coverage(_ key: String, _ locale: String, overlay: (any StringOverlay)? = nil) throws -> LookupCoverage {
            let resolved = try bundle.resolve(locale: locale)
            return bundle.coverage(
                of: bundle.lookup(key, locale: resolved, overlay: overlay), key: key, table: "Localizable", locale: resolved)
        }
        #expect(try coverage("hello", "x-pirate") == .own)
        // The pirate translation lacks it: English fills the gap, a miss.
        #expect(try coverage("bye", "x-pirate") == .missed)
        #expect(try coverage("base.only", "x-pirate") == .missed)
        #expect(try coverage("bye", "en-GB") == .own)
        #expect(try coverage("base.only", "en") == .own)
        #expect(try coverage("base.only", "fr") == .missed)
        #expect(try coverage("nowhere", "fr") == .unknownKey)
        // A string added for English answers French: still a miss for French.
        let english = try LocaleIdentifier("en").matchKey, french = try LocaleIdentifier("fr").matchKey
        #expect(try coverage("bye", "fr", overlay: Added(strings: [english: ["bye": "Added bye"]])) == .missed)
        #expect(try coverage("bye", "fr", overlay: Added(strings: [french: ["bye": "Au revoir"]])) == .own)
        // Keys too long to look for everywhere are counted as unknown.
        #expect(try coverage(String(repeating: "k", count: LoadedBundle.longestCheckedKey + 1), "fr") == .unknownKey)
    }
}
