import Foundation
import LprojFormatStrings
import LprojTablesOracle
import Testing

@testable import LprojTables

/// Reading String Catalogs and compiling them as Xcode does.
@Suite struct StringCatalogTests {
    private func parse(_ json: String) throws -> StringCatalogFile {
        try StringCatalogParser().parse(Array(json.utf8))
    }

    private func compile(_ json: String, includesAllStates: Bool = false) throws -> [String: CompiledCatalogTable] {
        let file = try parse(json)
        #expect(file.diagnostics.filter { $0.severity == .error }.isEmpty, "\(file.diagnostics)")
        let compilation = StringCatalogCompiler(includesAllStates: includesAllStates).compile(file.catalog)
        return Dictionary(uniqueKeysWithValues: compilation.tables.map { ($0.language, $0) })
    }

    private static func unit(_ value: String, _ state: String = "translated") -> String {
        #"{ "stringUnit" : { "state" : "\#(state)", "value" : "\#(value)" } }"#
    }

    // MARK: Golden: Xcode's own output

    /// WhistleYoo commits its catalog and the tables `xcstringstool compile`
    /// wrote from it (its CI compares them byte for byte): lprojd compiles
    /// the same entries, and writes the same bytes.
    @Test func compilesLikeXcodeOnWhistleYoo() throws {
        let directory = Fixtures.root.appendingPathComponent("WhistleYoo")
        let catalog = try StringCatalogParser().parse([UInt8](Data(contentsOf: directory.appendingPathComponent("Localizable.xcstrings"))))
        #expect(catalog.diagnostics.isEmpty)
        #expect(catalog.catalog.sourceLanguage == "zh-Hans")
        let compilation = StringCatalogCompiler().compile(catalog.catalog)
        #expect(compilation.diagnostics.isEmpty)
        #expect(compilation.tables.map(\.language) == ["en", "zh-Hans"])
        var compared = 0
        for table in compilation.tables {
            let folder = directory.appendingPathComponent("\(table.language).lproj")
            let stringsBytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent("Localizable.strings")))
            let stringsdictBytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent("Localizable.stringsdict")))
            let expectedStrings = try StringsParser().parse(stringsBytes).table
            let expectedPlurals = try StringsdictParser().parse(stringsdictBytes).entries
            #expect(table.strings.dictionary == expectedStrings.dictionary, "\(table.language).lproj/Localizable.strings")
            #expect(table.plurals == expectedPlurals, "\(table.language).lproj/Localizable.stringsdict")
            #expect(PropertyListXMLWriter.strings(table.strings) == stringsBytes, "\(table.language): .strings bytes")
            #expect(PropertyListXMLWriter.stringsdict(table.plurals) == stringsdictBytes, "\(table.language): .stringsdict bytes")
            compared += table.strings.count + table.plurals.count
        }
        #expect(compared == 900)
    }

    // MARK: The shared corpus's catalog

    @Test func readsTheIceCubesCatalog() throws {
        let url = Corpus.root.appendingPathComponent("IceCubesApp/IceCubesApp/Resources/Localization/Localizable.xcstrings")
        let bytes = try [UInt8](Data(contentsOf: url))
        let file = try StringCatalogParser().parse(bytes)
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics.prefix(5))")
        let catalog = file.catalog
        #expect(catalog.entries.count == 733)
        #expect(catalog.languages.count == 19)
        // Odd keys are kept as written: empty, blank, with line breaks.
        #expect(catalog.entries.contains { $0.key.isEmpty })
        #expect(catalog.entries.contains { $0.key.contains("\n") })
        #expect(catalog.entries.filter { $0.extractionState == "stale" }.count == 5)

        // The same meaning Foundation's JSON reader gives: every key, every
        // unit's value, in every language.
        let reference = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let strings = try #require(reference["strings"] as? [String: [String: Any]])
        #expect(Set(strings.keys) == Set(catalog.entries.map(\.key)))
        var units = 0
        for entry in catalog.entries {
            let localizations = strings[entry.key]?["localizations"] as? [String: [String: Any]] ?? [:]
            #expect(Set(localizations.keys) == Set(entry.localizations.keys), "\(entry.key)")
            for (language, localization) in localizations {
                if let unit = localization["stringUnit"] as? [String: String] {
                    #expect(entry.localizations[language]?.stringUnit?.value == unit["value"], "\(entry.key) \(language)")
                    #expect(entry.localizations[language]?.stringUnit?.state.rawValue == unit["state"], "\(entry.key) \(language)")
                    units += 1
                }
            }
        }
        #expect(units == 12_519)

        let compilation = StringCatalogCompiler().compile(catalog)
        #expect(compilation.diagnostics.filter { $0.severity == .error }.isEmpty, "\(compilation.diagnostics.prefix(5))")
        let tables = Dictionary(uniqueKeysWithValues: compilation.tables.map { ($0.language, $0) })
        let english = try #require(tables["en"])
        // 91 keys have no English value: each is its own English value.
        let noEnglish = catalog.entries.filter { $0.localizations["en"] == nil }
        #expect(noEnglish.count == 91)
        for entry in noEnglish { #expect(english.strings.value(forKey: entry.key) == entry.key) }
        // needs_review units are compiled.
        let reviewed = try #require(catalog.entries.first { $0.localizations["fr"]?.stringUnit?.state == .needsReview })
        #expect(tables["fr"]?.strings.value(forKey: reviewed.key) == reviewed.localizations["fr"]?.stringUnit?.value)
        // Device variations: a desktop shows the Mac's.
        #expect(english.strings.value(forKey: "settings.display.section.platform") == "Mac")
        // A substitution without argNum binds where it stands; its forms keep their own arguments.
        let followers = try #require(english.plurals["account.label.followers %lld %@"])
        #expect(followers.formatKey == "%#@followers@")
        #expect(followers.variables["followers"]?.valueTypeText == "lld")
        #expect(followers.variables["followers"]?.forms[.one] == "%2$@ follower")
        // Substitutions with argNum: %arg becomes the argument's conversion.
        let posts = try #require(english.plurals["design.tag.n-posts-from-n-participants %lld %lld"])
        #expect(posts.formatKey == "%#@count_posts@ posts from %#@count_participants@ participants")
        #expect(posts.variables["count_participants"]?.forms[.other] == "%2$lld")
        #expect(posts.variables["count_posts"]?.forms[.one] == "%1$lld")
    }

    // MARK: Which units are compiled

    @Test func statesFollowXcode() throws {
        let tables = try compile(
            """
            { "sourceLanguage" : "en", "version" : "1.0", "strings" : {
              "extracted" : { "extractionState" : "extracted_with_value", "localizations" : {
                "en" : \(Self.unit("Extracted", "new")), "fr" : \(Self.unit("Extrait (copie)", "new")) } },
              "review" : { "localizations" : { "en" : \(Self.unit("Review")), "fr" : \(Self.unit("À revoir", "needs_review")) } },
              "stale" : { "extractionState" : "stale", "localizations" : { "en" : \(Self.unit("Old")), "fr" : \(Self.unit("Ancien")) } },
              "machine" : { "localizations" : { "fr" : \(Self.unit("Machine", "machine_translated")) } },
              "brand" : { "shouldTranslate" : false, "localizations" : { "en" : \(Self.unit("Lproj")), "fr" : \(Self.unit("Lprojé")) } },
              "no source" : { },
              "empty" : { "localizations" : { } }
            } }
            """)
        let en = try #require(tables["en"]), fr = try #require(tables["fr"])
        #expect(
            en.strings.dictionary == [
                "extracted": "Extracted", "review": "Review", "stale": "Old", "brand": "Lproj", "no source": "no source", "empty": "empty",
                "machine": "machine",
            ])
        #expect(fr.strings.dictionary == ["review": "À revoir", "stale": "Ancien", "machine": "Machine"])
        let forced = try compile(
            """
            { "sourceLanguage" : "en", "strings" : {
              "extracted" : { "localizations" : { "fr" : \(Self.unit("Extrait", "new")) } },
              "brand" : { "shouldTranslate" : false, "localizations" : { "fr" : \(Self.unit("Lprojé")) } } } }
            """, includesAllStates: true)
        #expect(forced["fr"]?.strings.dictionary == ["extracted": "Extrait", "brand": "Lprojé"])
    }

    // MARK: Variations

    @Test func pluralVariationsBecomeOneVariableNamedValue() throws {
        let tables = try compile(
            """
            { "sourceLanguage" : "en", "strings" : { "%lld files" : { "localizations" : {
              "en" : { "variations" : { "plural" : { "one" : \(Self.unit("%lld file")), "other" : \(Self.unit("%lld files")) } } },
              "ja" : { "variations" : { "plural" : { "other" : \(Self.unit("%lld 個のファイル")) } } },
              "fr" : { "variations" : { "plural" : { "one" : \(Self.unit("%@ a %lld fichier")), "other" : \(Self.unit("%@ a %lld fichiers")) } } }
            } } } }
            """)
        let english = try #require(tables["en"]?.plurals["%lld files"])
        #expect(english.formatKey == "%#@value@")
        #expect(english.variables["value"]?.valueTypeText == "lld")
        #expect(english.variables["value"]?.forms == [.one: "%lld file", .other: "%lld files"])
        #expect(tables["en"]?.strings.contains("%lld files") == false)
        // Forms are copied as written: Japanese keeps only `other`.
        #expect(tables["ja"]?.plurals["%lld files"]?.variables["value"]?.forms == [.other: "%lld 個のファイル"])
        // The count is the form's first number: the second argument here.
        #expect(tables["fr"]?.plurals["%lld files"]?.formatKey == "%2$#@value@")
    }

    @Test func substitutionsBecomeVariablesAtTheirArguments() throws {
        let tables = try compile(
            """
            { "sourceLanguage" : "en", "strings" : { "%@ has %lld birds" : { "localizations" : {
              "en" : { "stringUnit" : { "state" : "translated", "value" : "%#@BIRDS@ for %@" },
                "substitutions" : { "BIRDS" : { "argNum" : 2, "formatSpecifier" : "lld", "variations" : { "plural" : {
                  "one" : \(Self.unit("%arg bird")), "other" : \(Self.unit("%arg birds and 100%% more")) } } } } } } } } }
            """)
        let entry = try #require(tables["en"]?.plurals["%@ has %lld birds"])
        // The reference stands first but counts the second argument.
        #expect(entry.formatKey == "%2$#@BIRDS@ for %@")
        #expect(entry.variables["BIRDS"]?.forms == [.one: "%2$lld bird", .other: "%2$lld birds and 100%% more"])
        #expect(entry.variables["BIRDS"]?.valueTypeText == "lld")
    }

    @Test func devicesChooseTheMacThenOther() throws {
        let tables = try compile(
            """
            { "sourceLanguage" : "en", "strings" : {
              "both" : { "localizations" : { "en" : { "variations" : { "device" : {
                "iphone" : \(Self.unit("Tap")), "mac" : \(Self.unit("Click")), "other" : \(Self.unit("Select")) } } } } },
              "other" : { "localizations" : { "en" : { "variations" : { "device" : {
                "iphone" : \(Self.unit("Tap")), "other" : \(Self.unit("Select")) } } } } },
              "phone only" : { "localizations" : { "en" : { "variations" : { "device" : { "iphone" : \(Self.unit("Tap")) } } } } },
              "nested" : { "localizations" : { "en" : { "variations" : { "device" : {
                "mac" : { "variations" : { "plural" : { "one" : \(Self.unit("%lld window")), "other" : \(Self.unit("%lld windows")) } } },
                "other" : \(Self.unit("%lld screens")) } } } } }
            } }
            """)
        let en = try #require(tables["en"])
        #expect(en.strings.dictionary == ["both": "Click", "other": "Select"])
        #expect(en.plurals["nested"]?.variables["value"]?.forms == [.one: "%lld window", .other: "%lld windows"])
    }

    // MARK: Robustness

    @Test func unknownFieldsAreIgnoredAndVersionsAccepted() throws {
        let file = try parse(
            """
            { "sourceLanguage" : "en", "version" : "1.1", "futureTopLevel" : [1, {"a": null}], "strings" : {
              "a" : { "isCommentAutoGenerated" : true, "generatesSymbol" : false, "commentGenerationVersion" : "1",
                "localizations" : { "en" : { "stringUnit" : { "state" : "translated", "value" : "A", "quality" : 0.9 }, "future" : {} } } } } }
            """)
        #expect(file.diagnostics.isEmpty)
        #expect(file.catalog.entries.first?.localizations["en"]?.stringUnit?.value == "A")
        let newer = try parse(#"{ "sourceLanguage" : "en", "version" : "2.0", "strings" : { } }"#)
        #expect(newer.diagnostics.map(\.code) == ["catalog-version"])
    }

    @Test func aMalformedEntryIsReportedWithItsPathAndTheRestLoads() throws {
        let json = """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "bad" : {
                  "localizations" : {
                    "en" : { "stringUnit" : { "state" : "translated", "value" : "Fine" } },
                    "fr" : { "stringUnit" : { "state" : "translated", "value" : 42 } }
                  }
                },
                "good" : { "localizations" : { "fr" : { "stringUnit" : { "state" : "translated", "value" : "Bien" } } } },
                "not an object" : "oops"
              }
            }
            """
        let file = try parse(json)
        let errors = file.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 2)
        let value = try #require(errors.first { $0.keyPath == #"strings["bad"].localizations.fr.stringUnit.value"# })
        #expect(value.location == LprojTables.SourceLocation(line: 7, column: 69))
        #expect(value.message.contains("expected a string, found a number"))
        #expect(value.message.contains(#""bad" is left out in fr"#))
        let notObject = try #require(errors.first { $0.keyPath == #"strings["not an object"]"# })
        #expect(notObject.location == LprojTables.SourceLocation(line: 11, column: 23))
        let compiled = StringCatalogCompiler().compile(file.catalog)
        let tables = Dictionary(uniqueKeysWithValues: compiled.tables.map { ($0.language, $0) })
        #expect(tables["en"]?.strings.value(forKey: "bad") == "Fine")
        #expect(tables["fr"]?.strings.dictionary == ["good": "Bien"])
    }

    @Test func brokenJSONIsAnErrorWithItsPosition() throws {
        let cases: [(String, LprojTables.SourceLocation, String)] = [
            (
                "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : { \"a\" : { } \n]", LprojTables.SourceLocation(line: 4, column: 1),
                "expected ',' or '}'"
            ),
            (
                "{ \"sourceLanguage\" : \"en\", \"strings\" : { \"a\\q\" : {} } }", LprojTables.SourceLocation(line: 1, column: 44),
                "not an escape"
            ),
            (
                "{ \"sourceLanguage\" : \"en\", \"strings\" : { \"\u{1}\" : {} } }", LprojTables.SourceLocation(line: 1, column: 43),
                "control character"
            ),
            // Foundation refuses a number past a Double's range, wherever it is.
            (
                "{ \"sourceLanguage\" : \"en\", \"strings\" : { \"a\" : { \"x\" : 1e999 } } }",
                LprojTables.SourceLocation(line: 1, column: 56), "a number out of range"
            ),
            ("[]", LprojTables.SourceLocation(line: 1, column: 1), "the top level is an array"),
            ("{ \"strings\" : {} }", LprojTables.SourceLocation(line: 1, column: 1), "sourceLanguage is missing"),
        ]
        for (json, location, message) in cases {
            #expect {
                try parse(json)
            } throws: { error in
                guard let error = error as? TableParseError else { return false }
                return error.location == location && error.message.contains(message)
            }
        }
        // Invalid UTF-8 and deep nesting are refused, not crashed on.
        #expect(throws: TableParseError.self) {
            try StringCatalogParser().parse(
                Array(#"{ "sourceLanguage" : "en", "strings" : { ""#.utf8) + [0xC3, 0x28] + Array(#"" : {} } }"#.utf8))
        }
        let deep =
            "{ \"sourceLanguage\" : \"en\", \"strings\" : {}, \"x\" : " + String(repeating: "[", count: 100_000)
            + String(repeating: "]", count: 100_000) + " }"
        #expect(throws: TableParseError.self) { try parse(deep) }
    }

    @Test func escapesAndSurrogatesDecode() throws {
        let file = try parse(#"{ "sourceLanguage" : "en", "strings" : { "a\"b\\\/\n\u00e9\ud83d\ude00" : { } } }"#)
        #expect(file.catalog.entries.first?.key == "a\"b\\/\né😀")
        #expect(throws: TableParseError.self) { try parse(#"{ "sourceLanguage" : "en", "strings" : { "\ud83d" : { } } }"#) }
    }

    @Test func undefinedSubstitutionIsAnErrorForThatLanguageOnly() throws {
        let file = try parse(
            """
            { "sourceLanguage" : "en", "strings" : { "k" : { "localizations" : {
              "en" : \(Self.unit("Plain")),
              "fr" : { "stringUnit" : { "state" : "translated", "value" : "%#@MISSING@" } } } } } }
            """)
        let compilation = StringCatalogCompiler().compile(file.catalog)
        #expect(compilation.diagnostics.count == 1)
        #expect(compilation.diagnostics.first?.message.contains("'MISSING'") == true)
        #expect(compilation.tables.first { $0.language == "en" }?.strings.value(forKey: "k") == "Plain")
        #expect(compilation.tables.first { $0.language == "fr" }?.strings.isEmpty == true)
    }

    @Test func argPlaceholderIsReplacedButNotAfterAnEscapedPercent() {
        #expect(StringCatalogCompiler.replacingArg(in: "%arg of 100%%arg", with: "%1$lld") == "%1$lld of 100%%arg")
        #expect(StringCatalogCompiler.replacingArg(in: "no placeholder", with: "%1$lld") == "no placeholder")
    }
}
