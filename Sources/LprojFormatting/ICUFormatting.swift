internal import CLprojICU
internal import LprojLocales

/// The ICU calls behind the formatters, strings in and out.
enum ICUFormatting {
    /// Separators that replace the locale's (`LM_decimal_separator`,
    /// `LM_grouping_separator`).
    struct Separators: Sendable, Hashable {
        var decimal: String?
        var grouping: String?
    }

    /// What a number format depends on.
    struct NumberKey: Hashable, Sendable {
        let locale: String
        let style: NumberFormatStyle
        let minimumFractionDigits: Int?
        let maximumFractionDigits: Int?
        let separators: Separators
        let currencyCode: String?
        let currencySymbol: String?
    }

    static func number(_ value: Double, _ key: NumberKey) -> String? {
        numberFormats.with(key, open: { openNumberFormat(key) }) { format in
            ICU.string { lproj_style_format_double(format.pointer, value, $0, $1) }
        } ?? nil
    }

    private static func openNumberFormat(_ key: NumberKey) -> ICUHandle? {
        let icuStyle: lproj_number_style
        switch key.style {
        case .decimal: icuStyle = LPROJ_NUMBER_DECIMAL
        case .percent: icuStyle = LPROJ_NUMBER_PERCENT
        case .currency: icuStyle = LPROJ_NUMBER_CURRENCY
        case .scientific: icuStyle = LPROJ_NUMBER_SCIENTIFIC
        case .spellOut: icuStyle = LPROJ_NUMBER_SPELL_OUT
        }
        let pointer = withOptionalCString(key.separators.decimal) { decimal in
            withOptionalCString(key.separators.grouping) { grouping in
                withOptionalCString(key.currencyCode) { code in
                    withOptionalCString(key.currencySymbol) { symbol in
                        var options = lproj_number_options(
                            minimum_fraction_digits: Int32(key.minimumFractionDigits ?? -1),
                            maximum_fraction_digits: Int32(key.maximumFractionDigits ?? -1),
                            decimal_separator: decimal, grouping_separator: grouping,
                            currency_code: code, currency_symbol: symbol)
                        return lproj_style_format_open(key.locale, icuStyle, &options)
                    }
                }
            }
        }
        return pointer.map { ICUHandle($0, close: lproj_style_format_close) }
    }

    struct MeasureKey: Hashable, Sendable {
        let locale: String
        let unit: String
        let fractionDigits: Int
        let separators: Separators
    }

    static func measure(_ value: Double, _ key: MeasureKey) -> String? {
        // ICU's number formatters are immutable: one per key serves every thread.
        guard
            let format = measureFormats.value(
                key,
                make: {
                    let pointer = withOptionalCString(key.separators.decimal) { decimal in
                        withOptionalCString(key.separators.grouping) { grouping in
                            lproj_measure_format_open(key.locale, key.unit, Int32(key.fractionDigits), decimal, grouping)
                        }
                    }
                    return pointer.map { ICUHandle($0, close: lproj_measure_format_close) }
                })
        else { return nil }
        return ICU.string { lproj_measure_format_double(format.pointer, value, $0, $1) }
    }

    // A locale's measurement system and currency, and whether a currency
    // exists, each cost ICU a resource lookup; the answers never change.

    static func measurementSystem(_ locale: String) -> MeasurementSystem {
        measurementSystems.value(locale) {
            switch lproj_measurement_system(locale) {
            case 1: .us
            case 2: .uk
            default: .metric
            }
        } ?? .metric
    }

    static func currency(of locale: String) -> String? {
        localeCurrencies.value(locale) { ICU.string { lproj_locale_currency(locale, $0, $1) } }
    }

    static func isKnownCurrency(_ code: String) -> Bool {
        knownCurrencies.value(code) { lproj_currency_is_known(code) == 1 } ?? false
    }

    static func datePattern(template: String, locale: String, calendar: String?) -> String? {
        // The pattern generator is the costliest of all to open; its answers
        // are small strings, kept.
        datePatterns.value("\(locale)|\(calendar ?? "")|\(template)") {
            withOptionalCString(calendar) { calendar in
                ICU.string { lproj_date_pattern_for_template(locale, calendar, template, $0, $1) }
            }
        }
    }

    struct DateKey: Hashable, Sendable {
        let locale: String
        let calendar: String?
        let pattern: String
        let timeZone: String
    }

    static func date(_ milliseconds: Double, _ key: DateKey) -> String? {
        dateFormats.with(key, open: { openDateFormat(key) }) { format in
            ICU.string { lproj_date_formatter_format(format.pointer, milliseconds, $0, $1) }
        } ?? nil
    }

    private static func openDateFormat(_ key: DateKey) -> ICUHandle? {
        withOptionalCString(key.calendar) { calendar in
            lproj_date_formatter_open(key.locale, calendar, key.pattern, key.timeZone)
        }.map { ICUHandle($0, close: lproj_date_formatter_close) }
    }

    enum ParseResult: Equatable {
        case date(Double)
        /// Where (0-based, in UTF-16 units) parsing stopped.
        case stopped(at: Int)
        case unusable
    }

    static func parseDate(_ text: String, _ key: DateKey) -> ParseResult {
        dateFormats.with(key, open: { openDateFormat(key) }) { format in
            var milliseconds = 0.0
            let result = lproj_date_formatter_parse(format.pointer, text, &milliseconds)
            switch result {
            case 0: return ParseResult.date(milliseconds)
            case ..<0: return .unusable
            default: return .stopped(at: Int(result) - 1)
            }
        } ?? .unusable
    }

    /// Why ICU cannot use `pattern`, or nil when it can.
    static func datePatternProblem(_ pattern: String) -> String? {
        guard pattern.utf8.count <= 256 else { return "a pattern is at most 256 bytes" }
        let verdict = patternVerdicts.value(pattern) {
            if let problem = DatePattern.problem(in: pattern) { return .some(problem) }
            return lproj_date_pattern_is_valid(pattern) == 1 ? .some(nil) : .some("ICU cannot format with it")
        }
        return verdict ?? nil
    }

    // MARK: Caches

    private static let numberFormats = HandlePool<NumberKey, ICUHandle>(keyCapacity: 512, perKey: 8)
    private static let measureFormats = BoundedCache<MeasureKey, ICUHandle>(capacity: 512)
    private static let dateFormats = HandlePool<DateKey, ICUHandle>(keyCapacity: 512, perKey: 8)
    private static let datePatterns = BoundedCache<String, String>(capacity: 2048)
    private static let patternVerdicts = BoundedCache<String, String?>(capacity: 2048)
    private static let measurementSystems = BoundedCache<String, MeasurementSystem>(capacity: 512)
    private static let localeCurrencies = BoundedCache<String, String>(capacity: 512)
    private static let knownCurrencies = BoundedCache<String, Bool>(capacity: 512)

    static func canonicalTimeZone(_ zone: String) throws(FormattingError) -> String {
        guard zone.utf8.count <= 64, !zone.contains("\0"), let canonical = ICU.string({ lproj_time_zone_canonical(zone, $0, $1) }) else {
            throw .invalidValue("timeZone", "'\(zone)' is not a time zone ICU knows (an IANA name such as Europe/Rome, or GMT+02:00)")
        }
        return canonical
    }

    static func canonicalCalendar(_ calendar: String) throws(FormattingError) -> String {
        guard calendar.utf8.count <= 40, !calendar.contains("\0"),
            let canonical = ICU.string({ lproj_calendar_canonical(calendar, $0, $1) })
        else {
            throw .invalidValue(
                "calendar", "'\(calendar)' is not a calendar ICU knows (gregorian, japanese, buddhist, islamic, hebrew, ...)")
        }
        return canonical
    }

    static func caseMapped(_ text: String, upper: Bool, locale: String) -> String? {
        var text = text
        return text.withUTF8 { bytes in
            ICU.string { out, capacity in
                bytes.withMemoryRebound(to: CChar.self) { characters in
                    lproj_case_map(locale, upper ? 1 : 0, characters.baseAddress, Int32(characters.count), out, capacity)
                }
            }
        }
    }

    static func displayName(of locale: String, in displayLocale: String) -> String? {
        ICU.string { lproj_locale_display_name(locale, displayLocale, $0, $1) }
    }

    private static func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }
}

/// An ICU formatter handle from the shim, closed when the last reference
/// goes. A pool hands each to one thread at a time, or (for ICU's
/// immutable number formatters) shares it.
final class ICUHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    private let close: (OpaquePointer?) -> Void

    init(_ pointer: OpaquePointer, close: @escaping (OpaquePointer?) -> Void) {
        self.pointer = pointer
        self.close = close
    }

    deinit { close(pointer) }
}
