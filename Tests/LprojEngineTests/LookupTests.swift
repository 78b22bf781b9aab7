import Foundation
import LprojFormat
import LprojLocales
import Testing
@testable import LprojEngine

@Suite struct LookupTests {
    static func bundle() throws -> TemporaryBundle {
        try TemporaryBundle([
            "en.lproj/Localizable.strings": """
            "hello" = "Hello";
            "only.en" = "English only";
            "both" = "from strings";
            "price" = "%.1f";
            """,
            "en.lproj/Localizable.stringsdict": TemporaryBundle.stringsdict([
                (key: "files", format: "%#@n@", variable: "n", forms: ["one": "%d file", "other": "%d files"]),
                (key: "both", format: "%#@n@", variable: "n", forms: ["other": "from stringsdict"]),
            ]),
            "de.lproj/Localizable.strings": "\"hello\" = \"Hallo\";\n\"only.de\" = \"nur Deutsch\";\n",
            "de-AT.lproj/Localizable.strings": "\"hello\" = \"Servus\";\n",
            "Base.lproj/Localizable.strings": "\"only.base\" = \"from Base\";\n",
            "zh-Hans.lproj/Localizable.strings": "\"hello\" = \"你好\";\n",
            "zh-Hant.lproj/Localizable.strings": "\"hello\" = \"妳好\";\n",
            "en-001.lproj/Localizable.strings": "\"colour\" = \"colour\";\n",
            "English.lproj/Menu.strings": "\"file\" = \"File\";\n",
            "es-419.lproj/Localizable.strings": "\"hello\" = \"Hola\";\n",
            "sl.lproj/Localizable.strings": "\"x\" = \"y\";\n",
        ])
    }

    func lookup(_ bundle: LoadedBundle, _ key: String, _ locale: String, table: String = "Localizable", default value: String? = nil) throws -> LookupResult {
        bundle.lookup(key, table: table, locale: try bundle.resolve(locale: locale), defaultValue: value)
    }

    @Test func eachKeyFallsBackOnItsOwn() throws {
        let fixture = try Self.bundle()
        let bundle = try fixture.load()
        #expect(try lookup(bundle, "hello", "de-AT").value == "Servus")
        #expect(try lookup(bundle, "only.de", "de-AT").value == "nur Deutsch")
        #expect(try lookup(bundle, "only.de", "de-AT").source == .locale(try LocaleIdentifier("de")))
        #expect(try lookup(bundle, "only.en", "de-AT").value == "English only")
        #expect(try lookup(bundle, "only.en", "de-AT").source == .locale(try LocaleIdentifier("en")))
        #expect(try lookup(bundle, "only.base", "de-AT").value == "from Base")
        #expect(try lookup(bundle, "only.base", "de-AT").source == .base)
        let missing = try lookup(bundle, "nowhere", "de-AT", default: "Fallback")
        #expect(missing.value == "Fallback" && !missing.found && missing.source == nil)
        #expect(try lookup(bundle, "nowhere", "de").value == "nowhere")
    }

    @Test func stringsdictComesBeforeStrings() throws {
        let fixture = try Self.bundle()
        let result = try lookup(try fixture.load(), "both", "en")
        #expect(result.value == "%#@n@")
        #expect(result.plural != nil)
    }

    @Test func scriptsAreNeverCrossed() throws {
        let fixture = try Self.bundle()
        let bundle = try fixture.load()
        #expect(try lookup(bundle, "hello", "zh-TW").value == "妳好")
        #expect(try lookup(bundle, "hello", "zh-CN").value == "你好")
        #expect(try lookup(bundle, "hello", "zh-HK").value == "妳好")
        try FileManager.default.removeItem(at: fixture.directory.appendingPathComponent("zh-Hant.lproj"))
        // Without a Traditional folder, zh-TW reads the development locale, never Simplified.
        #expect(try lookup(try fixture.load(), "hello", "zh-TW").value == "Hello")
    }

    @Test func regionalParents() throws {
        let fixture = try Self.bundle()
        let bundle = try fixture.load()
        #expect(try lookup(bundle, "colour", "en-AU").source == .locale(try LocaleIdentifier("en-001")))
        #expect(try lookup(bundle, "colour", "en-US").found == false)
        #expect(try lookup(bundle, "hello", "es-MX").value == "Hola")
        #expect(try lookup(bundle, "hello", "es-ES").value == "Hello")
    }

    @Test func legacyFolderNamesAreLocales() throws {
        let fixture = try Self.bundle()
        let result = try lookup(try fixture.load(), "file", "en-GB", table: "Menu")
        let english = try LocaleIdentifier("en")
        #expect(result.value == "File" && result.source == .locale(english))
    }

    @Test func unknownLocalesAreRejectedUnlessMapped() throws {
        let fixture = try Self.bundle()
        try fixture.write("tlh.lproj/Localizable.strings", "\"hello\" = \"nuqneH\";\n")
        let plain = try fixture.load()
        #expect(throws: LookupError.invalidLocale(.unknown("tlh"))) { try plain.resolve(locale: "tlh") }
        #expect(throws: LookupError.self) { try plain.resolve(locale: "../../etc") }
        #expect(plain.problems.contains { $0.code == "unknown-locale" && $0.message.contains("tlh") })
        #expect(!plain.supportedLocales.map(\.tag).contains("tlh"))

        let mapped = try fixture.load(custom: ["tlh": "en"])
        #expect(try lookup(mapped, "hello", "tlh").value == "nuqneH")
        #expect(try lookup(mapped, "only.en", "tlh").value == "English only")
        #expect(try mapped.resolve(locale: "tlh").standardLocale.tag == "en")
    }

    @Test func formattingUsesTheSourceLanguagesPluralRules() throws {
        let fixture = try Self.bundle()
        let bundle = try fixture.load()
        // Slovenian has "one" for 101; the entry is English, so English rules apply.
        let result = try bundle.localizedString("files", locale: bundle.resolve(locale: "sl"), arguments: [.integer(101)])
        #expect(result.value == "101 files")
        #expect(try bundle.localizedString("files", locale: bundle.resolve(locale: "en"), arguments: [.integer(1)]).value == "1 file")
        // Numbers are written the requested locale's way.
        #expect(try bundle.localizedString("price", locale: bundle.resolve(locale: "de"), arguments: [.float(1.5)]).value == "1,5")
        #expect(throws: LookupError.invalidArguments(.argumentMismatch(position: 1, specifier: "%.1f", expected: .floatingPoint, actual: "string"))) {
            try bundle.localizedString("price", locale: bundle.resolve(locale: "de"), arguments: [.string("x")])
        }
        #expect(throws: LookupError.invalidTableName("../x")) {
            try bundle.localizedString("price", table: "../x", locale: bundle.resolve(locale: "de"))
        }
    }

    @Test func withoutArgumentsValuesComeBackAsWritten() throws {
        let fixture = try Self.bundle()
        let bundle = try fixture.load()
        #expect(try bundle.localizedString("price", locale: bundle.resolve(locale: "de")).value == "%.1f")
        #expect(try bundle.localizedString("files", locale: bundle.resolve(locale: "de")).value == "%#@n@")
    }

    @Test func wholeTablesMergeTheChain() throws {
        let fixture = try Self.bundle()
        let bundle = try fixture.load()
        let table = bundle.resolvedTable(locale: try bundle.resolve(locale: "de-AT"))
        #expect(table.entries["hello"]?.value == "Servus")
        #expect(table.entries["only.de"]?.source == .locale(try LocaleIdentifier("de")))
        #expect(table.entries["only.en"]?.value == "English only")
        #expect(table.entries["only.base"]?.source == .base)
        #expect(table.entries["files"]?.plural != nil)
        #expect(table.entries["both"]?.value == "%#@n@")
    }
}

@Suite struct LoadingTests {
    @Test func aBrokenFileKeepsItsLastGoodVersion() throws {
        let fixture = try LookupTests.bundle()
        let first = try fixture.load()
        try fixture.write("de.lproj/Localizable.strings", "\"hello\" = \"Hallo\";\n\"broken = \"x\";\n")
        let second = try fixture.load(previous: first)
        #expect(second.lookup("hello", locale: try second.resolve(locale: "de")).value == "Hallo")
        let report = try #require(second.fileReports.first { $0.path == "de.lproj/Localizable.strings" })
        #expect(report.failed)
        #expect(report.errors.first?.location?.line == 2)
        // Without a previous version there is nothing to keep.
        let fresh = try fixture.load()
        #expect(fresh.lookup("only.de", locale: try fresh.resolve(locale: "de")).found == false)
    }

    @Test func editorFilesAreIgnored() throws {
        let fixture = try LookupTests.bundle()
        try fixture.write("de.lproj/.Localizable.strings.swp", "garbage")
        try fixture.write("de.lproj/Localizable.strings~", "garbage")
        try fixture.write("de.lproj/notes.txt", "garbage")
        let bundle = try fixture.load()
        #expect(bundle.fileReports.isEmpty)
        #expect(bundle.localizations.first { $0.folderName == "de.lproj" }?.tables.keys.sorted() == ["Localizable"])
    }

    @Test func missingDirectoryIsAProblemNotACrash() throws {
        let configuration = BundleConfiguration(name: "gone", directory: "/nonexistent/lprojd", developmentLocale: try LocaleIdentifier("en"))
        let bundle = BundleLoader().load(configuration)
        #expect(bundle.localizations.isEmpty)
        #expect(bundle.problems.first?.code == "bundle-missing")
        #expect(bundle.lookup("x", locale: try bundle.resolve(locale: "en")).value == "x")
    }

    @Test func oversizedFilesAreRefused() throws {
        let fixture = try LookupTests.bundle()
        var configuration = try fixture.configuration()
        configuration.maximumFileSize = 10
        let bundle = BundleLoader().load(configuration)
        #expect(bundle.fileReports.contains { $0.failed && $0.diagnostics.first?.code == "too-large" })
    }
}
