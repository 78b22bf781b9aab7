import Foundation
import LprojFormatStrings
import LprojLocales
import Testing
@testable import LprojEngine
import LprojFiles

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

    func lookup(_ bundle: LoadedBundle, _ key: String, _ locale: String, table: String = "Localizable", default value: String? = nil) throws
        -> LookupResult
    {
        bundle.lookup(key, table: table, locale: try bundle.resolve(locale: locale), defaultValue: value)
    }

    @Test func aLanguagesOwnSettingsNeverComeFromTheDevelopmentLocale() throws {
        let fixture = try Self.bundle()
        let bundle = try fixture.load()
        func own(_ key: String, _ locale: String) throws -> String? {
            bundle.lookupInOwnLanguage(key, locale: try bundle.resolve(locale: locale))?.value
        }
        #expect(try own("hello", "de-AT") == "Servus")
        #expect(try own("only.de", "de-AT") == "nur Deutsch")
        // English has it, but English is only the development locale here.
        #expect(try own("only.en", "de") == nil)
        #expect(try lookup(bundle, "only.en", "de").value == "English only")
        // Base speaks for every language.
        #expect(try own("only.base", "de") == "from Base")
        // For English itself, English is its own language.
        #expect(try own("only.en", "en-GB") == "English only")
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
        #expect(
            throws: LookupError.invalidArguments(
                .argumentMismatch(position: 1, specifier: "%.1f", expected: .floatingPoint, actual: "string"))
        ) {
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
        #expect(table.entries["only.de"]?.source == "de")
        #expect(table.entries["only.en"]?.value == "English only")
        #expect(table.entries["only.base"]?.source == "Base")
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
        let configuration = BundleConfiguration(
            name: "gone", directory: "/nonexistent/lprojd", developmentLocale: try LocaleIdentifier("en"))
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

/// Added strings, keyed by table and locale key.
struct TestOverlay: StringOverlay {
    let added: [String: [LocaleKey: [String: String]]]

    func value(forKey key: String, table: String, locale: LocaleKey) -> String? { added[table]?[locale]?[key] }
    func strings(table: String, locale: LocaleKey) -> [String: String] { added[table]?[locale] ?? [:] }
}

@Suite struct OverlayTests {
    @Test func addedStringsOverlayTheirLocaleOnly() throws {
        let fixture = try LookupTests.bundle()
        let bundle = try fixture.load()
        let overlay = TestOverlay(added: [
            "Localizable": [
                try LocaleIdentifier("de").matchKey: ["hello": "Grüß dich", "new.key": "neu"],
                try LocaleIdentifier("it").matchKey: ["hello": "Ciao"],
            ]
        ])
        // Added at de: beats de's file...
        let de = bundle.lookup("hello", locale: try bundle.resolve(locale: "de"), overlay: overlay)
        #expect(de.value == "Grüß dich" && de.found && de.sourceDescription == "de-Latn")
        // ...but not de-AT's, which is more specific.
        #expect(bundle.lookup("hello", locale: try bundle.resolve(locale: "de-AT"), overlay: overlay).value == "Servus")
        #expect(bundle.lookup("new.key", locale: try bundle.resolve(locale: "de-AT"), overlay: overlay).value == "neu")
        // A locale the bundle has no folder for still reads its added strings.
        #expect(bundle.lookup("hello", locale: try bundle.resolve(locale: "it"), overlay: overlay).value == "Ciao")
        // Without the overlay, nothing changed.
        #expect(bundle.lookup("hello", locale: try bundle.resolve(locale: "de")).value == "Hallo")
        let table = bundle.resolvedTable(locale: try bundle.resolve(locale: "de"), overlay: overlay)
        #expect(table.entries["hello"]?.value == "Grüß dich")
        #expect(table.entries["new.key"]?.value == "neu")
    }
}

@Suite struct IncrementalReloadTests {
    @Test func onlyTheChangedFileIsReadAgain() throws {
        let fixture = try LookupTests.bundle()
        let first = try fixture.load()
        try fixture.write("de.lproj/Localizable.strings", "\"hello\" = \"Guten Tag\";\n")
        var changes = BundleChanges()
        changes.file("Localizable.strings", in: "de.lproj")
        let (second, summary) = BundleLoader().update(first, with: changes)
        #expect(second.lookup("hello", locale: try second.resolve(locale: "de")).value == "Guten Tag")
        #expect(summary.tables == ["Localizable"])
        #expect(summary.addedLocales.isEmpty && summary.removedLocales.isEmpty)
        // Untouched folders are the very same objects.
        let before = first.localizations.first { $0.folderName == "fr.lproj" || $0.folderName == "en.lproj" }!
        let after = second.localizations.first { $0.folderName == before.folderName }!
        #expect(before === after)
    }

    @Test func resolvedChainsSurviveATableEditButNotANewFolder() throws {
        let fixture = try LookupTests.bundle()
        let first = try fixture.load()
        _ = try first.resolve(locale: "it-CH")
        // A table edited: the chain already resolved is taken over.
        try fixture.write("de.lproj/Localizable.strings", "\"hello\" = \"Guten Tag\";\n")
        var edited = BundleChanges()
        edited.file("Localizable.strings", in: "de.lproj")
        let (second, _) = BundleLoader().update(first, with: edited)
        #expect(second.chains.withLock { $0["it-CH"] } != nil)
        #expect(second.lookup("hello", locale: try second.resolve(locale: "it-CH")).value == "Hello")
        // A folder that the chain would read appears: it is resolved anew.
        try fixture.write("it.lproj/Localizable.strings", "\"hello\" = \"Ciao\";\n")
        var added = BundleChanges()
        added.folder("it.lproj")
        let (third, _) = BundleLoader().update(second, with: added)
        #expect(third.chains.withLock { $0["it-CH"] } == nil)
        #expect(third.lookup("hello", locale: try third.resolve(locale: "it-CH")).value == "Ciao")
    }

    @Test func foldersComeAndGo() throws {
        let fixture = try LookupTests.bundle()
        let first = try fixture.load()
        try fixture.write("it.lproj/Localizable.strings", "\"hello\" = \"Ciao\";\n")
        var added = BundleChanges()
        added.folder("it.lproj")
        let (second, summary) = BundleLoader().update(first, with: added)
        #expect(summary.addedLocales == ["it"])
        #expect(second.lookup("hello", locale: try second.resolve(locale: "it")).value == "Ciao")
        try FileManager.default.removeItem(at: fixture.directory.appendingPathComponent("it.lproj"))
        let (third, removal) = BundleLoader().update(second, with: added)
        #expect(removal.removedLocales == ["it"])
        #expect(third.lookup("hello", locale: try third.resolve(locale: "it")).value == "Hello")
    }

    @Test func errorsAreReportedAndClearWhenFixed() throws {
        let fixture = try LookupTests.bundle()
        let first = try fixture.load()
        var changes = BundleChanges()
        changes.file("Localizable.strings", in: "de.lproj")
        try fixture.write("de.lproj/Localizable.strings", "\"hello\" = \"kaputt\n")
        let (broken, failure) = BundleLoader().update(first, with: changes)
        #expect(failure.reports.count == 1 && failure.reports[0].failed)
        #expect(failure.tables.isEmpty)  // the last good table stays
        #expect(broken.lookup("hello", locale: try broken.resolve(locale: "de")).value == "Hallo")
        try fixture.write("de.lproj/Localizable.strings", "\"hello\" = \"Heil\";\n")
        let (fixed, repair) = BundleLoader().update(broken, with: changes)
        #expect(repair.reports.isEmpty && repair.tables == ["Localizable"])
        #expect(fixed.fileReports.isEmpty)
        #expect(fixed.lookup("hello", locale: try fixed.resolve(locale: "de")).value == "Heil")
    }

    @Test func deletedFilesTakeTheirEntriesWithThem() throws {
        let fixture = try LookupTests.bundle()
        let first = try fixture.load()
        try FileManager.default.removeItem(at: fixture.directory.appendingPathComponent("en.lproj/Localizable.stringsdict"))
        var changes = BundleChanges()
        changes.file("Localizable.stringsdict", in: "en.lproj")
        let (second, summary) = BundleLoader().update(first, with: changes)
        #expect(summary.tables == ["Localizable"])
        #expect(!second.lookup("files", locale: try second.resolve(locale: "en")).found)
        #expect(second.lookup("hello", locale: try second.resolve(locale: "en")).value == "Hello")
    }
}
