public import LprojFormatting
public import LprojStore
public import VarlinkProtocol

/// Who may receive an event.
public enum Audience: Sendable, Hashable {
    /// Every subscriber (of the event's bundle, if it filtered by bundle).
    case everyone
    /// Only the subscribers of one user (uid) for one client id, or for
    /// every client of theirs.
    case owner(ClientKey)
}

/// A notification for subscribers: the interface's `Event`, by kind.
///
/// What concerns one client of one user (its locale, its preferences, its
/// added strings) carries that owner in its case, and ``audience`` follows
/// from the case: a private event cannot be published to everyone by
/// forgetting to say whose it is.
public enum ServiceEvent: Sendable, Equatable {
    /// The subscription is in place (its first reply; never published).
    case ready(generation: Int, client: String?, bundle: String?)
    /// A client's locale for a bundle changed.
    case localeChanged(owner: ClientKey, bundle: String, locale: String, previous: String)
    /// A client's formatting preferences changed: the new ones, and which fields.
    case preferencesChanged(owner: ClientKey, bundle: String, preferences: FormattingPreferences, changed: [String])
    /// A client's added strings changed (`nil`: every table, or every locale).
    case addedStringsChanged(owner: ClientKey, bundle: String, tables: [String]?, locales: [String]?)
    /// Tables were reloaded from disk and answer lookups now.
    case tablesChanged(bundle: String, tables: [String], locales: [String], generation: Int)
    /// `.lproj` folders appeared or disappeared.
    case localesChanged(bundle: String, added: [String], removed: [String], generation: Int)
    /// A table file failed to load and keeps its last good version.
    case tableError(bundle: String, file: String, line: Int?, column: Int?, message: String, generation: Int)
    /// A bundle was added or removed, or its directory vanished or came back.
    case bundleChanged(bundle: String, generation: Int, message: String)
    /// The daemon is stopping: a subscription's last reply (never published).
    case shutdown

    /// Who may receive it.
    public var audience: Audience {
        switch self {
        case .localeChanged(let owner, _, _, _), .preferencesChanged(let owner, _, _, _), .addedStringsChanged(let owner, _, _, _):
            .owner(owner)
        case .ready, .tablesChanged, .localesChanged, .tableError, .bundleChanged, .shutdown:
            .everyone
        }
    }

    /// The bundle it is about, if any.
    public var bundle: String? {
        switch self {
        case .ready(_, _, let bundle): bundle
        case .localeChanged(_, let bundle, _, _), .preferencesChanged(_, let bundle, _, _), .addedStringsChanged(_, let bundle, _, _),
             .tablesChanged(let bundle, _, _, _), .localesChanged(let bundle, _, _, _), .tableError(let bundle, _, _, _, _, _),
             .bundleChanged(let bundle, _, _):
            bundle
        case .shutdown: nil
        }
    }

    /// The interface's name for its kind.
    public var typeName: String {
        switch self {
        case .ready: "ready"
        case .localeChanged: "localeChanged"
        case .preferencesChanged: "preferencesChanged"
        case .addedStringsChanged, .tablesChanged: "tablesChanged"
        case .localesChanged: "localesChanged"
        case .tableError: "tableError"
        case .bundleChanged: "bundleChanged"
        case .shutdown: "shutdown"
        }
    }
}

extension ServiceEvent {
    /// The event as a reply's parameters: `{"event": {...}}`, its members in
    /// the order the interface lists them.
    public var parameters: JSONObject {
        var event: JSONObject = ["type": .string(typeName)]
        func set(_ key: String, _ value: String?) { if let value { event[key] = .string(value) } }
        func set(_ key: String, _ value: Int?) { if let value { event[key] = .int(value) } }
        func set(_ key: String, _ value: [String]?) { if let value { event[key] = .array(value.map(JSONValue.string)) } }
        switch self {
        case .ready(let generation, let client, let bundle):
            set("client", client)
            set("bundle", bundle)
            set("generation", generation)
        case .localeChanged(let owner, let bundle, let locale, let previous):
            set("client", owner.client)
            set("bundle", bundle)
            set("locale", locale)
            set("previousLocale", previous)
        case .preferencesChanged(let owner, let bundle, let preferences, let changed):
            set("client", owner.client)
            set("bundle", bundle)
            event["preferences"] = .object(preferences.interfaceObject)
            set("changed", changed)
        case .addedStringsChanged(let owner, let bundle, let tables, let locales):
            set("client", owner.client)
            set("bundle", bundle)
            set("tables", tables)
            set("locales", locales)
        case .tablesChanged(let bundle, let tables, let locales, let generation):
            set("bundle", bundle)
            set("tables", tables)
            set("locales", locales)
            set("generation", generation)
        case .localesChanged(let bundle, let added, let removed, let generation):
            set("bundle", bundle)
            set("added", added)
            set("removed", removed)
            set("generation", generation)
        case .tableError(let bundle, let file, let line, let column, let message, let generation):
            set("bundle", bundle)
            set("generation", generation)
            set("file", file)
            set("line", line)
            set("column", column)
            set("message", message)
        case .bundleChanged(let bundle, let generation, let message):
            set("bundle", bundle)
            set("generation", generation)
            set("message", message)
        case .shutdown:
            break
        }
        return ["event": .object(event)]
    }
}

extension FormattingPreferences {
    /// The interface's `Preferences`: the fields that are set.
    public var interfaceObject: JSONObject {
        var object = JSONObject()
        for field in Field.allCases {
            if let value = self[field] { object[field.rawValue] = .string(value) }
        }
        return object
    }
}
