public import LprojEngine
public import LprojLocales
internal import Synchronization

/// One client's added strings for one bundle (immutable; replaced whole on
/// every change, so lookups read it without a lock).
public final class AddedStrings: StringOverlay {
    /// Strings by table, then locale, then key.
    let tables: [String: [LocaleKey: [String: String]]]
    /// How many strings in all.
    let count: Int

    init(tables: [String: [LocaleKey: [String: String]]]) {
        self.tables = tables
        self.count = tables.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } }
    }

    public func value(forKey key: String, table: String, locale: LocaleKey) -> String? {
        tables[table]?[locale]?[key]
    }

    public func strings(table: String, locale: LocaleKey) -> [String: String] {
        tables[table]?[locale] ?? [:]
    }
}

/// Every client's added strings, in memory: SDLocalizationManager's
/// `addStrings`. They overlay the files for their client (and its uid) only
/// and are not kept across restarts: an app adds them again when it starts.
public final class AddedStringsRegistry: Sendable {
    /// Why strings were not added.
    public enum Refusal: Error, Equatable {
        case tooMany(maximum: Int)
        case tooLong(maximum: Int)
        case tooManyClients(maximum: Int)
    }

    private struct Key: Hashable {
        let uid: UInt32
        let client: String
        let bundle: String
    }

    private let entries = Mutex<[Key: AddedStrings]>([:])
    private let maximumStrings: Int
    private let maximumLength: Int
    /// Distinct clients with added strings per uid: bounds the memory one
    /// user can take by inventing client ids.
    private let maximumClientsPerUID = 64

    /// A registry with limits per client and bundle.
    public init(maximumStrings: Int, maximumLength: Int) {
        self.maximumStrings = maximumStrings
        self.maximumLength = maximumLength
    }

    /// The overlay of a client, if it added anything to the bundle.
    public func overlay(uid: UInt32, client: String, bundle: String) -> AddedStrings? {
        entries.withLock { $0[Key(uid: uid, client: client, bundle: bundle)] }
    }

    /// Adds (or replaces) strings; returns how many the client now has in the bundle.
    public func add(_ strings: [String: String], uid: UInt32, client: String, bundle: String, table: String, locale: LocaleKey) throws(Refusal) -> Int {
        if let longest = strings.lazy.map({ max($0.key.utf8.count, $0.value.utf8.count) }).max(), longest > maximumLength {
            throw .tooLong(maximum: maximumLength)
        }
        let key = Key(uid: uid, client: client, bundle: bundle)
        return try entries.withLock { entries throws(Refusal) -> Int in
            let existing = entries[key]
            if existing == nil {
                let clients = Set(entries.keys.filter { $0.uid == uid }.map(\.client))
                if !clients.contains(client), clients.count >= maximumClientsPerUID { throw .tooManyClients(maximum: maximumClientsPerUID) }
            }
            var tables = existing?.tables ?? [:]
            tables[table, default: [:]][locale, default: [:]].merge(strings) { $1 }
            let updated = AddedStrings(tables: tables)
            guard updated.count <= maximumStrings else { throw .tooMany(maximum: maximumStrings) }
            entries[key] = updated
            return updated.count
        }
    }

    /// Removes a client's strings of one table and locale (or of all, when
    /// `nil`); returns how many were removed.
    public func remove(uid: UInt32, client: String, bundle: String, table: String?, locale: LocaleKey?) -> Int {
        let key = Key(uid: uid, client: client, bundle: bundle)
        return entries.withLock { entries in
            guard let existing = entries[key] else { return 0 }
            var tables = existing.tables
            for name in tables.keys where table == nil || table == name {
                if let locale {
                    tables[name]?[locale] = nil
                    if tables[name]?.isEmpty ?? false { tables[name] = nil }
                } else {
                    tables[name] = nil
                }
            }
            let updated = AddedStrings(tables: tables)
            entries[key] = updated.count == 0 ? nil : updated
            return existing.count - updated.count
        }
    }
}
