package import ClientBudget
package import LprojLimits
import LprojEngine
package import LprojLocales
internal import Synchronization

/// One client's added strings for one bundle (immutable; replaced whole on
/// every change, so lookups read it without a lock).
package final class AddedStrings: StringOverlay {
    /// Strings by table, then locale, then key.
    let tables: [String: [LocaleKey: [String: String]]]
    /// Each locale as the client wrote it when it added strings for it.
    let localeNames: [LocaleKey: String]
    /// How many strings in all.
    let count: Int

    init(tables: [String: [LocaleKey: [String: String]]], localeNames: [LocaleKey: String]) {
        self.tables = tables
        self.localeNames = localeNames
        self.count = tables.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } }
    }

    package func name(of locale: LocaleKey) -> String {
        localeNames[locale] ?? locale.tag
    }

    package func value(forKey key: String, table: String, locale: LocaleKey) -> String? {
        tables[table]?[locale]?[key]
    }

    package func strings(table: String, locale: LocaleKey) -> [String: String] {
        tables[table]?[locale] ?? [:]
    }
}

/// Every client's added strings, in memory: SDLocalizationManager's
/// `addStrings`. They overlay the files for their client (and its uid) only
/// and are not kept across restarts: an app adds them again when it starts.
///
/// Their bytes are charged to the uid's budget (``Resource/addedStrings``),
/// whatever the number of its client ids: each client and bundle has its
/// own count and length limits, and the uid's budget bounds them all.
package final class AddedStringsRegistry: Sendable {

    private struct Key: Hashable {
        let uid: UInt32
        let client: String
        let bundle: String
    }

    private struct Entry {
        let strings: AddedStrings
        /// What it is charged, in bytes.
        let bytes: Int
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let maximumStrings: Int
    private let maximumLength: Int
    private let book: BudgetBook
    /// Distinct clients with added strings per uid.
    private let maximumClientsPerUID = 64

    /// A registry with limits per client and bundle, charging `budget`.
    package init(limits: AddedStringLimits, budget: BudgetBook = BudgetBook(limits: BudgetLimits())) {
        self.maximumStrings = limits.maximumStrings
        self.maximumLength = limits.maximumLength
        self.book = budget
    }

    /// What a client's strings hold in memory: their text and about what
    /// the dictionaries keep per string.
    private static func bytes(of strings: AddedStrings, key: Key) -> Int {
        var total = 256 + key.client.utf8.count + key.bundle.utf8.count
        for (table, locales) in strings.tables {
            total += 64 + table.utf8.count
            for (_, map) in locales {
                total += 64
                for (name, value) in map { total += 48 + name.utf8.count + value.utf8.count }
            }
        }
        for (_, name) in strings.localeNames { total += 48 + name.utf8.count }
        return total
    }

    /// What a uid's added strings are charged, in all.
    package func heldBytes(uid: UInt32) -> Int {
        entries.withLock { entries in entries.filter { $0.key.uid == uid }.reduce(0) { $0 + $1.value.bytes } }
    }

    /// The overlay of a client, if it added anything to the bundle.
    package func overlay(uid: UInt32, client: String, bundle: String) -> AddedStrings? {
        entries.withLock { $0[Key(uid: uid, client: client, bundle: bundle)]?.strings }
    }

    /// Adds (or replaces) strings; returns how many the client now has in the bundle.
    package func add(_ strings: [String: String], uid: UInt32, client: String, bundle: String, table: String, locale: LocaleIdentifier)
        throws(AddedStringsError) -> Int
    {
        if let longest = strings.lazy.map({ max($0.key.utf8.count, $0.value.utf8.count) }).max(), longest > maximumLength {
            throw .tooLong(maximum: maximumLength)
        }
        guard strings.count <= maximumStrings else { throw .tooMany(maximum: maximumStrings) }
        let key = Key(uid: uid, client: client, bundle: bundle)
        return try entries.withLock { entries throws(AddedStringsError) -> Int in
            let existing = entries[key]
            if existing == nil {
                let clients = Set(entries.keys.filter { $0.uid == uid }.map(\.client))
                if !clients.contains(client), clients.count >= maximumClientsPerUID { throw .tooManyClients(maximum: maximumClientsPerUID) }
            }
            var tables = existing?.strings.tables ?? [:]
            var names = existing?.strings.localeNames ?? [:]
            tables[table, default: [:]][locale.matchKey, default: [:]].merge(strings) { $1 }
            names[locale.matchKey] = locale.tag
            let updated = AddedStrings(tables: tables, localeNames: names)
            guard updated.count <= maximumStrings else { throw .tooMany(maximum: maximumStrings) }
            let bytes = Self.bytes(of: updated, key: key), previous = existing?.bytes ?? 0
            if bytes > previous, let refusal = book.charge(bytes - previous, of: .addedStrings, to: uid) { throw .overBudget(refusal) }
            if bytes < previous { book.release(previous - bytes, of: .addedStrings, from: uid) }
            entries[key] = Entry(strings: updated, bytes: bytes)
            return updated.count
        }
    }

    /// Removes a client's strings of one table and locale (or of all, when
    /// `nil`); returns how many were removed.
    package func remove(uid: UInt32, client: String, bundle: String, table: String?, locale: LocaleKey?) -> Int {
        let key = Key(uid: uid, client: client, bundle: bundle)
        return entries.withLock { entries in
            guard let existing = entries[key] else { return 0 }
            var tables = existing.strings.tables
            for name in tables.keys where table == nil || table == name {
                if let locale {
                    tables[name]?[locale] = nil
                    if tables[name]?.isEmpty ?? false { tables[name] = nil }
                } else {
                    tables[name] = nil
                }
            }
            let used = Set(tables.values.flatMap(\.keys))
            let updated = AddedStrings(tables: tables, localeNames: existing.strings.localeNames.filter { used.contains($0.key) })
            let bytes = updated.count == 0 ? 0 : Self.bytes(of: updated, key: key)
            book.release(existing.bytes - bytes, of: .addedStrings, from: uid)
            entries[key] = updated.count == 0 ? nil : Entry(strings: updated, bytes: bytes)
            return existing.strings.count - updated.count
        }
    }
}

/// Why strings were not added.
package enum AddedStringsError: Error, Equatable {
    case tooMany(maximum: Int)
    case tooLong(maximum: Int)
    case tooManyClients(maximum: Int)
    case overBudget(BudgetError)
}
