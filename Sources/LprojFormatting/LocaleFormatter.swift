package import LprojLocales
internal import LprojFormatStrings

/// What to format.
package enum FormatRequest: Sendable, Equatable {
    /// A number in a style; `fractionDigits` fixes the count of fraction
    /// digits; `currencyCode` (ISO 4217) picks the currency.
    case number(Double, NumberFormatStyle, fractionDigits: Int? = nil, currencyCode: String? = nil)
    /// A distance given in meters, written in `unit` (else the client's
    /// saved unit, else the locale's), with 1 fraction digit by default.
    case distance(meters: Double, unit: DistanceUnit? = nil, fractionDigits: Int? = nil)
    /// A speed given in meters per second, written as `distance` is.
    case speed(metersPerSecond: Double, unit: SpeedUnit? = nil, fractionDigits: Int? = nil)
    /// An instant (seconds since 1970-01-01 UTC) in a style; `timeZone` and
    /// `calendar` override the client's saved ones.
    case date(seconds: Double, DateFormatStyle, timeZone: String? = nil, calendar: String? = nil)
    /// Upper or lower case by the locale's rules.
    case uppercase(String), lowercase(String)

    /// Whether ICU's work for it is known to be small (well under a
    /// millisecond): else it is done off the event loops.
    package var isQuick: Bool {
        guard case .date(let seconds, _, _, _) = self else { return true }
        // One past the limit is refused at once, without ICU.
        return LocaleFormatter.quickDates.contains(seconds) || !(abs(seconds) <= LocaleFormatter.dateLimit)
    }
}

/// A formatted value, and what was used to make it.
package struct FormattedValue: Sendable, Equatable {
    package var value: String
    /// The date pattern used.
    package var pattern: String?
    /// The unit written (distances and speeds), or the currency's code.
    package var unit: String?
    /// The time zone and calendar used (dates).
    package var timeZone: String?
    package var calendar: String?

    package init(value: String, pattern: String? = nil, unit: String? = nil, timeZone: String? = nil, calendar: String? = nil) {
        self.value = value
        self.pattern = pattern
        self.unit = unit
        self.timeZone = timeZone
        self.calendar = calendar
    }
}

/// Formats values for one locale and one client's preferences, with ICU
/// (ICU 72, CLDR 42: the data the plural rules come from too). Nothing here
/// is written by hand: the patterns, digits, separators, unit names and
/// case rules are the locale's own in ICU.
package struct LocaleFormatter: Sendable {
    /// The locale whose conventions apply (for a custom locale, its
    /// standard locale).
    package let locale: LocaleIdentifier
    package let preferences: FormattingPreferences
    /// `LM_decimal_separator` and `LM_grouping_separator` from the bundle's
    /// tables, which replace the locale's in numbers, distances and speeds.
    package let decimalSeparator: String?
    package let groupingSeparator: String?

    package init(
        locale: LocaleIdentifier, preferences: FormattingPreferences = FormattingPreferences(), decimalSeparator: String? = nil,
        groupingSeparator: String? = nil
    ) {
        self.locale = locale
        self.preferences = preferences
        self.decimalSeparator = decimalSeparator.flatMap { $0.isEmpty ? nil : $0 }
        self.groupingSeparator = groupingSeparator
    }

    private var separators: ICUFormatting.Separators {
        ICUFormatting.Separators(decimal: decimalSeparator, grouping: groupingSeparator)
    }

    /// Fraction digits a caller may ask for.
    package static let fractionDigitRange = 0...15
    /// The longest decimal or grouping separator, in UTF-8 bytes (real ones
    /// are one to three characters: ",", " ", "٫").
    package static let maximumSeparatorLength = 16

    package func format(_ request: FormatRequest) throws(FormattingError) -> FormattedValue {
        switch request {
        case .number(let value, let style, let digits, let code):
            return try number(value, style: style, fractionDigits: digits, currencyCode: code)
        case .distance(let meters, let unit, let digits):
            let unit = unit ?? preferences.distanceUnit ?? measurementSystem.distanceUnit
            return try measure(meters / unit.meters, icuUnit: unit.icuUnit, name: unit.rawValue, fractionDigits: digits)
        case .speed(let metersPerSecond, let unit, let digits):
            let unit = unit ?? preferences.speedUnit ?? measurementSystem.speedUnit
            return try measure(metersPerSecond / unit.metersPerSecond, icuUnit: unit.icuUnit, name: unit.rawValue, fractionDigits: digits)
        case .date(let seconds, let style, let zone, let calendar):
            return try date(seconds, style: style, timeZone: zone, calendar: calendar)
        case .uppercase(let text), .lowercase(let text):
            var upper = false
            if case .uppercase = request { upper = true }
            if text.isEmpty { return FormattedValue(value: "") }
            guard let mapped = ICUFormatting.caseMapped(text, upper: upper, locale: locale.tag) else {
                throw .failed("case mapping failed for \(locale.tag)")
            }
            return FormattedValue(value: mapped)
        }
    }

    /// The locale's measurement system.
    package var measurementSystem: MeasurementSystem { ICUFormatting.measurementSystem(locale.tag) }

    // MARK: Numbers

    private func number(_ value: Double, style: NumberFormatStyle, fractionDigits: Int?, currencyCode: String?) throws(FormattingError)
        -> FormattedValue
    {
        guard value.isFinite else { throw .invalidValue("number", "\(value) is not a finite number") }
        try Self.check(fractionDigits)
        var minimum = fractionDigits, maximum = fractionDigits
        var code: String?
        switch style {
        case .percent:
            maximum = maximum ?? 2
        case .currency:
            if let currencyCode {
                // Three ASCII letters, checked before the code goes near ICU
                // or its cache.
                guard currencyCode.utf8.count == 3, currencyCode.utf8.allSatisfy({ (0x41...0x5A).contains($0 & 0xDF) }),
                    ICUFormatting.isKnownCurrency(currencyCode.uppercased())
                else {
                    throw .invalidValue("currency", "'\(currencyCode.clipped(toUTF8Bytes: 16))' is not an ISO 4217 currency code")
                }
                code = currencyCode.uppercased()
            } else {
                guard let own = ICUFormatting.currency(of: locale.tag) else {
                    throw .invalidValue("currency", "\(locale.tag) has no currency of its own; name one (an ISO 4217 code)")
                }
                code = own
            }
            minimum = minimum ?? 2
            maximum = maximum ?? 2
        case .decimal, .scientific, .spellOut:
            break
        }
        let key = ICUFormatting.NumberKey(
            locale: locale.tag, style: style, minimumFractionDigits: minimum, maximumFractionDigits: maximum,
            separators: style == .spellOut ? ICUFormatting.Separators() : separators,
            currencyCode: code, currencySymbol: style == .currency ? preferences.currencySymbol : nil)
        guard let text = ICUFormatting.number(value, key) else {
            throw .failed("ICU could not format \(value) as \(style.rawValue) for \(locale.tag)")
        }
        return FormattedValue(value: text, unit: code)
    }

    // MARK: Measures

    private func measure(_ value: Double, icuUnit: String, name: String, fractionDigits: Int?) throws(FormattingError) -> FormattedValue {
        guard value.isFinite else { throw .invalidValue("number", "\(value) is not a finite number") }
        try Self.check(fractionDigits)
        let key = ICUFormatting.MeasureKey(locale: locale.tag, unit: icuUnit, fractionDigits: fractionDigits ?? 1, separators: separators)
        guard let text = ICUFormatting.measure(value, key) else {
            throw .failed("ICU could not format \(value) \(name) for \(locale.tag)")
        }
        return FormattedValue(value: text, unit: name)
    }

    private static func check(_ fractionDigits: Int?) throws(FormattingError) {
        if let fractionDigits, !fractionDigitRange.contains(fractionDigits) {
            throw .invalidValue("fractionDigits", "\(fractionDigits) is outside \(fractionDigitRange)")
        }
    }

    // MARK: Dates

    /// The pattern, time zone and calendar a style uses for this locale and
    /// client.
    package func dateSettings(_ style: DateFormatStyle, timeZone: String? = nil, calendar: String? = nil) throws(FormattingError) -> (
        pattern: String, timeZone: String, calendar: String?, locale: String
    ) {
        if style == .server {
            // Fixed: what a server sends and expects, in any locale.
            return (DateFormatStyle.serverPattern, "GMT", "gregorian", "en-US-u-va-posix")
        }
        let zone =
            try timeZone.map { zone throws(FormattingError) in try ICUFormatting.canonicalTimeZone(zone) }
            ?? preferences.timeZone ?? FormattingPreferences.defaultTimeZone
        let calendar =
            try calendar.map { calendar throws(FormattingError) in try ICUFormatting.canonicalCalendar(calendar) } ?? preferences.calendar
        let pattern: String
        switch style {
        case .simpleDate, .time12, .time24, .simpleDateTime:
            pattern = try Self.pattern(template: style.namedTemplate!, locale: locale.tag, calendar: calendar)
        case .template(let template):
            guard !template.isEmpty, template.utf8.count <= 128, !template.contains("\0") else {
                throw .invalidValue("template", "a template is 1 to 128 bytes of date fields")
            }
            pattern = try Self.pattern(template: template, locale: locale.tag, calendar: calendar)
        case .pattern(let custom):
            pattern = custom
        case .savedDate:
            pattern = preferences.dateFormat ?? FormattingPreferences.defaultDateFormat
        case .savedTime:
            pattern = preferences.timeFormat ?? FormattingPreferences.defaultTimeFormat
        case .savedDateTime:
            pattern =
                "\(preferences.dateFormat ?? FormattingPreferences.defaultDateFormat) \(preferences.timeFormat ?? FormattingPreferences.defaultTimeFormat)"
        case .server:
            pattern = DateFormatStyle.serverPattern
        }
        if let problem = ICUFormatting.datePatternProblem(pattern) {
            throw .invalidValue("pattern", "'\(pattern)' is not a date pattern: \(problem)")
        }
        return (pattern, zone, calendar, locale.tag)
    }

    private static func pattern(template: String, locale: String, calendar: String?) throws(FormattingError) -> String {
        guard let pattern = ICUFormatting.datePattern(template: template, locale: locale, calendar: calendar), !pattern.isEmpty else {
            throw .invalidValue("template", "'\(template)' is not a date template")
        }
        return pattern
    }

    private func date(_ seconds: Double, style: DateFormatStyle, timeZone: String?, calendar: String?) throws(FormattingError)
        -> FormattedValue
    {
        guard seconds.isFinite, abs(seconds) <= Self.dateLimit else {
            throw .invalidValue("date", "\(seconds) is not a usable instant (at most ±\(Self.dateLimit) s from 1970)")
        }
        let settings = try dateSettings(style, timeZone: timeZone, calendar: calendar)
        let key = ICUFormatting.DateKey(
            locale: settings.locale, calendar: settings.calendar, pattern: settings.pattern, timeZone: settings.timeZone)
        guard let text = ICUFormatting.date(seconds * 1000, key) else {
            throw .failed("ICU could not format the date for \(locale.tag)")
        }
        return FormattedValue(value: text, pattern: settings.pattern, timeZone: settings.timeZone, calendar: settings.calendar)
    }

    /// Reads a date written in a style, strictly and whole: the server
    /// format (in GMT), or a pattern in this locale, zone and calendar.
    /// Returns seconds since 1970-01-01 UTC.
    package func parseDate(_ text: String, style: DateFormatStyle, timeZone: String? = nil, calendar: String? = nil) throws(FormattingError)
        -> Double
    {
        guard text.utf8.count <= 256, !text.contains("\0") else { throw .invalidValue("text", "a date is at most 256 bytes") }
        let settings = try dateSettings(style, timeZone: timeZone, calendar: calendar)
        let key = ICUFormatting.DateKey(
            locale: settings.locale, calendar: settings.calendar, pattern: settings.pattern, timeZone: settings.timeZone)
        switch ICUFormatting.parseDate(text, key) {
        case .date(let milliseconds):
            return milliseconds / 1000
        case .stopped(let offset):
            throw .invalidValue("text", "'\(text)' does not match \(settings.pattern) (at character \(offset + 1))")
        case .unusable:
            throw .failed("ICU could not read dates with \(settings.pattern) for \(locale.tag)")
        }
    }

    /// The farthest instant formatted, in seconds from 1970 (about 317,000
    /// years). ICU's calendar arithmetic grows with the distance in some
    /// calendars: an islamic-umalqura date at 10¹⁴ s took 80 ms, at this
    /// limit 8 ms.
    package static let dateLimit = 1e13

    /// Instants every calendar and style formats in well under a
    /// millisecond (about 3,170 years either side of 1970; measured over
    /// every calendar ICU has and every kind of field, at most 0.85 ms):
    /// a date farther away is formatted off the event loops.
    package static let quickDates: ClosedRange<Double> = -1e11...1e11

    // MARK: Names

    /// A locale's name in this formatter's locale, as a menu would write it.
    package func name(of other: LocaleIdentifier) -> String {
        ICUFormatting.displayName(of: other.tag, in: locale.tag) ?? other.tag
    }

    /// A locale's name in its own language ("Deutsch", "日本語").
    package static func nativeName(of locale: LocaleIdentifier) -> String {
        ICUFormatting.displayName(of: locale.tag, in: locale.tag) ?? locale.tag
    }
}
