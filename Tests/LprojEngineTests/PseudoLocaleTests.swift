import Foundation
import LprojFormatStrings
import LprojLocales
import Testing
@testable import LprojEngine

/// en-XA and ar-XB: the development locale's values, transformed, for the
/// lookups that ask for them, when the bundle offers them.
@Suite struct PseudoLocaleTests {
    static func bundle(pseudoLocales: Bool = true) throws -> (TemporaryBundle, LoadedBundle) {
        let fixture = try TemporaryBundle([
            "en.lproj/Localizable.strings": """
            "greeting" = "Hello %@";
            "count" = "%d items";
            """,
            "en.lproj/Localizable.stringsdict": TemporaryBundle.stringsdict([
                (key: "files", format: "%#@n@", variable: "n", forms: ["one": "%d file", "other": "%d files"])
            ]),
            "de.lproj/Localizable.strings": "\"greeting\" = \"Hallo %@\";\n",
        ])
        var configuration = try fixture.configuration()
        configuration.pseudoLocales = pseudoLocales
        return (fixture, BundleLoader().load(configuration))
    }

    @Test func theDevelopmentValuesAreTransformedAndFormattedByTheBaseLocale() throws {
        let (fixture, bundle) = try Self.bundle()
        _ = fixture
        let accented = try bundle.resolve(locale: "en-XA")
        #expect(bundle.lookup("greeting", locale: accented).value == "[Ĥéļļö %@ one]")
        #expect(bundle.lookup("greeting", locale: accented).sourceDescription == "en")
        #expect(try bundle.localizedString("greeting", locale: accented, arguments: [.string("Ada")]).value == "[Ĥéļļö Ada one]")
        #expect(try bundle.localizedString("files", locale: accented, arguments: [.integer(1)]).value == "[1 ƒîļé on]")
        #expect(try bundle.localizedString("files", locale: accented, arguments: [.integer(2)]).value == "[2 ƒîļéš one]")

        let mirrored = try bundle.resolve(locale: "ar-XB")
        let count = try bundle.localizedString("count", locale: mirrored, arguments: [.integer(1234)]).value
        #expect(count == "\u{200F}\u{202E}١٬٢٣٤\u{202C}\u{200F} \u{200F}\u{202E}items\u{202C}\u{200F}")
        // English's plural categories, whatever Arabic's are.
        #expect(try bundle.localizedString("files", locale: mirrored, arguments: [.integer(3)]).value.contains("files"))

        // What the tables lack stays as given: the key, or the caller's default.
        #expect(bundle.lookup("no.such.key", locale: accented).value == "no.such.key")
        #expect(bundle.lookup("no.such.key", locale: accented, defaultValue: "Default").value == "Default")
        // Other locales are untouched.
        #expect(bundle.lookup("greeting", locale: try bundle.resolve(locale: "de")).value == "Hallo %@")
        #expect(bundle.lookup("greeting", locale: try bundle.resolve(locale: "en")).value == "Hello %@")
    }

    @Test func aWholeTableIsWhatEachLookupGives() throws {
        let (fixture, bundle) = try Self.bundle()
        _ = fixture
        for tag in ["en-XA", "ar-XB"] {
            let locale = try bundle.resolve(locale: tag)
            let table = bundle.resolvedTable(locale: locale)
            #expect(Set(table.entries.keys) == ["greeting", "count", "files"])
            for (key, entry) in table.entries {
                let single = bundle.lookup(key, locale: locale)
                #expect(entry.value == single.value && entry.plural == single.plural, "\(tag) \(key)")
            }
        }
    }

    @Test func offeredOnlyWhenTheBundleEnablesThem() throws {
        let (fixture, enabled) = try Self.bundle()
        _ = fixture
        #expect(enabled.supportedLocales.map(\.tag) == ["de", "en", "en-XA", "ar-XB"])
        #expect(SelectionPolicy.select(try LocaleIdentifier("en-XA"), in: enabled).locale.tag == "en-XA")
        // Wanting English never lands on a pseudo-locale.
        #expect(SelectionPolicy.current(in: enabled, saved: nil, preferred: [try LocaleIdentifier("en-GB")]).locale.tag == "en")

        let (other, disabled) = try Self.bundle(pseudoLocales: false)
        _ = other
        #expect(disabled.supportedLocales.map(\.tag) == ["de", "en"])
        #expect(throws: LookupError.self) { try disabled.resolve(locale: "en-XA") }
        #expect(SelectionPolicy.select(try LocaleIdentifier("en-XA"), in: disabled).locale.tag == "en")
    }
}
