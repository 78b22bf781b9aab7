import Testing
@testable import LprojExtract

@Suite struct CExtractorTests {
    @Test func macrosAndTheCClientsLookups() {
        let source = #"""
            // NSLocalizedString(@"commented out", nil);
            /* NSLocalizedString(@"also commented", nil); */
            NSString *a = NSLocalizedString(@"hello", @"Greeting");
            NSString *b = NSLocalizedStringFromTable(@"menu.file", @"Menu", @"The File menu");
            NSString *c = NSLocalizedStringWithDefaultValue(@"long.key", nil, [NSBundle mainBundle], @"Long " @"value", @"Split");
            CFStringRef d = CFCopyLocalizedString(CFSTR("cf.key"), CFSTR("From CF"));
            const char *e = lprojd_localizer_lookup(localizer, "c.key", "Extra", "Default");
            char *f = lprojd_localizer_dup_lookup(localizer, "multi" "part", NULL, NULL);
            const char *g = lprojd_localizer_lookup(localizer, dynamic_key, NULL, NULL);
            char c1 = '"'; const char *s = "NSLocalizedString(\"not a call\")";
            NSString *h = NSLocalizedString(@"esc\"aped\n\x41\101\u00e9", nil);
            """#
        let result = CExtractor().extract(source: source, file: "a.m")
        #expect(result.strings.map(\.key) == ["hello", "menu.file", "long.key", "cf.key", "c.key", "multipart", "esc\"aped\nAAé"])
        let byKey = Dictionary(uniqueKeysWithValues: result.strings.map { ($0.key, $0) })
        #expect(byKey["hello"]?.comment == "Greeting" && byKey["hello"]?.table == "Localizable")
        #expect(byKey["menu.file"]?.table == "Menu" && byKey["menu.file"]?.comment == "The File menu")
        #expect(byKey["long.key"]?.defaultValue == "Long value" && byKey["long.key"]?.comment == "Split")
        #expect(byKey["cf.key"]?.comment == "From CF")
        #expect(byKey["c.key"]?.table == "Extra" && byKey["c.key"]?.defaultValue == "Default")
        #expect(byKey["hello"]?.location == Location(file: "a.m", line: 3, column: 33))
        #expect(result.warnings.map(\.location.line) == [9])
    }

    @Test func anEmptyLiteralIsNoKey() {
        let source = #"""
            NSString *a = NSLocalizedString(@"", @"Nothing");
            NSString *b = NSLocalizedStringFromTable(@"" @"", @"Menu", nil);
            const char *c = lprojd_localizer_lookup(localizer, "", NULL, NULL);
            NSString *d = NSLocalizedString(@"kept", nil);
            """#
        let result = CExtractor().extract(source: source, file: "a.m")
        #expect(result.strings.map(\.key) == ["kept"])
        #expect(result.warnings.isEmpty)
    }
}
