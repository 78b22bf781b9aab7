/// What a client saved about how it wants values written
/// (SDLocalizationManager's user defaults). Every field is optional; an
/// unset one takes the locale's default.
///
/// This is the one Swift type a preference is defined in: its name (a
/// ``Field``, spelled as the interface's `Preferences` spells it), how its
/// value is checked and canonicalized (``set(_:to:)``), and its typed value
/// for the formatter. Values are kept as their canonical text, which is
/// what is saved and what the interface carries, so that the store and the
/// service move preferences by field name and never list them.
package struct FormattingPreferences: Sendable, Equatable {
    /// The fields, as the interface spells them.
    package enum Field: String, Sendable, CaseIterable {
        case dateFormat, timeFormat, distanceUnit, speedUnit, currencySymbol, timeZone, calendar
    }

    /// Each set field's canonical text.
    private var values: [Field: String] = [:]

    /// No preferences: the locale's defaults.
    package init() {}

    /// The typed values (for tests and for callers that have them typed).
    package init(
        dateFormat: String? = nil, timeFormat: String? = nil, distanceUnit: DistanceUnit? = nil, speedUnit: SpeedUnit? = nil,
        currencySymbol: String? = nil, timeZone: String? = nil, calendar: String? = nil
    ) {
        values[.dateFormat] = dateFormat
        values[.timeFormat] = timeFormat
        values[.distanceUnit] = distanceUnit?.rawValue
        values[.speedUnit] = speedUnit?.rawValue
        values[.currencySymbol] = currencySymbol
        values[.timeZone] = timeZone
        values[.calendar] = calendar
    }

    /// Preferences as saved: canonical text by field name (checked when
    /// they were set). A name that is no longer a field is ignored.
    package init(saved: [String: String]) {
        for (name, value) in saved {
            if let field = Field(rawValue: name) { values[field] = value }
        }
    }

    /// The preferences to save: canonical text by field name.
    package var saved: [String: String] {
        Dictionary(uniqueKeysWithValues: values.map { ($0.key.rawValue, $0.value) })
    }

    /// The fields that are set, in the order of ``Field``.
    package var setFields: [(Field, String)] {
        Field.allCases.compactMap { field in values[field].map { (field, $0) } }
    }

    // MARK: Typed values, for the formatter

    /// A date pattern ("dd/MM/yyyy"); default `dd/MM/yyyy`.
    package var dateFormat: String? { values[.dateFormat] }
    /// A time pattern ("HH:mm"); default `HH:mm`.
    package var timeFormat: String? { values[.timeFormat] }
    /// Default: the locale's (m, or ft where it does not use the metric system).
    package var distanceUnit: DistanceUnit? { values[.distanceUnit].flatMap(DistanceUnit.init(rawValue:)) }
    /// Default: the locale's (km/h, or mph in the US and the UK).
    package var speedUnit: SpeedUnit? { values[.speedUnit].flatMap(SpeedUnit.init(rawValue:)) }
    /// Written for currency amounts instead of the currency's own symbol.
    package var currencySymbol: String? { values[.currencySymbol] }
    /// An IANA time zone ("Europe/Rome") or a GMT offset; default GMT.
    package var timeZone: String? { values[.timeZone] }
    /// An ICU calendar ("gregorian", "japanese", "buddhist"); default the locale's.
    package var calendar: String? { values[.calendar] }

    // MARK: Changing

    /// A field's value as text.
    package subscript(field: Field) -> String? { values[field] }

    /// Sets a field from text, checked and canonicalized: a pattern must be
    /// one ICU formats with, a time zone and a calendar ones it knows
    /// (stored under their canonical names), a unit one of the units.
    package mutating func set(_ field: Field, to text: String?) throws(FormattingError) {
        guard let text else {
            clear(field)
            return
        }
        values[field] = try Self.canonical(text, for: field)
    }

    private static func canonical(_ text: String, for field: Field) throws(FormattingError) -> String {
        switch field {
        case .dateFormat, .timeFormat:
            if let problem = ICUFormatting.datePatternProblem(text) {
                throw .invalidValue(field.rawValue, "'\(text)' is not a date pattern: \(problem)")
            }
            return text
        case .distanceUnit:
            return try oneOf(DistanceUnit.self, text, field)
        case .speedUnit:
            return try oneOf(SpeedUnit.self, text, field)
        case .currencySymbol:
            // Counted in bytes on the text as given: a count of characters
            // would let one base and a megabyte of combining marks through.
            guard !text.isEmpty, text.utf8.count <= Self.maximumCurrencySymbolLength,
                !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F })
            else {
                throw .invalidValue(
                    field.rawValue, "a currency symbol is 1 to \(Self.maximumCurrencySymbolLength) bytes of text without control characters"
                )
            }
            return text
        case .timeZone:
            return try ICUFormatting.canonicalTimeZone(text)
        case .calendar:
            return try ICUFormatting.canonicalCalendar(text)
        }
    }

    private static func oneOf<Unit: RawRepresentable & CaseIterable>(_: Unit.Type, _ text: String, _ field: Field) throws(FormattingError)
        -> String
    where Unit.RawValue == String {
        guard Unit(rawValue: text) != nil else {
            throw .invalidValue(field.rawValue, "'\(text)' is not one of \(Unit.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return text
    }

    /// Copies one field's value (set or not) from `other`, which checked it.
    package mutating func take(_ field: Field, from other: FormattingPreferences) {
        values[field] = other.values[field]
    }

    package mutating func clear(_ field: Field) {
        values[field] = nil
    }

    /// Whether nothing is set.
    package var isEmpty: Bool { values.isEmpty }

    /// The fields whose values differ from `other`'s.
    package func changedFields(from other: FormattingPreferences) -> [Field] {
        Field.allCases.filter { self[$0] != other[$0] }
    }

    /// The longest currency symbol, in UTF-8 bytes.
    package static let maximumCurrencySymbolLength = 32

    /// SDLocalizationManager's defaults for the saved date and time formats.
    package static let defaultDateFormat = "dd/MM/yyyy"
    package static let defaultTimeFormat = "HH:mm"
    /// Dates are written in GMT unless the client chose a time zone.
    package static let defaultTimeZone = "GMT"
}

/// A value that cannot be formatted as asked.
package enum FormattingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A parameter's value is unusable: which, and why.
    case invalidValue(String, String)
    /// ICU could not format (a locale without the data, say).
    case failed(String)

    package var description: String {
        switch self {
        case .invalidValue(let parameter, let reason): "\(parameter): \(reason)"
        case .failed(let reason): reason
        }
    }
}
