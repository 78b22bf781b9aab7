import Foundation
import LprojFormatting
import LprojLocales
import Testing

@Suite struct PreferencesTests {
    @Test func fieldsAreCheckedAndCanonicalized() throws {
        var preferences = FormattingPreferences()
        try preferences.set(.timeZone, to: "US/Pacific")
        #expect(preferences.timeZone == "America/Los_Angeles")
        try preferences.set(.timeZone, to: "GMT+2")
        #expect(preferences.timeZone == "GMT+02:00")
        try preferences.set(.calendar, to: "gregory")
        #expect(preferences.calendar == "gregorian")
        try preferences.set(.calendar, to: "islamic-civil")
        #expect(preferences.calendar == "islamic-civil")
        try preferences.set(.distanceUnit, to: "miles")
        try preferences.set(.speedUnit, to: "knots")
        try preferences.set(.dateFormat, to: "yyyy.MM.dd")
        try preferences.set(.currencySymbol, to: "CHF")
        #expect(
            preferences
                == FormattingPreferences(
                    dateFormat: "yyyy.MM.dd", distanceUnit: .miles, speedUnit: .knots, currencySymbol: "CHF", timeZone: "GMT+02:00",
                    calendar: "islamic-civil"))
        try preferences.set(.speedUnit, to: nil)
        #expect(preferences.speedUnit == nil)
    }

    @Test(arguments: [
        (FormattingPreferences.Field.timeZone, "Mars/Olympus_Mons", "not a time zone"),
        (.calendar, "mayan", "not a calendar"),
        (.distanceUnit, "parsecs", "not one of meters, kilometers, feet, yards, miles"),
        (.speedUnit, "warp", "not one of"),
        (.dateFormat, "'unterminated", "never closed"),
        (.dateFormat, "yyyy-MM-dd Jj", "'J' (character 12) is not a pattern letter"),
        (.timeFormat, "HH:mm p", "'p' (character 7) is not a pattern letter"),
        (.dateFormat, "", "not empty"),
        (.currencySymbol, "", "1 to 32 bytes"),
        (.currencySymbol, String(repeating: "$", count: 33), "1 to 32 bytes"),
        // Counted in bytes, not characters: one base and many combining marks is long.
        (.currencySymbol, "$" + String(repeating: "\u{301}", count: 16), "1 to 32 bytes"),
        (.currencySymbol, "$\n", "without control characters"),
    ])
    func badValuesAreRefusedWithAReason(field: FormattingPreferences.Field, value: String, reason: String) {
        var preferences = FormattingPreferences()
        do {
            try preferences.set(field, to: value)
            Issue.record("accepted \(field) = \(value)")
        } catch {
            #expect(error.description.hasPrefix(field.rawValue + ":"), "\(error)")
            #expect(error.description.contains(reason), "\(error)")
        }
        #expect(preferences.isEmpty)
    }

    @Test func changedFieldsAreListed() {
        let before = FormattingPreferences(distanceUnit: .meters, timeZone: "GMT")
        let after = FormattingPreferences(distanceUnit: .miles, timeZone: "GMT", calendar: "japanese")
        #expect(after.changedFields(from: before) == [.distanceUnit, .calendar])
        #expect(after.changedFields(from: after).isEmpty)
    }

    @Test func badRequestsAreClearErrors() throws {
        let f = LocaleFormatter(locale: try LocaleIdentifier("de"))
        #expect(throws: FormattingError.invalidValue("number", "nan is not a finite number")) { try f.format(.number(.nan, .decimal)) }
        #expect(throws: FormattingError.self) { try f.format(.number(1, .decimal, fractionDigits: 99)) }
        #expect(throws: FormattingError.self) { try f.format(.number(1, .currency, currencyCode: "XYZ")) }
        #expect(throws: FormattingError.self) { try f.format(.date(seconds: 0, .pattern("'open"))) }
        #expect(throws: FormattingError.self) { try f.format(.date(seconds: 0, .template(""))) }
        #expect(throws: FormattingError.self) { try f.format(.date(seconds: 1e300, .simpleDate)) }
        #expect(throws: FormattingError.self) { try f.format(.date(seconds: 0, .simpleDate, timeZone: "Nowhere/Land")) }
        // A language without a region still has a currency (its likely region's).
        #expect(try f.format(.number(3, .currency)).unit == "EUR")
    }
}

/// Locale names, checked against Babel 2.12.1 (CLDR 42, as ICU 72): the
/// same names, ICU's written as a menu would (an initial capital where the
/// language puts one there).
@Suite struct LocaleNamesTests {
    static let tags = ["en-US", "en-GB", "de", "fr", "ar", "ja", "tr", "pt-BR", "zh-Hant", "es-419", "en", "pt", "zh", "es"]

    /// Babel joins a language and its region as "A (B)" and may use a
    /// region's short form, where ICU follows CLDR's display pattern
    /// ("英文（美國）"): a language alone must match exactly (but for case),
    /// a language with a region must contain Babel's language name.
    @Test func namesMatchBabel() throws {
        let babel = try Self.babelNames()
        for display in Self.tags {
            let formatter = LocaleFormatter(locale: try LocaleIdentifier(display))
            for tag in Self.tags {
                let name = formatter.name(of: try LocaleIdentifier(tag))
                let expected = try #require(babel["\(tag) in \(display)"])
                if tag.contains("-") {
                    let language = try #require(babel["\(tag.split(separator: "-")[0]) in \(display)"])
                    #expect(name.lowercased().hasPrefix(language.lowercased()), "\(tag) in \(display): \(name), Babel \(expected)")
                } else {
                    #expect(name.lowercased() == expected.lowercased(), "\(tag) in \(display): \(name), Babel \(expected)")
                }
            }
        }
        #expect(LocaleFormatter.nativeName(of: try LocaleIdentifier("de")) == "Deutsch")
        #expect(LocaleFormatter.nativeName(of: try LocaleIdentifier("ja")) == "日本語")
        // As a menu writes it: French capitalizes a language name there.
        #expect(LocaleFormatter.nativeName(of: try LocaleIdentifier("fr")) == "Français")
        #expect(LocaleFormatter(locale: try LocaleIdentifier("fr")).name(of: try LocaleIdentifier("de")) == "Allemand")
    }

    static func babelNames() throws -> [String: String] {
        let script = """
            import json, sys
            import babel
            from babel import Locale
            assert babel.__version__ == "2.12.1", "expected Babel 2.12.1 (CLDR 42), found " + babel.__version__
            tags = json.load(sys.stdin)
            json.dump({f"{t} in {d}": Locale.parse(t, sep="-").get_display_name(Locale.parse(d, sep="-")) for d in tags for t in tags}, sys.stdout)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: tags))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.featureUnsupported) }
        return try JSONSerialization.jsonObject(with: data) as? [String: String] ?? [:]
    }
}
