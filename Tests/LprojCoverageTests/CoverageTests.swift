import LprojCoverage
import LprojEngine
import LprojLocales
import Testing

@Suite struct CoverageTests {
    static let stringsdict = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>files</key><dict>
          <key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
          <key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>d</string>
            <key>one</key><string>%d file</string><key>other</key><string>%d files</string></dict>
        </dict></dict></plist>
        """

    static let catalog = """
        {"sourceLanguage": "en", "version": "1.0", "strings": {
          "Save": {"localizations": {"de": {"stringUnit": {"state": "needs_review", "value": "Sichern"}}}},
          "Open": {"localizations": {"de": {"stringUnit": {"state": "stale", "value": "Öffnen"}}}},
          "Quit": {}
        }}
        """

    static let files = InMemoryFileTree(texts: [
        "app/en.lproj/Localizable.strings": """
        "hello" = "Hello";
        "bye" = "Goodbye";
        "ok" = "OK";
        "count" = "%d items of %@";
        "colour" = "Color";
        """,
        "app/en.lproj/Localizable.stringsdict": stringsdict,
        "app/de.lproj/Localizable.strings": """
        "hello" = "Hallo";
        "ok" = "OK";
        "count" = "%@ von %d";
        """,
        // German's plural entry lacks nothing German needs; Russian's does.
        "app/de.lproj/Localizable.stringsdict": stringsdict.replacingOccurrences(of: "files</string>", with: "Dateien</string>"),
        "app/ru.lproj/Localizable.stringsdict": stringsdict.replacingOccurrences(of: "files</string>", with: "файлов</string>"),
        "app/en-GB.lproj/Localizable.strings": "\"colour\" = \"Colour\";\n",
        "app/Menu.xcstrings": catalog,
    ])

    func report() throws -> CoverageReport {
        CoverageAnalyzer(files: Self.files).report(directory: "app", developmentLocale: try LocaleIdentifier("en"), name: "app")
    }

    func table(_ report: CoverageReport, _ locale: String, _ table: String) throws -> TableCoverage {
        try #require(report.locales.first { $0.locale == locale }?.tables.first { $0.table == table })
    }

    @Test func everyKeyIsTranslatedIdenticalInheritedOrMissing() throws {
        let report = try report()
        #expect(report.locales.map(\.locale) == ["de", "en-GB", "ru"])
        let german = try table(report, "de", "Localizable")
        #expect(german.counts.keys == 6)
        #expect(german.counts.translated == 3)  // hello, count, files
        #expect(german.counts.identical == 1 && german.identicalKeys == ["ok"])
        #expect(german.counts.missing == 2 && german.missingKeys == ["bye", "colour"])
        #expect(german.counts.argumentProblems == 1)  // count: %@ and %d swapped
        #expect(german.counts.pluralProblems == 0)

        let british = try table(report, "en-GB", "Localizable")
        #expect(british.counts.translated == 1 && british.counts.inherited == 5 && british.counts.missing == 0)

        let russian = try table(report, "ru", "Localizable")
        #expect(russian.counts.translated == 1 && russian.counts.missing == 5)
        #expect(russian.counts.pluralProblems == 1)  // few and many are missing
        #expect(report.locales.first { $0.locale == "de" }?.total.covered == 6.0 / 9.0)
    }

    @Test func catalogUnitsNeedingReviewOrStaleAreCounted() throws {
        let menu = try table(try report(), "de", "Menu")
        #expect(menu.counts.keys == 3)
        #expect(menu.counts.needsReview == 1 && menu.counts.stale == 1)
        #expect(menu.missingKeys == ["Quit"])
    }

    @Test func missesGoBesideTheMissingKeysOfTheLocaleTheyFallTo() throws {
        let report = try report().addingMisses([
            ObservedMiss(locale: "de", table: "Localizable", key: "bye", count: 5),
            ObservedMiss(locale: "de-AT", table: "Localizable", key: "bye", count: 2),
            ObservedMiss(locale: "de", table: "Localizable", key: "hello", count: 9),  // translated since: not missing
            ObservedMiss(locale: "fr", table: "Localizable", key: "bye", count: 1),  // no such locale in the report
        ])
        #expect(try table(report, "de", "Localizable").misses == ["bye": 7])
        let text = CoverageText.render(report)
        #expect(text.contains("7×  de  Localizable  bye"))
        let html = CoverageHTML.render(report)
        #expect(html.contains("<code>bye</code> <span class=\"source\" lang=\"en\">Goodbye</span> <span class=\"met\">met 7 times</span>"))
    }

    /// A translator sees what to translate: the development text beside
    /// each missing key (a plural entry's `other` form).
    @Test func theDevelopmentTextGoesBesideEachMissingKey() throws {
        let report = try report()
        #expect(try table(report, "de", "Localizable").sources == ["bye": "Goodbye", "colour": "Color"])
        #expect(try table(report, "ru", "Localizable").sources["count"] == "%d items of %@")
        let plural = try #require(
            CoverageAnalyzer(
                files: InMemoryFileTree(texts: ["a/en.lproj/Localizable.stringsdict": Self.stringsdict, "a/fr.lproj/x.strings": ""])
            )
            .report(directory: "a", developmentLocale: try LocaleIdentifier("en"), name: "a").locales.first?.tables.first)
        #expect(plural.sources == ["files": "%d files"])
        let html = CoverageHTML.render(report)
        #expect(html.contains("<li><code>colour</code> <span class=\"source\" lang=\"en\">Color</span></li>"))
    }

    /// A table that cannot be read is not "missing": its keys are unknown,
    /// and the report names the file and where it breaks.
    @Test func anUnreadableTableIsNamedAndItsKeysAreUnknownNotMissing() throws {
        var files = Self.files
        files.files["app/de.lproj/Localizable.strings"] = Array("\"hello\" = \"Hallo\"\n\"ok\" = \"OK\";\n".utf8)
        let report = CoverageAnalyzer(files: files).report(
            directory: "app", developmentLocale: try LocaleIdentifier("en"), name: "app")
        #expect(
            report.unreadableFiles == [
                UnreadableFile(
                    path: "de.lproj/Localizable.strings", line: 1, column: 18,
                    message: "expected ';' after the value of the key \"hello\", found '\"' at 2:1")
            ])
        let german = try table(report, "de", "Localizable")
        // The stringsdict still answers "files"; the other five are unknown.
        #expect(german.counts.translated == 1 && german.counts.unknown == 5 && german.counts.missing == 0)
        #expect(german.missingKeys.isEmpty)
        // Other locales are as before.
        #expect(try table(report, "ru", "Localizable").counts.missing == 5)
        let text = CoverageText.render(report)
        #expect(text.contains("UNKNOWN"))
        #expect(text.split(separator: "\n").first { $0.hasPrefix("de ") }?.contains("≥") == true)
        #expect(text.contains("  de.lproj/Localizable.strings:1:18: expected ';' after the value of the key \"hello\""))
        let html = CoverageHTML.render(report)
        #expect(html.contains("<td class=\"unknown\">5</td>") && html.contains("de.lproj/Localizable.strings:1:18"))
        // A clean report has no such column.
        #expect(!CoverageText.render(try self.report()).contains("UNKNOWN"))
    }

    @Test func theTextAndThePageSayTheSameNumbers() throws {
        let report = try report()
        let text = CoverageText.render(report)
        let german = try #require(text.split(separator: "\n").first { $0.hasPrefix("de ") })
        // 9 keys (6 + 3), 6 covered: 5 translated (the catalog's two units
        // in review and stale are served), 1 identical, 3 missing, 1 needs
        // review, 1 stale, 1 argument problem.
        #expect(german.split(separator: " ").suffix(8) == ["66%", "5", "1", "3", "1", "1", "0", "1"])
        let html = CoverageHTML.render(report)
        #expect(
            html.contains(
                "<td class=\"done\">66%</td><td class=\"translated\">5</td><td class=\"identical\">1</td><td class=\"missing\">3</td>"))
        #expect(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"))
    }

    @Test func namesAndKeysAreEscapedInThePage() {
        var table = TableCoverage(table: "T", counts: Counts(), missingKeys: ["<b>&\"x\"</b>"], identicalKeys: [])
        table.counts.keys = 1
        table.counts.missing = 1
        let html = CoverageHTML.render(
            CoverageReport(bundle: "a<b", developmentLocale: "en", locales: [LocaleCoverage(locale: "de", tables: [table])]))
        #expect(html.contains("<code>&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;</code>") && html.contains("<h1>a&lt;b</h1>"))
    }
}
