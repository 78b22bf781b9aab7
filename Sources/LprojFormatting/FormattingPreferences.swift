/// What a client saved about how it wants values written
/// (SDLocalizationManager's user defaults). Every field is optional; an
/// unset one takes the locale's default.
public struct FormattingPreferences: Sendable, Equatable {
    /// A date pattern ("dd/MM/yyyy"); default `dd/MM/yyyy`.
    public var dateFormat: String?
    /// A time pattern ("HH:mm"); default `HH:mm`.
    public var timeFormat: String?
    /// Default: the locale's (m, or ft where it does not use the metric system).
    public var distanceUnit: DistanceUnit?
    /// Default: the locale's (km/h, or mph in the US and the UK).
    public var speedUnit: SpeedUnit?
    /// Written for currency amounts instead of the currency's own symbol.
    public var currencySymbol: String?
    /// An IANA time zone ("Europe/Rome") or a GMT offset; default GMT.
    public var timeZone: String?
    /// An ICU calendar ("gregorian", "japanese", "buddhist"); default the locale's.
    public var calendar: String?

    public init(
        dateFormat: String? = nil, timeFormat: String? = nil, distanceUnit: DistanceUnit? = nil, speedUnit: SpeedUnit? = nil,
        currencySymbol: String? = nil, timeZone: String? = nil, calendar: String? = nil
    ) {
        self.dateFormat = dateFormat
        self.timeFormat = timeFormat
        self.distanceUnit = distanceUnit
        self.speedUnit = speedUnit
        self.currencySymbol = currencySymbol
        self.timeZone = timeZone
        self.calendar = calendar
    }

    /// The fields' names, as the interface spells them.
    public enum Field: String, Sendable, CaseIterable {
        case dateFormat, timeFormat, distanceUnit, speedUnit, currencySymbol, timeZone, calendar
    }

    /// A field's value as text (units by their names).
    public subscript(field: Field) -> String? {
        switch field {
        case .dateFormat: dateFormat
        case .timeFormat: timeFormat
        case .distanceUnit: distanceUnit?.rawValue
        case .speedUnit: speedUnit?.rawValue
        case .currencySymbol: currencySymbol
        case .timeZone: timeZone
        case .calendar: calendar
        }
    }

    /// Sets a field from text, checked and canonicalized: a pattern must be
    /// one ICU formats with, a time zone and a calendar ones it knows
    /// (stored under their canonical names), a unit one of the units.
    public mutating func set(_ field: Field, to text: String?) throws(FormattingError) {
        guard let text else {
            clear(field)
            return
        }
        switch field {
        case .dateFormat, .timeFormat:
            if let problem = ICUFormatting.datePatternProblem(text) {
                throw .invalidValue(field.rawValue, "'\(text)' is not a date pattern: \(problem)")
            }
            if field == .dateFormat { dateFormat = text } else { timeFormat = text }
        case .distanceUnit:
            guard let unit = DistanceUnit(rawValue: text) else {
                throw .invalidValue(field.rawValue, "'\(text)' is not one of \(DistanceUnit.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            distanceUnit = unit
        case .speedUnit:
            guard let unit = SpeedUnit(rawValue: text) else {
                throw .invalidValue(field.rawValue, "'\(text)' is not one of \(SpeedUnit.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            speedUnit = unit
        case .currencySymbol:
            // Counted in bytes on the text as given: a count of characters
            // would let one base and a megabyte of combining marks through.
            guard !text.isEmpty, text.utf8.count <= Self.maximumCurrencySymbolLength, !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
                throw .invalidValue(field.rawValue, "a currency symbol is 1 to \(Self.maximumCurrencySymbolLength) bytes of text without control characters")
            }
            currencySymbol = text
        case .timeZone:
            timeZone = try ICUFormatting.canonicalTimeZone(text)
        case .calendar:
            calendar = try ICUFormatting.canonicalCalendar(text)
        }
    }

    /// Copies one field's value (set or not) from `other`, which checked it.
    public mutating func take(_ field: Field, from other: FormattingPreferences) {
        switch field {
        case .dateFormat: dateFormat = other.dateFormat
        case .timeFormat: timeFormat = other.timeFormat
        case .distanceUnit: distanceUnit = other.distanceUnit
        case .speedUnit: speedUnit = other.speedUnit
        case .currencySymbol: currencySymbol = other.currencySymbol
        case .timeZone: timeZone = other.timeZone
        case .calendar: calendar = other.calendar
        }
    }

    public mutating func clear(_ field: Field) {
        switch field {
        case .dateFormat: dateFormat = nil
        case .timeFormat: timeFormat = nil
        case .distanceUnit: distanceUnit = nil
        case .speedUnit: speedUnit = nil
        case .currencySymbol: currencySymbol = nil
        case .timeZone: timeZone = nil
        case .calendar: calendar = nil
        }
    }

    /// Whether nothing is set.
    public var isEmpty: Bool { Field.allCases.allSatisfy { self[$0] == nil } }

    /// The fields whose values differ from `other`'s.
    public func changedFields(from other: FormattingPreferences) -> [Field] {
        Field.allCases.filter { self[$0] != other[$0] }
    }

    /// The longest currency symbol, in UTF-8 bytes.
    public static let maximumCurrencySymbolLength = 32

    /// SDLocalizationManager's defaults for the saved date and time formats.
    public static let defaultDateFormat = "dd/MM/yyyy"
    public static let defaultTimeFormat = "HH:mm"
    /// Dates are written in GMT unless the client chose a time zone.
    public static let defaultTimeZone = "GMT"
}

/// A value that cannot be formatted as asked.
public enum FormattingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A parameter's value is unusable: which, and why.
    case invalidValue(String, String)
    /// ICU could not format (a locale without the data, say).
    case failed(String)

    public var description: String {
        switch self {
        case .invalidValue(let parameter, let reason): "\(parameter): \(reason)"
        case .failed(let reason): reason
        }
    }
}
