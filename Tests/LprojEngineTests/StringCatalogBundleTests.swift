import LprojFormatStrings
import LprojLocales
import LprojTables
import Testing

@testable import LprojEngine

/// Bundles with String Catalogs: served, merged with `.lproj` folders,
/// reloaded, and kept at their last good version when broken.
struct StringCatalogBundleTests {
    static func configuration(conflict: CatalogConflict = .catalog, allStates: Bool = false) throws -> BundleConfiguration {
        var configuration = BundleConfiguration(name: "memory", directory: "app", developmentLocale: try LocaleIdentifier("en"))
        configuration.catalogConflict = conflict
        configuration.catalogAllStates = allStates
        return configuration
    }

    static func unit(_ value: String, _ state: String = "translated") -> String {
        #"{ "stringUnit" : { "state" : "\#(state)", "value" : "\#(value)" } }"#
    }

    static let catalog = """
        { "sourceLanguage" : "en", "version" : "1.0", "strings" : {
          "Hello" : { "localizations" : { "fr" : \(unit("Bonjour")), "de" : \(unit("Hallo")) } },
          "Only English" : { },
          "%lld files" : { "localizations" : {
            "en" : { "variations" : { "plural" : { "one" : \(unit("%lld file")), "other" : \(unit("%lld files")) } } },
            "fr" : { "variations" : { "plural" : { "one" : \(unit("%lld fichier")), "other" : \(unit("%lld fichiers")) } } },
            "ru" : { "variations" : { "plural" : { "one" : \(unit("%lld файл")), "few" : \(unit("%lld файла")),
                                                   "many" : \(unit("%lld файлов")), "other" : \(unit("%lld файла")) } } } } }
        } }
        """

    private func lookup(_ bundle: LoadedBundle, _ key: String, _ locale: String, table: String = "Localizable") throws -> String {
        try bundle.localizedString(key, table: table, locale: try bundle.resolve(locale: locale)).value
    }

    private func format(_ bundle: LoadedBundle, _ key: String, _ locale: String, _ count: Int64) throws -> String {
        try bundle.localizedString(key, locale: try bundle.resolve(locale: locale), arguments: [.integer(count)]).value
    }

    @Test func aBundleWithOnlyACatalogIsServed() throws {
        let files = InMemoryFileTree(texts: ["app/Localizable.xcstrings": Self.catalog])
        let bundle = BundleLoader(files: files).load(try Self.configuration())
        #expect(bundle.fileReports.isEmpty && bundle.problems.isEmpty, "\(bundle.fileReports) \(bundle.problems)")
        // The catalog's languages are the bundle's locales.
        #expect(bundle.supportedLocales.map(\.tag) == ["de", "en", "fr", "ru"])
        #expect(try lookup(bundle, "Hello", "fr-CA") == "Bonjour")
        // Per-key fallback: German has no plural entry, English is the source.
        #expect(try format(bundle, "%lld files", "de", 3) == "3 files")
        #expect(try lookup(bundle, "Only English", "fr") == "Only English")
        // Plurals by ICU, in each language.
        #expect(try format(bundle, "%lld files", "fr", 1) == "1 fichier")
        #expect(try format(bundle, "%lld files", "fr", 0) == "0 fichier")
        #expect(try format(bundle, "%lld files", "ru", 3) == "3 файла")
        #expect(try format(bundle, "%lld files", "ru", 5) == "5 файлов")
        #expect(try format(bundle, "%lld files", "ru", 21) == "21 файл")
        // GetTable's view: the source table has every key.
        let table = bundle.resolvedTable("Localizable", locale: try bundle.resolve(locale: "en"))
        #expect(Set(table.entries.keys) == ["Hello", "Only English", "%lld files"])
    }

    @Test func catalogsInFoldersAndBesideLprojFoldersMerge() throws {
        let files = InMemoryFileTree(texts: [
            "app/Resources/Settings.xcstrings": """
            { "sourceLanguage" : "en", "strings" : { "Theme" : { "localizations" : { "fr" : \(Self.unit("Thème")), "ja" : \(Self.unit("テーマ")) } } } }
            """,
            "app/fr.lproj/Localizable.strings": "\"Hello\" = \"Salut\";\n",
            "app/.hidden/Ignored.xcstrings": "{}",
        ])
        let bundle = BundleLoader(files: files).load(try Self.configuration())
        #expect(bundle.stringCatalogs.map(\.path) == ["Resources/Settings.xcstrings"])
        #expect(bundle.localizations.map(\.folderName) == ["en.lproj", "fr.lproj", "ja.lproj"])
        #expect(bundle.folders.map(\.folderName) == ["fr.lproj"])
        #expect(try lookup(bundle, "Hello", "fr") == "Salut")
        #expect(try lookup(bundle, "Theme", "fr", table: "Settings") == "Thème")
        #expect(try lookup(bundle, "Theme", "ja", table: "Settings") == "テーマ")
    }

    @Test func aTableInBothACatalogAndLprojFilesFollowsTheConfiguration() throws {
        let files = InMemoryFileTree(texts: [
            "app/Localizable.xcstrings": Self.catalog,
            "app/fr.lproj/Localizable.strings": "\"Hello\" = \"Salut\";\n\"Extra\" = \"En plus\";\n",
        ])
        let catalogFirst = BundleLoader(files: files).load(try Self.configuration(conflict: .catalog))
        #expect(try lookup(catalogFirst, "Hello", "fr") == "Bonjour")
        #expect(try lookup(catalogFirst, "Extra", "fr") == "Extra")  // the whole table is the catalog's
        #expect(catalogFirst.problems.map(\.code) == ["catalog-conflict"])
        #expect(catalogFirst.problems.first?.message.contains("catalog-conflicts: catalog") == true)
        let lprojFirst = BundleLoader(files: files).load(try Self.configuration(conflict: .lproj))
        #expect(try lookup(lprojFirst, "Hello", "fr") == "Salut")
        #expect(try lookup(lprojFirst, "Extra", "fr") == "En plus")
        #expect(try lookup(lprojFirst, "Hello", "de") == "Hallo")  // no conflict in German
    }

    @Test func twoCatalogsForOneTableAreAProblem() throws {
        let files = InMemoryFileTree(texts: [
            "app/A/Localizable.xcstrings":
                #"{ "sourceLanguage" : "en", "strings" : { "k" : { "localizations" : { "en" : \#(Self.unit("from A")) } } } }"#,
            "app/B/Localizable.xcstrings":
                #"{ "sourceLanguage" : "en", "strings" : { "k" : { "localizations" : { "en" : \#(Self.unit("from B")) } } } }"#,
        ])
        let bundle = BundleLoader(files: files).load(try Self.configuration())
        #expect(try lookup(bundle, "k", "en") == "from A")
        #expect(bundle.problems.map(\.code) == ["catalog-duplicate"])
    }

    @Test func aChangedCatalogIsReadAgainAndABrokenOneKeepsItsLastGoodVersion() throws {
        var files = InMemoryFileTree(texts: ["app/Localizable.xcstrings": Self.catalog])
        let first = BundleLoader(files: files).load(try Self.configuration())
        var changes = BundleChanges()
        changes.stringCatalog("Localizable.xcstrings")

        files.files["app/Localizable.xcstrings"] = Array(Self.catalog.replacingOccurrences(of: "Bonjour", with: "Salut").utf8)
        let (second, summary) = BundleLoader(files: files).update(first, with: changes)
        #expect(try lookup(second, "Hello", "fr") == "Salut")
        #expect(summary.tables == ["Localizable"])
        #expect(summary.locales.contains("fr") && !summary.locales.contains("de"))

        files.files["app/Localizable.xcstrings"] = Array("{ \"sourceLanguage\" : \"en\", \"strings\" : { \"Hello\" : ".utf8)
        let (broken, failure) = BundleLoader(files: files).update(second, with: changes)
        #expect(failure.reports.map(\.path) == ["Localizable.xcstrings"] && failure.reports[0].failed)
        #expect(failure.reports[0].diagnostics.first?.location?.line == 1)
        #expect(try lookup(broken, "Hello", "fr") == "Salut")

        // A new language appears; the catalog vanishes.
        files.files["app/Localizable.xcstrings"] = Array(
            Self.catalog.replacingOccurrences(of: #""de" : "#, with: #""it" : \#(Self.unit("Ciao")), "de" : "#).utf8)
        let (third, added) = BundleLoader(files: files).update(broken, with: changes)
        #expect(added.addedLocales == ["it"])
        #expect(try lookup(third, "Hello", "it") == "Ciao")
        #expect(third.fileReports.isEmpty)
        files.files["app/Localizable.xcstrings"] = nil
        let (fourth, removed) = BundleLoader(files: files).update(third, with: changes)
        #expect(removed.removedLocales == ["de", "en", "fr", "it", "ru"])
        #expect(fourth.localizations.isEmpty)
    }

    @Test func aMalformedEntryIsReportedAndTheRestIsServed() throws {
        let files = InMemoryFileTree(texts: [
            "app/Localizable.xcstrings": """
            { "sourceLanguage" : "en", "strings" : {
              "bad" : { "localizations" : { "fr" : { "stringUnit" : { "state" : "translated" } } } },
              "good" : { "localizations" : { "fr" : \(Self.unit("Bien")) } } } }
            """
        ])
        let bundle = BundleLoader(files: files).load(try Self.configuration())
        let report = try #require(bundle.fileReports.first)
        #expect(!report.failed)
        #expect(report.errors.map(\.keyPath) == [#"strings["bad"].localizations.fr.stringUnit"#])
        #expect(report.errors.first?.location == LprojTables.SourceLocation(line: 2, column: 57))
        #expect(try lookup(bundle, "good", "fr") == "Bien")
        #expect(try lookup(bundle, "bad", "fr") == "bad")
    }

    @Test func languagesTheSystemDoesNotKnowAreReportedNotServed() throws {
        let files = InMemoryFileTree(texts: [
            "app/Localizable.xcstrings":
                #"{ "sourceLanguage" : "en", "strings" : { "k" : { "localizations" : { "qq-Zzzz" : \#(Self.unit("?")) } } } }"#
        ])
        let bundle = BundleLoader(files: files).load(try Self.configuration())
        #expect(bundle.supportedLocales.map(\.tag) == ["en"])
        #expect(bundle.fileReports.first?.diagnostics.map(\.code) == ["unknown-locale"])
    }

    @Test func catalogsAreFoundOnlyWhereTheyMayBe() throws {
        let files = InMemoryFileTree(texts: [
            "app/Top.xcstrings": "",
            "app/a/b/c/Deep.xcstrings": "",
            "app/a/b/c/d/TooDeep.xcstrings": "",
            "app/fr.lproj/InFolder.xcstrings": "",
            "app/.git/Hidden.xcstrings": "",
            "app/a/~Backup.xcstrings~": "",
            "app/a/bad name/.xcstrings": "",
        ])
        #expect(files.stringCatalogs(in: "app") == ["Top.xcstrings", "a/b/c/Deep.xcstrings", "fr.lproj/InFolder.xcstrings"])
    }
}
