internal import CLprojICU
internal import LprojLocales

/// The ICU calls behind the formatters, strings in and out.
enum ICUFormatting {
    /// Separators that replace the locale's (`LM_decimal_separator`,
    /// `LM_grouping_separator`).
    struct Separators: Sendable, Equatable {
        var decimal: String?
        var grouping: String?
    }

    static func number(
        _ value: Double, style: NumberFormatStyle, locale: String, minimumFractionDigits: Int?, maximumFractionDigits: Int?,
        separators: Separators, currencyCode: String?, currencySymbol: String?
    ) -> String? {
        let icuStyle: lproj_number_style
        switch style {
        case .decimal: icuStyle = LPROJ_NUMBER_DECIMAL
        case .percent: icuStyle = LPROJ_NUMBER_PERCENT
        case .currency: icuStyle = LPROJ_NUMBER_CURRENCY
        case .scientific: icuStyle = LPROJ_NUMBER_SCIENTIFIC
        case .spellOut: icuStyle = LPROJ_NUMBER_SPELL_OUT
        }
        return withOptionalCString(separators.decimal) { decimal in
            withOptionalCString(separators.grouping) { grouping in
                withOptionalCString(currencyCode) { code in
                    withOptionalCString(currencySymbol) { symbol in
                        var options = lproj_number_options(
                            minimum_fraction_digits: Int32(minimumFractionDigits ?? -1),
                            maximum_fraction_digits: Int32(maximumFractionDigits ?? -1),
                            decimal_separator: decimal, grouping_separator: grouping,
                            currency_code: code, currency_symbol: symbol)
                        return ICU.string { lproj_format_number(locale, icuStyle, value, &options, $0, $1) }
                    }
                }
            }
        }
    }

    static func measure(_ value: Double, unit: String, locale: String, fractionDigits: Int, separators: Separators) -> String? {
        withOptionalCString(separators.decimal) { decimal in
            withOptionalCString(separators.grouping) { grouping in
                ICU.string { lproj_format_measure(locale, unit, value, Int32(fractionDigits), decimal, grouping, $0, $1) }
            }
        }
    }

    static func measurementSystem(_ locale: String) -> MeasurementSystem {
        switch lproj_measurement_system(locale) {
        case 1: .us
        case 2: .uk
        default: .metric
        }
    }

    static func currency(of locale: String) -> String? {
        ICU.string { lproj_locale_currency(locale, $0, $1) }
    }

    static func isKnownCurrency(_ code: String) -> Bool {
        lproj_currency_is_known(code) == 1
    }

    static func datePattern(template: String, locale: String, calendar: String?) -> String? {
        withOptionalCString(calendar) { calendar in
            ICU.string { lproj_date_pattern_for_template(locale, calendar, template, $0, $1) }
        }
    }

    static func date(_ milliseconds: Double, pattern: String, locale: String, timeZone: String, calendar: String?) -> String? {
        withOptionalCString(calendar) { calendar in
            ICU.string { lproj_date_format(locale, calendar, pattern, timeZone, milliseconds, $0, $1) }
        }
    }

    enum ParseResult: Equatable {
        case date(Double)
        /// Where (0-based, in UTF-16 units) parsing stopped.
        case stopped(at: Int)
        case unusable
    }

    static func parseDate(_ text: String, pattern: String, locale: String, timeZone: String, calendar: String?) -> ParseResult {
        var milliseconds = 0.0
        let result = withOptionalCString(calendar) { calendar in
            lproj_date_parse(locale, calendar, pattern, timeZone, text, &milliseconds)
        }
        switch result {
        case 0: return .date(milliseconds)
        case ..<0: return .unusable
        default: return .stopped(at: Int(result) - 1)
        }
    }

    /// Why ICU cannot use `pattern`, or nil when it can.
    static func datePatternProblem(_ pattern: String) -> String? {
        guard pattern.utf8.count <= 256 else { return "a pattern is at most 256 bytes" }
        if let problem = DatePattern.problem(in: pattern) { return problem }
        return lproj_date_pattern_is_valid(pattern) == 1 ? nil : "ICU cannot format with it"
    }

    static func canonicalTimeZone(_ zone: String) throws(FormattingError) -> String {
        guard zone.utf8.count <= 64, !zone.contains("\0"), let canonical = ICU.string({ lproj_time_zone_canonical(zone, $0, $1) }) else {
            throw .invalidValue("timeZone", "'\(zone)' is not a time zone ICU knows (an IANA name such as Europe/Rome, or GMT+02:00)")
        }
        return canonical
    }

    static func canonicalCalendar(_ calendar: String) throws(FormattingError) -> String {
        guard calendar.utf8.count <= 40, !calendar.contains("\0"), let canonical = ICU.string({ lproj_calendar_canonical(calendar, $0, $1) }) else {
            throw .invalidValue("calendar", "'\(calendar)' is not a calendar ICU knows (gregorian, japanese, buddhist, islamic, hebrew, ...)")
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
