public import VarlinkProtocol

/// A notification for subscribers (the interface's `Event` type).
public struct ServiceEvent: Sendable, Equatable {
    /// The kinds of event.
    public enum Kind: String, Sendable {
        case ready, localeChanged, preferencesChanged, tablesChanged, localesChanged, tableError, bundleChanged, shutdown
    }

    public var kind: Kind
    /// Set for events about one client; such events reach only subscribers
    /// of the same uid.
    public var client: String?
    /// The uid the client belongs to (never sent; it filters delivery).
    public var uid: UInt32?
    public var bundle: String?
    public var locale: String?
    public var previousLocale: String?
    public var tables: [String]?
    public var locales: [String]?
    public var added: [String]?
    public var removed: [String]?
    public var generation: Int?
    public var file: String?
    public var line: Int?
    public var column: Int?
    public var message: String?
    /// A client's preferences (the interface's `Preferences`) and the
    /// fields that changed.
    public var preferences: JSONObject?
    public var changed: [String]?

    /// An event of a kind, to fill in.
    public init(_ kind: Kind) {
        self.kind = kind
    }

    /// The event as the reply's parameters: `{"event": {...}}`.
    public var parameters: JSONObject {
        var event: JSONObject = ["type": .string(kind.rawValue)]
        func set(_ key: String, _ value: String?) { if let value { event[key] = .string(value) } }
        func set(_ key: String, _ value: Int?) { if let value { event[key] = .int(value) } }
        func set(_ key: String, _ value: [String]?) { if let value { event[key] = .array(value.map(JSONValue.string)) } }
        set("client", client)
        set("bundle", bundle)
        set("locale", locale)
        set("previousLocale", previousLocale)
        set("tables", tables)
        set("locales", locales)
        set("added", added)
        set("removed", removed)
        set("generation", generation)
        set("file", file)
        set("line", line)
        set("column", column)
        set("message", message)
        if let preferences { event["preferences"] = .object(preferences) }
        set("changed", changed)
        return ["event": .object(event)]
    }
}
