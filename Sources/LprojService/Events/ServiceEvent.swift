package import LprojFormatting
package import LprojInterface
package import LprojStore

/// Who may receive an event.
package enum Audience: Sendable, Hashable {
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
package enum ServiceEvent: Sendable, Equatable {
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
    package var audience: Audience {
        switch self {
        case .localeChanged(let owner, _, _, _), .preferencesChanged(let owner, _, _, _), .addedStringsChanged(let owner, _, _, _):
            .owner(owner)
        case .ready, .tablesChanged, .localesChanged, .tableError, .bundleChanged, .shutdown:
            .everyone
        }
    }

    /// The served bundles' generation it carries (events everyone sees, and `ready`).
    package var generation: Int? {
        switch self {
        case .ready(let generation, _, _), .tablesChanged(_, _, _, let generation), .localesChanged(_, _, _, let generation),
            .tableError(_, _, _, _, _, let generation), .bundleChanged(_, let generation, _):
            generation
        case .localeChanged, .preferencesChanged, .addedStringsChanged, .shutdown: nil
        }
    }

    /// The bundle it is about, if any.
    package var bundle: String? {
        switch self {
        case .ready(_, _, let bundle): bundle
        case .localeChanged(_, let bundle, _, _), .preferencesChanged(_, let bundle, _, _), .addedStringsChanged(_, let bundle, _, _),
            .tablesChanged(let bundle, _, _, _), .localesChanged(let bundle, _, _, _), .tableError(let bundle, _, _, _, _, _),
            .bundleChanged(let bundle, _, _):
            bundle
        case .shutdown: nil
        }
    }

}

extension ServiceEvent {
    /// The event as the interface's `Event`: the one place events are
    /// written for the wire.
    package var interfaceEvent: Localization.Event {
        switch self {
        case .ready(let generation, let client, let bundle):
            return .init(type: .ready, client: client, bundle: bundle, generation: generation)
        case .localeChanged(let owner, let bundle, let locale, let previous):
            return .init(type: .localeChanged, client: owner.client, bundle: bundle, locale: locale, previousLocale: previous)
        case .preferencesChanged(let owner, let bundle, let preferences, let changed):
            let interfacePreferences = preferences.interfacePreferences
            return .init(
                type: .preferencesChanged, client: owner.client, bundle: bundle, preferences: interfacePreferences, changed: changed)
        case .addedStringsChanged(let owner, let bundle, let tables, let locales):
            return .init(type: .tablesChanged, client: owner.client, bundle: bundle, tables: tables, locales: locales)
        case .tablesChanged(let bundle, let tables, let locales, let generation):
            return .init(type: .tablesChanged, bundle: bundle, tables: tables, locales: locales, generation: generation)
        case .localesChanged(let bundle, let added, let removed, let generation):
            return .init(type: .localesChanged, bundle: bundle, added: added, removed: removed, generation: generation)
        case .tableError(let bundle, let file, let line, let column, let message, let generation):
            return .init(
                type: .tableError, bundle: bundle, generation: generation, file: file, line: line, column: column, message: message)
        case .bundleChanged(let bundle, let generation, let message):
            return .init(type: .bundleChanged, bundle: bundle, generation: generation, message: message)
        case .shutdown:
            return .init(type: .shutdown)
        }
    }
}

/// Where the service and the watcher publish events; the Varlink adapter's
/// subscription hub delivers them.
package protocol EventSink: Sendable {
    /// Queues an event for every subscriber it concerns, and returns.
    func publish(_ event: ServiceEvent)
    /// Current subscribers.
    var subscriberCount: Int { get }
    /// Current subscribers of one uid.
    func subscriberCount(uid: UInt32) -> Int
}
