public import VarlinkProtocol

/// The answer to ``LprojClient/lookup(bundle:key:table:locale:client:defaultValue:arguments:placeholders:)``.
public struct LookupReply: Sendable, Equatable {
    /// The string (formatted, if arguments were given).
    public let value: String
    /// Whether a table had the key.
    public let found: Bool
    /// Where the value came from (`de`, `Base`), when found.
    public let locale: String?

    /// Creates a reply (for tests and mocks).
    public init(value: String, found: Bool, locale: String?) {
        self.value = value
        self.found = found
        self.locale = locale
    }
}

/// A typed format argument.
public enum LookupArgument: Sendable, Equatable {
    case string(String)
    case int(Int64)
    /// A float; `fractionDigits` are the visible ones (for its plural category).
    case float(Double, fractionDigits: Int? = nil)

    var json: JSONValue {
        switch self {
        case .string(let string): ["string": .string(string)]
        case .int(let integer): ["int": .number(JSONNumber(integer))]
        case .float(let double, let digits):
            digits.map { ["float": .number(JSONNumber(double, fractionDigits: $0)), "fractionDigits": .int($0)] } ?? ["float": .number(JSONNumber(double))]
        }
    }
}

/// A client's locale for a bundle.
public struct Selection: Sendable, Equatable {
    public let client: String
    public let bundle: String
    public let locale: String
    /// `saved`, `preferred` or `default`.
    public let reason: String
    /// The locale asked for, when another was chosen.
    public let requested: String?

    /// Creates a selection (for tests and mocks).
    public init(client: String, bundle: String, locale: String, reason: String, requested: String?) {
        self.client = client
        self.bundle = bundle
        self.locale = locale
        self.reason = reason
        self.requested = requested
    }
}

/// A bundle lprojd serves.
public struct BundleInfo: Sendable, Equatable {
    public let name: String
    public let directory: String
    public let developmentLocale: String
    public let supportedLocales: [String]
    public let tables: [String]
    public let hasBase: Bool
    public let generation: Int
    public let entries: Int
}

/// A whole table resolved for one locale.
public struct TableReply: Sendable, Equatable {
    public let bundle: String
    public let table: String
    public let locale: String
    public let generation: Int
    /// Plain values by key.
    public let strings: [String: String]
    /// Plural entries by key, as JSON (`PluralEntry`).
    public let plurals: [String: JSONValue]
    /// Where each key came from.
    public let sources: [String: String]
}

/// The outcome of ``LprojClient/negotiate(available:values:preferredLanguages:specificity:defaultValue:)``.
public struct NegotiationReply: Sendable, Equatable {
    public let locale: String?
    public let value: String?
    /// `exact`, `language`, `default` or `none`.
    public let match: String

    /// Creates a reply (for tests and mocks).
    public init(locale: String?, value: String?, match: String) {
        self.locale = locale
        self.value = value
        self.match = match
    }
}

/// lprojd's state.
public struct Status: Sendable, Equatable {
    public struct FileError: Sendable, Equatable {
        public let bundle: String
        public let file: String
        public let line: Int?
        public let column: Int?
        public let message: String
    }

    public let version: String
    public let generation: Int
    public let bundles: Int
    public let tables: Int
    public let entries: Int
    public let connections: Int
    public let subscribers: Int
    public let selections: Int
    public let uptime: Double
    public let errors: [FileError]
    /// Why selections and preferences cannot be saved now, if they cannot.
    public var state: String? = nil
    /// What users' clients make lprojd hold, in bytes, by uid.
    public var usage: [Usage] = []

    /// One user's resources.
    public struct Usage: Sendable, Equatable {
        public let uid: Int
        public let connections: Int
        public let input: Int
        public let output: Int
        public let addedStrings: Int
        public let savedState: Int
        public let caches: Int
    }
}

/// How a client wants values written (the interface's `Preferences`); nil
/// fields are unset.
public struct Preferences: Sendable, Equatable {
    public var dateFormat: String?
    public var timeFormat: String?
    /// `meters`, `kilometers`, `feet`, `yards` or `miles`.
    public var distanceUnit: String?
    /// `kilometersPerHour`, `milesPerHour`, `metersPerSecond` or `knots`.
    public var speedUnit: String?
    public var currencySymbol: String?
    public var timeZone: String?
    public var calendar: String?

    public init(
        dateFormat: String? = nil, timeFormat: String? = nil, distanceUnit: String? = nil, speedUnit: String? = nil,
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

    /// The field names, as the interface spells them.
    public static let fieldNames = ["dateFormat", "timeFormat", "distanceUnit", "speedUnit", "currencySymbol", "timeZone", "calendar"]

    init(_ object: JSONObject) {
        self.init(
            dateFormat: object.string("dateFormat"), timeFormat: object.string("timeFormat"), distanceUnit: object.string("distanceUnit"),
            speedUnit: object.string("speedUnit"), currencySymbol: object.string("currencySymbol"), timeZone: object.string("timeZone"),
            calendar: object.string("calendar"))
    }

    var json: JSONObject {
        var object = JSONObject()
        let values = [dateFormat, timeFormat, distanceUnit, speedUnit, currencySymbol, timeZone, calendar]
        for (name, value) in zip(Self.fieldNames, values) {
            if let value { object[name] = .string(value) }
        }
        return object
    }
}

/// What to format, for ``LprojClient/format(_:bundle:client:locale:)``.
public enum FormatValue: Sendable, Equatable {
    /// `decimal`, `percent`, `currency`, `scientific` or `spellOut`.
    case number(Double, style: String, fractionDigits: Int? = nil, currency: String? = nil)
    /// Meters, in `unit` or the client's or the locale's.
    case distance(meters: Double, unit: String? = nil, fractionDigits: Int? = nil)
    /// Meters per second.
    case speed(metersPerSecond: Double, unit: String? = nil, fractionDigits: Int? = nil)
    /// Seconds since 1970-01-01 UTC in a date style: `simpleDate`, `time12`,
    /// `time24`, `simpleDateTime`, `server`, `savedDate`, `savedTime`,
    /// `savedDateTime`; or `template` with `template`, or `pattern` with
    /// `pattern`.
    case date(Double, style: String, template: String? = nil, pattern: String? = nil, timeZone: String? = nil, calendar: String? = nil)
    /// `uppercase` or `lowercase`.
    case text(String, style: String)

    var parameters: JSONObject {
        var parameters = JSONObject()
        switch self {
        case .number(let value, let style, let digits, let currency):
            parameters["style"] = .string(style)
            parameters["number"] = .number(JSONNumber(value))
            parameters["fractionDigits"] = digits.map { .int($0) }
            parameters["currency"] = currency.map(JSONValue.string)
        case .distance(let meters, let unit, let digits):
            parameters["style"] = "distance"
            parameters["number"] = .number(JSONNumber(meters))
            parameters["unit"] = unit.map(JSONValue.string)
            parameters["fractionDigits"] = digits.map { .int($0) }
        case .speed(let speed, let unit, let digits):
            parameters["style"] = "speed"
            parameters["number"] = .number(JSONNumber(speed))
            parameters["unit"] = unit.map(JSONValue.string)
            parameters["fractionDigits"] = digits.map { .int($0) }
        case .date(let seconds, let style, let template, let pattern, let timeZone, let calendar):
            parameters["style"] = .string(style)
            parameters["date"] = .number(JSONNumber(seconds))
            parameters["template"] = template.map(JSONValue.string)
            parameters["pattern"] = pattern.map(JSONValue.string)
            parameters["timeZone"] = timeZone.map(JSONValue.string)
            parameters["calendar"] = calendar.map(JSONValue.string)
        case .text(let text, let style):
            parameters["style"] = .string(style)
            parameters["text"] = .string(text)
        }
        return parameters
    }
}

/// A formatted value, and what was used to make it.
public struct FormatReply: Sendable, Equatable {
    public let value: String
    /// The locale whose conventions were followed (as asked, or selected).
    public let locale: String
    public let pattern: String?
    public let unit: String?
    public let timeZone: String?
    public let calendar: String?
}

/// A supported locale's names.
public struct LocaleName: Sendable, Equatable {
    public let locale: String
    /// In the display locale.
    public let name: String
    /// In itself.
    public let nativeName: String
    /// The bundle's `LM_locale_name_<locale>`, if it has one.
    public let bundleName: String?
}

/// A notification from ``LprojClient/events(client:bundle:)``.
public struct Event: Sendable, Equatable {
    /// `ready`, `localeChanged`, `preferencesChanged`, `tablesChanged`,
    /// `localesChanged`, `tableError`, `bundleChanged` or `shutdown`.
    public let type: String
    /// Every field the event carries.
    public let fields: JSONObject

    public func string(_ key: String) -> String? {
        if case .string(let value)? = fields[key] { return value }
        return nil
    }

    public func int(_ key: String) -> Int? {
        if case .number(let number)? = fields[key], let integer = number.integer { return Int(integer) }
        return nil
    }

    public func strings(_ key: String) -> [String]? {
        guard case .array(let items)? = fields[key] else { return nil }
        return items.compactMap { if case .string(let value) = $0 { value } else { nil } }
    }
}
