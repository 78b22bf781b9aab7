import Testing
@testable import LprojExtract

/// `--routine`: an app's own function or macro that takes a key, as
/// `genstrings -s` has them, in every language.
@Suite struct RoutineTests {
    @Test func theSpecificationIsReadAndWrittenBack() throws {
        let sparkle = try Routine("SULocalizedStringFromTableInBundle:1,2,,4")
        #expect(sparkle.name == "SULocalizedStringFromTableInBundle")
        #expect(sparkle.forms == ["SULocalizedStringFromTableInBundle": ArgumentForm(key: 0, table: 1, value: nil, comment: 3)])
        #expect(sparkle.description == "SULocalizedStringFromTableInBundle:1,2,,4")
        #expect(try Routine("APP_TR:2, 3").forms == ["APP_TR": ArgumentForm(key: 1, table: 2, value: nil, comment: nil)])
        #expect(try Routine("tr:1,0,0,2").forms == ["tr": ArgumentForm(key: 0, table: nil, value: nil, comment: 1)])
        #expect(try Routine("_:1").description == "_:1,,,")
        // NAME alone: NSLocalizedString's form, and Foundation's variants.
        let plain = try Routine("MyLocalizedString")
        #expect(plain.description == "MyLocalizedString")
        #expect(
            plain.forms == [
                "MyLocalizedString": ArgumentForm(key: 0, table: nil, value: nil, comment: 1),
                "MyLocalizedStringFromTable": ArgumentForm(key: 0, table: 1, value: nil, comment: 2),
                "MyLocalizedStringFromTableInBundle": ArgumentForm(key: 0, table: 1, value: nil, comment: 3),
                "MyLocalizedStringWithDefaultValue": ArgumentForm(key: 0, table: 1, value: 3, comment: 4),
            ])
    }

    @Test(arguments: [
        ("", "is not a function or macro name"),
        ("2tr", "\"2tr\" is not a function or macro name"),
        ("my-tr", "is not a function or macro name"),
        ("L10n.tr:1", "is not a function or macro name"),
        ("tr:", "the key's position is needed"),
        ("tr:0,2", "the key's position is needed"),
        ("tr:,2", "the key's position is needed"),
        ("tr:1,2,3,4,5", "at most four positions (key, table, value, comment), not 5"),
        ("tr:one", "the key position \"one\" is not a number from 1 to 64"),
        ("tr:1,-2", "the table position \"-2\" is not a number from 1 to 64"),
        ("tr:1,,99", "the value position \"99\" is not a number from 1 to 64"),
        ("tr:1,2,,1", "the comment and the key are both argument 1"),
    ])
    func aWrongSpecificationSaysWhy(_ specification: String, _ message: String) {
        do {
            let routine = try Routine(specification)
            Issue.record("\(specification) was taken as \(routine)")
        } catch {
            #expect(error.description.hasPrefix("--routine \(specification): "), "\(error)")
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func cAndObjectiveCMacrosAndTheCClientWrapped() throws {
        let source = #"""
            #define SULocalizedStringFromTableInBundle(key, tbl, bundle, comment) NSLocalizedStringFromTableInBundle(key, tbl, bundle, comment)
            #define SULocalizedString(key, comment) SULocalizedStringFromTableInBundle(key, @"Sparkle", \
                SUSparkleBundle(), comment)
            #define APP_TR(loc, key, table) lprojd_localizer_lookup((loc), (key), (table), NULL)
            #define LOC_MORE AAPLLocalizedString(@"MORE", @"The More button")
            NSString *a = SULocalizedStringFromTableInBundle(@"Update available", @"Sparkle", bundle, @"Title of the alert");
            NSString *b = SULocalizedStringFromTableInBundle(someKey, @"Sparkle", bundle, nil);
            const char *c = APP_TR(app_localizer, "menu.quit", "Menu");
            const char *d = APP_TR(app_localizer, "plain", NULL);
            NSString *e = MyLocalizedString(@"hello", @"Greets");
            NSString *f = MyLocalizedStringWithDefaultValue(@"long", @"Extra", bundle, @"Long value", @"Has a value");
            NSString *g = NSLocalizedString(@"builtin", nil);
            """#
        let routines = try ["SULocalizedStringFromTableInBundle:1,2,,4", "APP_TR:2,3", "MyLocalizedString", "AAPLLocalizedString"]
            .map { try Routine($0) }
        let result = CExtractor(routines: routines).extract(source: source, file: "a.m")
        #expect(result.strings.map(\.key) == ["MORE", "Update available", "menu.quit", "plain", "hello", "long", "builtin"])
        let byKey = Dictionary(uniqueKeysWithValues: result.strings.map { ($0.key, $0) })
        #expect(byKey["MORE"]?.comment == "The More button" && byKey["MORE"]?.location == Location(file: "a.m", line: 5, column: 38))
        #expect(byKey["Update available"]?.table == "Sparkle" && byKey["Update available"]?.comment == "Title of the alert")
        #expect(byKey["menu.quit"]?.table == "Menu" && byKey["menu.quit"]?.comment == nil && byKey["menu.quit"]?.defaultValue == nil)
        #expect(byKey["plain"]?.table == "Localizable")
        #expect(byKey["hello"]?.comment == "Greets")
        #expect(byKey["long"]?.table == "Extra" && byKey["long"]?.defaultValue == "Long value" && byKey["long"]?.comment == "Has a value")
        // The macros' own definitions pass their parameters on: no warning.
        // A use whose key is a variable is warned about.
        #expect(result.warnings.map(\.location) == [Location(file: "a.m", line: 7, column: 50)])
        // Without the routines, only the built-in calls.
        #expect(CExtractor().extract(source: source, file: "a.m").strings.map(\.key) == ["builtin"])
    }

    @Test func aRoutineOfTheNameOfABuiltInCallWins() throws {
        let source = #"x = NSLocalizedString(@"comment first", @"the.key");"#
        let result = CExtractor(routines: [try Routine("NSLocalizedString:2,,,1")]).extract(source: source, file: "a.m")
        #expect(result.strings.map(\.key) == ["the.key"] && result.strings.first?.comment == "comment first")
    }

    @Test func swiftFunctionsByPositionAndByLabel() throws {
        let source = #"""
            func L(_ key: String, _ comment: String) -> String { Bundle.main.localizedString(forKey: key, value: nil, table: nil) }
            let a = L("plain", "A comment")
            let b = Strings.tr("Menu", "menu.open", fallback: "Open…")
            let c = MyLocalizedString("labelled", tableName: "Extra", value: "Labelled value", comment: "By label")
            let d = T("commented", comment: "Second, labelled")
            let e = tr(in: "Menu", "reversed")
            let f = L(dynamic, "")
            let g = L("interpolated \(name)", "")
            let h = L()
            let i = NSLocalizedString("builtin", comment: "")
            """#
        let routines = try ["L", "tr:2,1,3", "MyLocalizedString", "T:1,2,,3"].map { try Routine($0) }
        let result = SwiftExtractor(routines: routines).extract(source: source, file: "App.swift")
        #expect(result.strings.map(\.key) == ["plain", "menu.open", "labelled", "commented", "reversed", "builtin"])
        let byKey = Dictionary(uniqueKeysWithValues: result.strings.map { ($0.key, $0) })
        #expect(byKey["plain"]?.comment == "A comment" && byKey["plain"]?.table == "Localizable")
        #expect(byKey["plain"]?.location == Location(file: "App.swift", line: 2, column: 11))
        #expect(byKey["menu.open"]?.table == "Menu" && byKey["menu.open"]?.defaultValue == "Open…")
        #expect(byKey["labelled"]?.table == "Extra" && byKey["labelled"]?.defaultValue == "Labelled value")
        #expect(byKey["labelled"]?.comment == "By label")
        // `comment:` stands where the table would: it is the comment, not the table.
        #expect(byKey["commented"]?.comment == "Second, labelled" && byKey["commented"]?.table == "Localizable")
        // A label that names no part is counted by position.
        #expect(byKey["reversed"]?.table == "Menu")
        #expect(result.warnings.map(\.location.line) == [7, 8, 9])
        #expect(result.warnings[0].message.contains("not a string literal"))
        #expect(result.warnings[1].message.contains("interpolated key"))
        #expect(result.warnings[2].message.contains("no argument 1 (the key)"))
        #expect(SwiftExtractor().extract(source: source, file: "App.swift").strings.map(\.key) == ["builtin"])
    }
}
