package import ClientBudget
package import Foundation
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
///
/// Every row, and its copy in memory, is charged to its uid's budget
/// (``Resource/savedState``): a write that would take the uid past it is
/// refused before anything is written. Rows found at start-up beyond what
/// the budget allows (left by an older version) are pruned, oldest first.
///
/// The database may fail: a state directory that is full or read-only, a
/// file that is damaged or cannot be opened. The store then answers reads
/// from its copy (empty if it never opened) and writes with
/// ``ClientStoreError/unavailable(reason:)``, whose reason says what is wrong; ``open()`` tries again
/// (lprojd does so every few seconds), and a write works again as soon as
/// the fault is gone.
package final class ClientStore: Sendable {
    private let path: String?
    private let makeWriter: @Sendable () throws -> any DatabaseWriter
    private let book: BudgetBook
    private let writer = Mutex<(any DatabaseWriter)?>(nil)
    private let problem = Mutex<String?>(nil)
    private let selections = Mutex(RowsByUID<SavedSelection>())
    private let savedPreferences = Mutex(RowsByUID<SavedPreferences>())
    private let pruned = Mutex(0)

    struct SelectionKey: Hashable {
        let uid: UInt32
        let client: String
        let bundle: String
    }

    /// Opens (creating if needed) the store at `path`, with WAL. Rows are
    /// charged to `budget` (by default, one without limits). A database
    /// that cannot be opened leaves the store unavailable, not an error:
    /// see ``unavailableReason``.
    package init(path: String, budget: BudgetBook = BudgetBook(limits: BudgetLimits())) {
        self.path = path
        self.book = budget
        self.makeWriter = {
            var configuration = Configuration()
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            return try DatabasePool(path: path, configuration: configuration)
        }
        // One that cannot be opened is said by `unavailableReason`.
        try? open()
    }

    /// A store in memory, for tests.
    package static func inMemory(budget: BudgetBook = BudgetBook(limits: BudgetLimits())) throws -> ClientStore {
        let store = ClientStore(writer: try DatabaseQueue(), budget: budget)
        try store.open()
        return store
    }

    private init(writer: any DatabaseWriter, budget: BudgetBook) {
        self.path = nil
        self.book = budget
        self.makeWriter = { writer }
    }

    /// What a uid's rows are charged, in all.
    package func heldBytes(uid: UInt32) -> Int {
        let selections = selections.withLock { $0.rows(of: uid) }
        let preferences = savedPreferences.withLock { $0.rows(of: uid) }
        return selections.reduce(0) { $0 + Self.cost(SelectionKey(uid: uid, client: $1.key.client, bundle: $1.key.bundle), $1.value) }
            + preferences.reduce(0) { $0 + Self.cost(SelectionKey(uid: uid, client: $1.key.client, bundle: $1.key.bundle), $1.value) }
    }

    /// Why the state cannot be written now, or nil when it can.
    package var unavailableReason: String? { problem.withLock { $0 } }

    /// Rows deleted at the last opening because their uid was over its budget.
    package var prunedAtStart: Int { pruned.withLock { $0 } }

    /// Opens the database if it is not open (reading its rows afresh), or
    /// says why it cannot.
    package func open() throws(ClientStoreError) {
        if writer.withLock({ $0 }) != nil { return }
        do {
            let database = try makeWriter()
            try Self.migrator.migrate(database)
            try load(from: database)
            writer.withLock { $0 = database }
            problem.withLock { $0 = nil }
        } catch {
            let reason = Self.reason(for: error, path: path)
            problem.withLock { $0 = reason }
            throw .unavailable(reason: reason)
        }
    }

    /// Reads every row into memory, charging each to its uid, newest first:
    /// what fits each uid's budget is kept, the rest pruned.
    private func load(from writer: any DatabaseWriter) throws {
        let (rows, preferenceRows) = try writer.read { db in (try SelectionRecord.fetchAll(db), try PreferenceRecord.fetchAll(db)) }
        // What the copy held before (a reopening) is released first.
        for (key, selection) in selections.withLock({ $0.all }) {
            book.release(Self.cost(key, selection), of: .savedState, from: key.uid)
        }
        for (key, saved) in savedPreferences.withLock({ $0.all }) { book.release(Self.cost(key, saved), of: .savedState, from: key.uid) }
        var kept = RowsByUID<SavedSelection>(), keptPreferences = RowsByUID<SavedPreferences>()
        var prunedSelections: [SelectionKey] = [], prunedPreferences: [SelectionKey] = []
        // A client's preferences for a bundle are one row a field; they are
        // kept or pruned together, as of their newest field.
        var preferences: [SelectionKey: (saved: SavedPreferences, updatedAt: Date)] = [:]
        for record in preferenceRows {
            let key = SelectionKey(uid: record.uid, client: record.client, bundle: record.bundle)
            var entry = preferences[key] ?? ([:], record.updatedAt)
            entry.saved[record.field] = record.value
            entry.updatedAt = max(entry.updatedAt, record.updatedAt)
            preferences[key] = entry
        }
        enum Row { case selection(SelectionRecord), preferences(SelectionKey, SavedPreferences) }
        let all =
            (rows.map { (Row.selection($0), $0.updatedAt) }
            + preferences.map { (Row.preferences($0.key, $0.value.saved), $0.value.updatedAt) })
            .sorted { $0.1 > $1.1 }
        for (row, _) in all {
            switch row {
            case .selection(let record):
                let key = SelectionKey(uid: record.uid, client: record.client, bundle: record.bundle)
                if book.charge(Self.cost(key, record.selection), of: .savedState, to: record.uid) == nil {
                    kept[key] = record.selection
                } else {
                    prunedSelections.append(key)
                }
            case .preferences(let key, let saved):
                if book.charge(Self.cost(key, saved), of: .savedState, to: key.uid) == nil {
                    keptPreferences[key] = saved
                } else {
                    prunedPreferences.append(key)
                }
            }
        }
        if !prunedSelections.isEmpty || !prunedPreferences.isEmpty {
            try writer.write { db in
                for key in prunedSelections {
                    try db.execute(
                        sql: "DELETE FROM selection WHERE uid = ? AND client = ? AND bundle = ?",
                        arguments: [Int64(key.uid), key.client, key.bundle])
                }
                for key in prunedPreferences {
                    try db.execute(
                        sql: "DELETE FROM preference WHERE uid = ? AND client = ? AND bundle = ?",
                        arguments: [Int64(key.uid), key.client, key.bundle])
                }
            }
        }
        pruned.withLock { $0 = prunedSelections.count + prunedPreferences.count }
        selections.withLock { $0 = kept }
        savedPreferences.withLock { $0 = keptPreferences }
    }

    /// The database to write, or why there is none.
    func database() throws(ClientStoreError) -> any DatabaseWriter {
        guard let writer = writer.withLock({ $0 }) else {
            throw .unavailable(reason: unavailableReason ?? "the state database is not open")
        }
        return writer
    }

    /// Runs a write; a failure of the database becomes ``ClientStoreError/unavailable(reason:)``
    /// with its reason, and the database is closed, to be opened afresh
    /// (``open()``): a connection SQLite opened read-only, or on a file
    /// since replaced, would stay so.
    func writing<T>(_ work: (any DatabaseWriter) async throws -> T) async throws -> T {
        let database = try database()
        do {
            return try await work(database)
        } catch let error as DatabaseError {
            let reason = Self.reason(for: error, path: path)
            writer.withLock { if $0 === database { $0 = nil } }
            problem.withLock { $0 = reason }
            throw ClientStoreError.unavailable(reason: reason)
        }
    }

    /// A failure as an administrator would want it said.
    static func reason(for error: any Error, path: String?) -> String {
        let file = path ?? "the state database"
        guard let error = error as? DatabaseError else { return "\(file) cannot be opened: \(error)" }
        switch error.resultCode {
        case .SQLITE_FULL: return "the file system of \(file) is full"
        case .SQLITE_READONLY: return "\(file) is read-only"
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return "\(file) is damaged (\(error.message ?? "not a database")); move it away to start afresh"
        case .SQLITE_CANTOPEN: return "\(file) cannot be opened (\(error.message ?? "no access"))"
        case .SQLITE_IOERR: return "\(file) cannot be written (I/O error: \(error.message ?? "?"))"
        case .SQLITE_PERM, .SQLITE_AUTH: return "\(file) may not be written"
        default: return "\(file): \(error.message ?? "\(error)")"
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
        // A row a field, so that a new preference needs no new column.
        migrator.registerMigration("v3-preference-fields") { db in
            try db.create(table: "preference") { table in
                table.column("uid", .integer).notNull()
                table.column("client", .text).notNull()
                table.column("bundle", .text).notNull()
                table.column("field", .text).notNull()
                table.column("value", .text).notNull()
                table.column("updatedAt", .datetime).notNull()
                table.primaryKey(["uid", "client", "bundle", "field"])
            }
            for column in ["dateFormat", "timeFormat", "distanceUnit", "speedUnit", "currencySymbol", "timeZone", "calendar"] {
                try db.execute(
                    sql: """
                        INSERT INTO preference (uid, client, bundle, field, value, updatedAt)
                        SELECT uid, client, bundle, '\(column)', \(column), updatedAt FROM preferences WHERE \(column) IS NOT NULL
                        """)
            }
            try db.drop(table: "preferences")
        }
        migrator.registerMigration("v4-misses") { db in
            try db.create(table: "miss") { table in
                table.column("uid", .integer).notNull()
                table.column("bundle", .text).notNull()
                table.column("locale", .text).notNull()
                table.column("tableName", .text).notNull()
                table.column("key", .text).notNull()
                table.column("count", .integer).notNull()
                table.column("clientHashes", .blob).notNull()
                table.column("firstSeen", .double).notNull()
                table.column("lastSeen", .double).notNull()
                table.primaryKey(["uid", "bundle", "locale", "tableName", "key"])
            }
            try db.create(table: "unknownKeys") { table in
                table.column("uid", .integer).notNull()
                table.column("bundle", .text).notNull()
                table.column("count", .integer).notNull()
                table.column("sample", .text).notNull()
                table.primaryKey(["uid", "bundle"])
            }
        }
        // Whether a saved locale is the client's own choice (SelectLocale)
        // or the best match for its preferred languages, which follows them;
        // and those languages, as the client's process sent them.
        // Rows saved before are taken as choices: a change of the desktop's
        // language must never undo a choice a person made.
        migrator.registerMigration("v5-selection-origin") { db in
            try db.alter(table: "selection") { table in
                table.add(column: "origin", .text).notNull().defaults(to: "selected")
                table.add(column: "languages", .text)
            }
        }
        return migrator
    }

    // MARK: Selections

    /// The locale a client saved for a bundle, if any.
    package func selection(for key: ClientKey, bundle: String) -> SavedSelection? {
        selections.withLock { $0[SelectionKey(uid: key.uid, client: key.client, bundle: bundle)] }
    }

    /// What a row costs, on disk and in memory: its text, and about what
    /// SQLite and the dictionary keep beside it.
    static func cost(_ key: SelectionKey, _ selection: SavedSelection) -> Int {
        192 + key.client.utf8.count + key.bundle.utf8.count + selection.locale.utf8.count
            + (selection.languages ?? []).reduce(0) { $0 + 1 + $1.utf8.count }
    }

    static func cost(_ key: SelectionKey, _ preferences: SavedPreferences) -> Int {
        256 + key.client.utf8.count + key.bundle.utf8.count + preferences.values.reduce(0) { $0 + $1.utf8.count }
    }

    /// Charges the growth of a row from `old` to `new` bytes before it is
    /// written (or releases its shrinking).
    private func charge(from old: Int, to new: Int, uid: UInt32) throws(ClientStoreError) {
        if new > old {
            if let refusal = book.charge(new - old, of: .savedState, to: uid) { throw .overBudget(refusal) }
        } else if old > new {
            book.release(old - new, of: .savedState, from: uid)
        }
    }

    /// Saves a client's locale for a bundle; returns once committed.
    /// Throws ``ClientStoreError/overBudget(_:)`` (writing nothing) past the uid's budget.
    ///
    /// A locale saved for its preferred languages (``SelectionOrigin/preferred``)
    /// never replaces the client's own choice: checked on the writer, so that
    /// a choice committed meanwhile wins. Returns whether it was written.
    /// (`replacingChoice` lets it: `ResetSelection` forgets the choice and
    /// saves what the preferred languages give, in one commit.)
    ///
    /// `languages` are the preferred languages the client's process sent,
    /// kept with the row; nil keeps those the row had.
    @discardableResult
    package func saveSelection(
        _ locale: String, for key: ClientKey, bundle: String, origin: SelectionOrigin = .selected, languages: [String]? = nil,
        replacingChoice: Bool = false
    ) async throws -> Bool {
        let cacheKey = SelectionKey(uid: key.uid, client: key.client, bundle: bundle)
        return try await writing { writer in
            try await writer.writeWithoutTransaction { db in
                let current = self.selections.withLock { $0[cacheKey] }
                if origin == .preferred, current?.origin == .selected, !replacingChoice { return false }
                let selection = SavedSelection(
                    uid: key.uid, client: key.client, bundle: bundle, locale: locale, origin: origin,
                    languages: languages ?? current?.languages, updatedAt: Date())
                let old = current.map { Self.cost(cacheKey, $0) } ?? 0
                let new = Self.cost(cacheKey, selection)
                try self.charge(from: old, to: new, uid: key.uid)
                do {
                    try db.inTransaction {
                        try SelectionRecord(selection).upsert(db)
                        return .commit
                    }
                } catch {
                    try? self.charge(from: new, to: old, uid: key.uid)
                    throw error
                }
                self.selections.withLock { $0[cacheKey] = selection }
                return true
            }
        }
    }

    /// Forgets a client's locale for a bundle (only if it was saved for
    /// `origin`, when given); returns once committed.
    package func removeSelection(for key: ClientKey, bundle: String, origin: SelectionOrigin? = nil) async throws {
        let cacheKey = SelectionKey(uid: key.uid, client: key.client, bundle: bundle)
        try await writing { writer in
            try await writer.writeWithoutTransaction { db in
                if let origin, let current = self.selections.withLock({ $0[cacheKey] }), current.origin != origin { return }
                try db.inTransaction {
                    try db.execute(
                        sql: "DELETE FROM selection WHERE uid = ? AND client = ? AND bundle = ?",
                        arguments: [Int64(key.uid), key.client, bundle])
                    return .commit
                }
                if let removed = self.selections.withLock({ $0.removeValue(forKey: cacheKey) }) {
                    self.book.release(Self.cost(cacheKey, removed), of: .savedState, from: key.uid)
                }
            }
        }
    }

    /// One client's locale saved for its preferred languages, or forgotten
    /// (nil), in ``followPreferredLanguages(_:)``.
    package struct PreferredLocale: Sendable {
        package let key: ClientKey
        package let bundle: String
        package let locale: String?
        /// The preferred languages the client's process sent, to keep with
        /// the row (nil keeps the row's).
        package let languages: [String]?

        package init(key: ClientKey, bundle: String, locale: String?, languages: [String]? = nil) {
            self.key = key
            self.bundle = bundle
            self.locale = locale
            self.languages = languages
        }
    }

    /// Saves many clients' locales for their preferred languages in one
    /// commit (a change of the desktop's languages). A row that is a
    /// client's own choice (by now) is left alone, and so is one the uid's
    /// budget has no room for. Returns the changes made.
    package func followPreferredLanguages(_ changes: [PreferredLocale]) async throws -> [PreferredLocale] {
        try await writing { writer in
            try await writer.writeWithoutTransaction { db in
                var made: [(PreferredLocale, old: SavedSelection?, new: SavedSelection?)] = []
                var charged: [(uid: UInt32, bytes: Int)] = []
                do {
                    try db.inTransaction {
                        for change in changes {
                            let cacheKey = SelectionKey(uid: change.key.uid, client: change.key.client, bundle: change.bundle)
                            let current = self.selections.withLock { $0[cacheKey] }
                            if current?.origin == .selected { continue }
                            guard let locale = change.locale else {
                                guard let current else { continue }
                                try db.execute(
                                    sql: "DELETE FROM selection WHERE uid = ? AND client = ? AND bundle = ?",
                                    arguments: [Int64(change.key.uid), change.key.client, change.bundle])
                                made.append((change, current, nil))
                                continue
                            }
                            let selection = SavedSelection(
                                uid: change.key.uid, client: change.key.client, bundle: change.bundle, locale: locale, origin: .preferred,
                                languages: change.languages ?? current?.languages, updatedAt: Date())
                            let growth = Self.cost(cacheKey, selection) - (current.map { Self.cost(cacheKey, $0) } ?? 0)
                            if growth > 0 {
                                if self.book.charge(growth, of: .savedState, to: change.key.uid) != nil { continue }
                                charged.append((change.key.uid, growth))
                            }
                            try SelectionRecord(selection).upsert(db)
                            made.append((change, current, selection))
                        }
                        return .commit
                    }
                } catch {
                    for (uid, bytes) in charged { self.book.release(bytes, of: .savedState, from: uid) }
                    throw error
                }
                for (change, old, new) in made {
                    let cacheKey = SelectionKey(uid: change.key.uid, client: change.key.client, bundle: change.bundle)
                    self.selections.withLock { $0[cacheKey] = new }
                    let shrink = (old.map { Self.cost(cacheKey, $0) } ?? 0) - (new.map { Self.cost(cacheKey, $0) } ?? 0)
                    if shrink > 0 { self.book.release(shrink, of: .savedState, from: change.key.uid) }
                }
                return made.map { $0.0 }
            }
        }
    }

    /// How many selections are saved.
    package var selectionCount: Int { selections.withLock { $0.count } }

    /// Saved selections of one uid.
    package func selectionCount(uid: UInt32) -> Int { selections.withLock { $0.rows(of: uid).count } }

    /// Every selection one uid saved, of every client and bundle.
    package func selections(uid: UInt32) -> [SavedSelection] { selections.withLock { Array($0.rows(of: uid).values) } }

    /// The clients and bundles one uid saved preferences for.
    package func preferenceKeys(uid: UInt32) -> [(client: String, bundle: String)] {
        savedPreferences.withLock { $0.rows(of: uid).keys.map { (client: $0.client, bundle: $0.bundle) } }
    }

    // MARK: Preferences

    /// A client's formatting preferences for a bundle (empty if none).
    package func preferences(for key: ClientKey, bundle: String) -> SavedPreferences {
        savedPreferences.withLock { $0[SelectionKey(uid: key.uid, client: key.client, bundle: bundle)] } ?? [:]
    }

    /// Changes a client's preferences for a bundle: `update` gets the
    /// current ones and returns the new ones (all unset forgets them). It
    /// runs on the store's single writer, so concurrent changes never lose
    /// one another. Returns the preferences before and after, once committed.
    @discardableResult
    package func updatePreferences(
        for key: ClientKey, bundle: String, _ update: @escaping @Sendable (SavedPreferences) throws -> SavedPreferences
    ) async throws -> (previous: SavedPreferences, current: SavedPreferences) {
        let cacheKey = SelectionKey(uid: key.uid, client: key.client, bundle: bundle)
        return try await writing { writer in
            try await writer.writeWithoutTransaction { db in
                let previous = self.savedPreferences.withLock { $0[cacheKey] } ?? [:]
                let current = try update(previous)
                guard current != previous else { return (previous, current) }
                let old = previous.isEmpty ? 0 : Self.cost(cacheKey, previous), new = current.isEmpty ? 0 : Self.cost(cacheKey, current)
                try self.charge(from: old, to: new, uid: key.uid)
                do {
                    try db.inTransaction {
                        try db.execute(
                            sql: "DELETE FROM preference WHERE uid = ? AND client = ? AND bundle = ?",
                            arguments: [Int64(key.uid), key.client, bundle])
                        let now = Date()
                        for (field, value) in current {
                            try PreferenceRecord(
                                uid: key.uid, client: key.client, bundle: bundle, field: field, value: value, updatedAt: now
                            ).insert(db)
                        }
                        return .commit
                    }
                } catch {
                    try? self.charge(from: new, to: old, uid: key.uid)
                    throw error
                }
                self.savedPreferences.withLock { $0[cacheKey] = current.isEmpty ? nil : current }
                return (previous, current)
            }
        }
    }
}

/// A client's formatting preferences as stored: each field's text by the
/// field's name, checked by the service before it gets here. The store
/// keeps whatever fields it is given: it never lists them.
package typealias SavedPreferences = [String: String]

/// Why a locale was saved for a client.
package enum SelectionOrigin: String, Sendable, Hashable {
    /// The client chose it (`SelectLocale`): it stays until the client
    /// chooses again or resets.
    case selected
    /// It is the best match for the client's preferred languages (the
    /// process's, then the desktop's), saved so that the client's calls
    /// that name no locale use it; it follows those languages.
    case preferred
}

/// A saved selection.
package struct SavedSelection: Sendable, Hashable {
    /// Whose it is.
    package let uid: UInt32
    package let client: String
    /// The bundle it is for.
    package let bundle: String
    /// The locale's canonical tag.
    package let locale: String
    /// Chosen, or matched to the preferred languages.
    package let origin: SelectionOrigin
    /// The preferred languages the client's process last sent (BCP 47
    /// tags), if it did: a change of the desktop's languages chooses anew
    /// with them.
    package let languages: [String]?
    /// When it was saved.
    package let updatedAt: Date
}

/// A row of the `selection` table.
struct SelectionRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "selection"

    let uid: UInt32
    let client: String
    let bundle: String
    let locale: String
    let origin: String
    /// The preferred languages, space-separated.
    let languages: String?
    let updatedAt: Date

    init(_ selection: SavedSelection) {
        uid = selection.uid
        client = selection.client
        bundle = selection.bundle
        locale = selection.locale
        origin = selection.origin.rawValue
        languages = selection.languages?.joined(separator: " ")
        updatedAt = selection.updatedAt
    }

    /// A row of an origin this version does not know is taken as a choice.
    var selection: SavedSelection {
        SavedSelection(
            uid: uid, client: client, bundle: bundle, locale: locale, origin: SelectionOrigin(rawValue: origin) ?? .selected,
            languages: languages.map { $0.split(separator: " ").map(String.init) }, updatedAt: updatedAt)
    }
}

/// A row of the `preference` table: one field of a client's preferences.
struct PreferenceRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "preference"

    let uid: UInt32
    let client: String
    let bundle: String
    let field: String
    let value: String
    let updatedAt: Date
}

/// Why the store did not do what was asked.
package enum ClientStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The uid's budget does not allow the write; nothing was written.
    case overBudget(BudgetError)
    /// The state cannot be written now, and why.
    case unavailable(reason: String)

    package var description: String {
        switch self {
        case .overBudget(let refusal): "over the budget: \(refusal)"
        case .unavailable(let reason): reason
        }
    }
}
