public import Foundation
internal import GRDB
internal import Synchronization

/// What lprojd remembers per client, in SQLite: each client's selected
/// locale per bundle.
///
/// Reads come from an in-memory copy, so lookups never touch the database.
/// Writes go through GRDB's single writer; a write returns only once its
/// transaction is committed (`synchronous = FULL`, so it survives `kill -9`
/// and a power cut), and the copy is updated on the writer, after the
/// commit, so it always agrees with the database.
public final class ClientStore: Sendable {
    private let writer: any DatabaseWriter
    private let selections = Mutex<[SelectionKey: SavedSelection]>([:])

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
        let rows = try writer.read { db in try SelectionRecord.fetchAll(db) }
        selections.withLock { cache in
            for row in rows { cache[SelectionKey(uid: row.uid, client: row.client, bundle: row.bundle)] = row.selection }
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
