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
}

/// A notification from ``LprojClient/events(client:bundle:)``.
public struct Event: Sendable, Equatable {
    /// `ready`, `localeChanged`, `tablesChanged`, `localesChanged`,
    /// `tableError`, `bundleChanged` or `shutdown`.
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
