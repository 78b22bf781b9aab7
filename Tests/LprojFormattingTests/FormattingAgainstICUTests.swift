import CICUOracle
import LprojFormatting
import LprojLocales
import Testing

/// Every style for a spread of locales, checked against ICU's own output:
/// the oracle calls ICU directly, mostly through other APIs than lprojd's
/// (number skeletons and field positions instead of UNumberFormat's
/// settings, u_strToUpper instead of UCaseMap), so what is checked is that
/// lprojd asks ICU the right question for each style.
@Suite struct FormattingAgainstICUTests {
    /// Tag, ICU locale ID with its region (for the currency), and whether it
    /// measures in US units.
    static let locales: [(tag: String, id: String, us: Bool, imperialSpeed: Bool)] = [
        ("en-US", "en_US", true, true), ("en-GB", "en_GB", false, true), ("de", "de_DE", false, false),
        ("fr", "fr_FR", false, false), ("ar", "ar_EG", false, false), ("ja", "ja_JP", false, false),
        ("tr", "tr_TR", false, false), ("pt-BR", "pt_BR", false, false),
    ]
    static let numbers: [Double] = [1_234_567.891, 0.5, -42, 25, 1_000]
    /// 2023-11-14T22:13:20.123Z
    static let instant = 1_700_000_000.123

    static func oracle(_ fill: (UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 2048)
        let length = fill(&buffer, 2048)
        guard length >= 0, length < 2048 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func skeleton(
        _ id: String, _ skeleton: String, _ value: Double, decimal: String? = nil, grouping: String? = nil, symbol: String? = nil
    ) -> String? {
        oracle { oracle_format_skeleton(id, skeleton, value, decimal, grouping, symbol, $0, $1) }
    }

    func formatter(
        _ tag: String, _ preferences: FormattingPreferences = FormattingPreferences(), decimal: String? = nil, grouping: String? = nil
    ) throws -> LocaleFormatter {
        LocaleFormatter(locale: try LocaleIdentifier(tag), preferences: preferences, decimalSeparator: decimal, groupingSeparator: grouping)
    }

    @Test(arguments: locales.map(\.tag))
    func numbersAreICUs(tag: String) throws {
        let id = Self.locales.first { $0.tag == tag }!.id
        let f = try formatter(tag)
        let currency = try #require(Self.oracle { oracle_currency(id, $0, $1) })
        for value in Self.numbers {
            #expect(try f.format(.number(value, .decimal)).value == Self.skeleton(id, ".###", value), "\(tag) decimal \(value)")
            // A percent is the number itself, at most 2 fraction digits.
            #expect(try f.format(.number(value, .percent)).value == Self.skeleton(id, "percent .##", value), "\(tag) percent \(value)")
            #expect(
                try f.format(.number(value, .currency)).value == Self.skeleton(id, "currency/\(currency) .00", value),
                "\(tag) currency \(value)")
            #expect(
                try f.format(.number(value, .scientific)).value == Self.skeleton(id, "scientific .##########", value),
                "\(tag) scientific \(value)")
            #expect(
                try f.format(.number(value, .spellOut)).value == Self.oracle { oracle_spell_out(id, value, $0, $1) },
                "\(tag) spell-out \(value)")
            #expect(
                try f.format(.number(value, .decimal, fractionDigits: 2)).value == Self.skeleton(id, ".00", value),
                "\(tag) 2 digits \(value)")
        }
        #expect(try f.format(.number(9.5, .currency, currencyCode: "CHF")).value == Self.skeleton(id, "currency/CHF .00", 9.5))
    }

    @Test(arguments: locales.map(\.tag))
    func aSavedCurrencySymbolAndTheBundlesSeparatorsReplaceTheLocales(tag: String) throws {
        let id = Self.locales.first { $0.tag == tag }!.id
        let currency = try #require(Self.oracle { oracle_currency(id, $0, $1) })
        let f = try formatter(tag, FormattingPreferences(currencySymbol: "US$"), decimal: "·", grouping: "'")
        let value = 1_234_567.891
        #expect(try f.format(.number(value, .decimal)).value == Self.skeleton(id, ".###", value, decimal: "·", grouping: "'"))
        // The saved symbol replaces the currency's whole symbol. Arabic's
        // carry a right-to-left mark of their own in CLDR, which goes with
        // them, while ICU's field position stops before it.
        let bidiMarks: Set<Unicode.Scalar> = ["\u{200E}", "\u{200F}", "\u{061C}"]
        func withoutMarks(_ text: String?) -> String? {
            text.map { String(String.UnicodeScalarView($0.unicodeScalars.filter { !bidiMarks.contains($0) })) }
        }
        #expect(
            withoutMarks(try f.format(.number(value, .currency)).value)
                == withoutMarks(Self.skeleton(id, "currency/\(currency) .00", value, decimal: "·", grouping: "'", symbol: "US$")))
        #expect(
            try f.format(.distance(meters: value, unit: .meters)).value
                == Self.skeleton(id, "measure-unit/length-meter unit-width-short .0", value, decimal: "·", grouping: "'"))
        // Spelled out, there are no separators to replace.
        #expect(try f.format(.number(value, .spellOut)).value == Self.oracle { oracle_spell_out(id, value, $0, $1) })
    }

    @Test(arguments: locales.map(\.tag))
    func distancesAndSpeedsAreInTheLocalesUnitsWithOneFractionDigit(tag: String) throws {
        let entry = Self.locales.first { $0.tag == tag }!
        let f = try formatter(tag)
        let distance = try f.format(.distance(meters: 1_500))
        if entry.us {
            #expect(distance.unit == "feet")
            #expect(distance.value == Self.skeleton(entry.id, "measure-unit/length-foot unit-width-short .0", 1_500 / 0.3048))
        } else {
            #expect(distance.unit == "meters")
            #expect(distance.value == Self.skeleton(entry.id, "measure-unit/length-meter unit-width-short .0", 1_500))
        }
        let speed = try f.format(.speed(metersPerSecond: 10))
        if entry.imperialSpeed {
            #expect(speed.unit == "milesPerHour")
            #expect(speed.value == Self.skeleton(entry.id, "measure-unit/speed-mile-per-hour unit-width-short .0", 10 * 3600 / 1609.344))
        } else {
            #expect(speed.unit == "kilometersPerHour")
            #expect(speed.value == Self.skeleton(entry.id, "measure-unit/speed-kilometer-per-hour unit-width-short .0", 36))
        }
        // The client's unit wins over the locale's; the caller's over both.
        let miles = try formatter(tag, FormattingPreferences(distanceUnit: .miles))
        #expect(
            try miles.format(.distance(meters: 1_609.344)).value
                == Self.skeleton(entry.id, "measure-unit/length-mile unit-width-short .0", 1))
        #expect(
            try miles.format(.distance(meters: 2_000, unit: .kilometers, fractionDigits: 2)).value
                == Self.skeleton(entry.id, "measure-unit/length-kilometer unit-width-short .00", 2))
    }

    @Test(arguments: locales.map(\.tag))
    func namedDateFormatsAreTheLocalesPatternsForSDLocalizationManagersTemplates(tag: String) throws {
        let id = Self.locales.first { $0.tag == tag }!.id
        let f = try formatter(tag)
        let styles: [(DateFormatStyle, String)] = [
            (.simpleDate, "dd/MM/yyyy"), (.time12, "hh:mm a"), (.time24, "HH:mm"), (.simpleDateTime, "dd/MM/yyyy HH:mm"),
            (.template("yMMMMEEEEd"), "yMMMMEEEEd"),
        ]
        for (style, template) in styles {
            let pattern = try #require(Self.oracle { oracle_best_pattern(id, template, $0, $1) })
            let formatted = try f.format(.date(seconds: Self.instant, style))
            #expect(formatted.pattern == pattern, "\(tag) \(template)")
            #expect(
                formatted.value == Self.oracle { oracle_format_date(id, pattern, "GMT", Self.instant * 1000, $0, $1) }, "\(tag) \(template)"
            )
            #expect(formatted.timeZone == "GMT")
        }
    }

    @Test func theClientsTimeZoneAndCalendarApply() throws {
        let rome = try formatter("de", FormattingPreferences(timeZone: "Europe/Rome"))
        #expect(try rome.format(.date(seconds: Self.instant, .time24)).value == "23:13")
        // The caller's time zone wins.
        #expect(try rome.format(.date(seconds: Self.instant, .time24, timeZone: "America/New_York")).value == "17:13")
        let japanese = try formatter("ja", FormattingPreferences(timeZone: "Asia/Tokyo", calendar: "japanese"))
        let pattern = try #require(Self.oracle { oracle_best_pattern("ja_JP@calendar=japanese", "yMMMd", $0, $1) })
        let formatted = try japanese.format(.date(seconds: Self.instant, .template("yMMMd")))
        #expect(formatted.pattern == pattern && formatted.calendar == "japanese")
        #expect(
            formatted.value
                == Self.oracle { oracle_format_date("ja_JP@calendar=japanese", pattern, "Asia/Tokyo", Self.instant * 1000, $0, $1) })
        #expect(formatted.value.hasPrefix("令和"))
        let islamic = try formatter("ar").format(.date(seconds: Self.instant, .template("yMMMd"), calendar: "islamic"))
        let islamicPattern = try #require(Self.oracle { oracle_best_pattern("ar_EG@calendar=islamic", "yMMMd", $0, $1) })
        #expect(
            islamic.value
                == Self.oracle { oracle_format_date("ar_EG@calendar=islamic", islamicPattern, "GMT", Self.instant * 1000, $0, $1) })
    }

    @Test func theServerFormatIsFixedAndParses() throws {
        for tag in Self.locales.map(\.tag) {
            let f = try formatter(tag, FormattingPreferences(timeZone: "Asia/Tokyo", calendar: "japanese"))
            let formatted = try f.format(.date(seconds: Self.instant, .server))
            #expect(formatted.value == "2023-11-14 22:13:20.123", "\(tag): GMT, Gregorian and ASCII digits whatever the client chose")
            #expect(
                formatted.value
                    == Self.oracle { oracle_format_date("en_US_POSIX", "yyyy-MM-dd HH:mm:ss.SSS", "GMT", Self.instant * 1000, $0, $1) })
            #expect(try f.parseDate(formatted.value, style: .server) == Self.instant)
        }
        let f = try formatter("en-US")
        #expect(throws: FormattingError.self) { try f.parseDate("2023-11-14 22:13:20", style: .server) }
        #expect(throws: FormattingError.self) { try f.parseDate("2023-11-14 22:13:20.123 trailing", style: .server) }
        #expect(throws: FormattingError.self) { try f.parseDate("2023-13-45 99:99:99.999", style: .server) }
        do {
            _ = try f.parseDate("14/11/2023", style: .server)
            Issue.record("parsed")
        } catch {
            #expect(error.description.contains("does not match yyyy-MM-dd HH:mm:ss.SSS"))
        }
    }

    @Test func savedFormatsAreUsedAsWritten() throws {
        let plain = try formatter("fr")
        #expect(try plain.format(.date(seconds: Self.instant, .savedDate)).value == "14/11/2023")
        #expect(try plain.format(.date(seconds: Self.instant, .savedTime)).value == "22:13")
        #expect(try plain.format(.date(seconds: Self.instant, .savedDateTime)).value == "14/11/2023 22:13")
        let mine = try formatter("fr", FormattingPreferences(dateFormat: "EEEE d MMMM", timeFormat: "H'h'mm"))
        let formatted = try mine.format(.date(seconds: Self.instant, .savedDateTime))
        #expect(formatted.pattern == "EEEE d MMMM H'h'mm")
        #expect(formatted.value == Self.oracle { oracle_format_date("fr", "EEEE d MMMM H'h'mm", "GMT", Self.instant * 1000, $0, $1) })
    }

    @Test(arguments: locales.map(\.tag))
    func caseMappingFollowsTheLocale(tag: String) throws {
        let id = Self.locales.first { $0.tag == tag }!.id
        let f = try formatter(tag)
        let text = "istanbul İZMİR ıi ß Ǆ"
        #expect(try f.format(.uppercase(text)).value == Self.oracle { oracle_case(id, 1, text, $0, $1) })
        #expect(try f.format(.lowercase(text)).value == Self.oracle { oracle_case(id, 0, text, $0, $1) })
        if tag == "tr" {
            #expect(try f.format(.uppercase("istanbul")).value == "İSTANBUL")
            #expect(try f.format(.lowercase("IŞIK")).value == "ışık")
        } else {
            #expect(try f.format(.uppercase("istanbul")).value == "ISTANBUL")
        }
    }

    /// Formatters are reused across calls and threads (ICU's date and
    /// number formats are not thread-safe, so each is lent to one caller at
    /// a time): many at once must give what one alone gives.
    @Test func concurrentCallsGiveWhatOneCallGives() async throws {
        let requests: [(String, FormatRequest)] = Self.locales.flatMap { entry in
            [
                (entry.tag, FormatRequest.date(seconds: Self.instant, .simpleDateTime)), (entry.tag, .number(1234.5, .currency)),
                (entry.tag, .distance(meters: 1500)), (entry.tag, .number(42, .spellOut)),
            ]
        }
        var expected: [String] = []
        for (tag, request) in requests { expected.append(try formatter(tag).format(request).value) }
        let results = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var values: [String] = []
                    for _ in 0..<50 {
                        for (tag, request) in requests {
                            values.append(try LocaleFormatter(locale: try LocaleIdentifier(tag)).format(request).value)
                        }
                    }
                    return values
                }
            }
            var all: [[String]] = []
            for try await values in group { all.append(values) }
            return all
        }
        for values in results {
            #expect(values == Array(Array(repeating: expected, count: 50).joined()))
        }
    }

    @Test func arabicIsWrittenWithArabicDigits() throws {
        let f = try formatter("ar")
        for request in [
            FormatRequest.number(1234.5, .decimal), .number(25, .percent), .distance(meters: 1500),
            .date(seconds: Self.instant, .simpleDate),
        ] {
            let value = try f.format(request).value
            #expect(value.unicodeScalars.contains { (0x660...0x669).contains($0.value) }, "\(value)")
            #expect(!value.unicodeScalars.contains { (0x30...0x39).contains($0.value) }, "\(value)")
        }
    }
}
