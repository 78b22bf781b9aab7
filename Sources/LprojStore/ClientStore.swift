public import Foundation
internal import GRDB
internal import Synchronization

/// What lprojd remembers per client, in SQLite: each client's selected
/// locale per bundle, and its formatting preferences, keyed the same way
/// (uid, client, bundle).
///
/// Reads come from an in-memory copy, so lookups never touch the database.
/// Writes go through GRDB's single writer; a write returns only once its
/// transaction is committed (`synchronous = FULL`, so it survives `kill -9`
/// and a power cut), and the copy is updated on the writer, after the
/// commit, so it always agrees with the database.
public final class ClientStore: Sendable {
    private let writer: any DatabaseWriter
    private let selections = Mutex<[SelectionKey: SavedSelection]>([:])
    private let preferences = Mutex<[SelectionKey: SavedPreferences]>([:])

    private struct SelectionKey: Hashable {
        let uid: UInt32
        let client: String
        let bundle: String
    }

    /// Opens (creating if needed) the store at `path`, with WAL.
    public convenience init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        try self.init(writer: DatabasePool(path: path, configuration: configuration))
    }

    /// A store in memory, for tests.
    public static func inMemory() throws -> ClientStore {
        try ClientStore(writer: DatabaseQueue())
    }

    private init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
        let (rows, preferenceRows) = try writer.read { db in (try SelectionRecord.fetchAll(db), try PreferencesRecord.fetchAll(db)) }
        selections.withLock { cache in
            for row in rows { cache[SelectionKey(uid: row.uid, client: row.client, bundle: row.bundle)] = row.selection }
        }
        preferences.withLock { cache in
            for row in preferenceRows { cache[SelectionKey(uid: row.uid, client: row.client, bundle: row.bundle)] = row.saved }
        }
    }

    /// Named migrations; never edited once shipped.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-selections") { db in
            try db.create(table: "selection") { table in
                table.column("uid", .integer).notNull()
                table.column("client", .text).notNull()
                table.column("bundle", .text).notNull()
                table.column("locale", .text).notNull()
                table.column("updatedAt", .datetime).notNull()
                table.primaryKey(["uid", "client", "bundle"])
            }
        }
        migrator.registerMigration("v2-preferences") { db in
            try db.create(table: "preferences") { table in
                table.column("uid", .integer).notNull()
                table.column("client", .text).notNull()
                table.column("bundle", .text).notNull()
                table.column("dateFormat", .text)
                table.column("timeFormat", .text)
                table.column("distanceUnit", .text)
                table.column("speedUnit", .text)
                table.column("currencySymbol", .text)
                table.column("timeZone", .text)
                table.column("calendar", .text)
                table.column("updatedAt", .datetime).notNull()
                table.primaryKey(["uid", "client", "bundle"])
            }
        }
        return migrator
    }

    // MARK: Selections

    /// The locale a client saved for a bundle, if any.
    public func selection(for key: ClientKey, bundle: String) -> SavedSelection? {
        selections.withLock { $0[SelectionKey(uid: key.uid, client: key.client, bundle: bundle)] }
    }

    /// Saves a client's locale for a bundle; returns once committed.
    public func saveSelection(_ locale: String, for key: ClientKey, bundle: String) async throws {
        let selection = SavedSelection(uid: key.uid, client: key.client, bundle: bundle, locale: locale, updatedAt: Date())
        try await writer.writeWithoutTransaction { db in
            try db.inTransaction {
                try SelectionRecord(selection).upsert(db)
                return .commit
            }
            self.selections.withLock { $0[SelectionKey(uid: key.uid, client: key.client, bundle: bundle)] = selection }
        }
    }

    /// Forgets a client's locale for a bundle; returns once committed.
    public func removeSelection(for key: ClientKey, bundle: String) async throws {
        try await writer.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "DELETE FROM selection WHERE uid = ? AND client = ? AND bundle = ?", arguments: [Int64(key.uid), key.client, bundle])
                return .commit
            }
            self.selections.withLock { _ = $0.removeValue(forKey: SelectionKey(uid: key.uid, client: key.client, bundle: bundle)) }
        }
    }

    /// How many selections are saved.
    public var selectionCount: Int { selections.withLock { $0.count } }

    // MARK: Preferences

    /// A client's formatting preferences for a bundle (empty if none).
    public func preferences(for key: ClientKey, bundle: String) -> SavedPreferences {
        preferences.withLock { $0[SelectionKey(uid: key.uid, client: key.client, bundle: bundle)] } ?? SavedPreferences()
    }

    /// Changes a client's preferences for a bundle: `update` gets the
    /// current ones and returns the new ones (all unset forgets them). It
    /// runs on the store's single writer, so concurrent changes never lose
    /// one another. Returns the preferences before and after, once committed.
    @discardableResult
    public func updatePreferences(
        for key: ClientKey, bundle: String, _ update: @escaping @Sendable (SavedPreferences) throws -> SavedPreferences
    ) async throws -> (previous: SavedPreferences, current: SavedPreferences) {
        let cacheKey = SelectionKey(uid: key.uid, client: key.client, bundle: bundle)
        return try await writer.writeWithoutTransaction { db in
            let previous = self.preferences.withLock { $0[cacheKey] } ?? SavedPreferences()
            let current = try update(previous)
            guard current != previous else { return (previous, current) }
            try db.inTransaction {
                if current.isEmpty {
                    try db.execute(sql: "DELETE FROM preferences WHERE uid = ? AND client = ? AND bundle = ?", arguments: [Int64(key.uid), key.client, bundle])
                } else {
                    try PreferencesRecord(uid: key.uid, client: key.client, bundle: bundle, current, updatedAt: Date()).upsert(db)
                }
                return .commit
            }
            self.preferences.withLock { $0[cacheKey] = current.isEmpty ? nil : current }
            return (previous, current)
        }
    }
}

/// A client's formatting preferences as stored: each field as text, checked
/// by the service before it gets here.
public struct SavedPreferences: Sendable, Hashable {
    public var dateFormat: String?
    public var timeFormat: String?
    public var distanceUnit: String?
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

    public var isEmpty: Bool { self == SavedPreferences() }
}

/// A saved selection.
public struct SavedSelection: Sendable, Hashable {
    /// Whose it is.
    public let uid: UInt32
    public let client: String
    /// The bundle it is for.
    public let bundle: String
    /// The locale's canonical tag.
    public let locale: String
    /// When it was saved.
    public let updatedAt: Date
}

/// A row of the `selection` table.
struct SelectionRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "selection"

    let uid: UInt32
    let client: String
    let bundle: String
    let locale: String
    let updatedAt: Date

    init(_ selection: SavedSelection) {
        uid = selection.uid
        client = selection.client
        bundle = selection.bundle
        locale = selection.locale
        updatedAt = selection.updatedAt
    }

    var selection: SavedSelection {
        SavedSelection(uid: uid, client: client, bundle: bundle, locale: locale, updatedAt: updatedAt)
    }
}

/// A row of the `preferences` table.
struct PreferencesRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "preferences"

    let uid: UInt32
    let client: String
    let bundle: String
    let dateFormat: String?
    let timeFormat: String?
    let distanceUnit: String?
    let speedUnit: String?
    let currencySymbol: String?
    let timeZone: String?
    let calendar: String?
    let updatedAt: Date

    init(uid: UInt32, client: String, bundle: String, _ saved: SavedPreferences, updatedAt: Date) {
        self.uid = uid
        self.client = client
        self.bundle = bundle
        dateFormat = saved.dateFormat
        timeFormat = saved.timeFormat
        distanceUnit = saved.distanceUnit
        speedUnit = saved.speedUnit
        currencySymbol = saved.currencySymbol
        timeZone = saved.timeZone
        calendar = saved.calendar
        self.updatedAt = updatedAt
    }

    var saved: SavedPreferences {
        SavedPreferences(
            dateFormat: dateFormat, timeFormat: timeFormat, distanceUnit: distanceUnit, speedUnit: speedUnit,
            currencySymbol: currencySymbol, timeZone: timeZone, calendar: calendar)
    }
}
