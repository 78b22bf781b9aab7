import Foundation
import GRDB
import Testing
@testable import LprojStore

@Suite struct ClientStoreTests {
    @Test func selectionsAreKeyedByUIDAndClient() async throws {
        let store = try ClientStore.inMemory()
        let alice = ClientKey(uid: 1000, client: "org.example.App"), bob = ClientKey(uid: 1001, client: "org.example.App")
        try await store.saveSelection("de", for: alice, bundle: "demo")
        #expect(store.selection(for: alice, bundle: "demo")?.locale == "de")
        #expect(store.selection(for: bob, bundle: "demo") == nil)
        #expect(store.selection(for: alice, bundle: "other") == nil)
        try await store.saveSelection("fr", for: alice, bundle: "demo")
        #expect(store.selection(for: alice, bundle: "demo")?.locale == "fr")
        try await store.removeSelection(for: alice, bundle: "demo")
        #expect(store.selection(for: alice, bundle: "demo") == nil)
    }

    @Test func selectionsSurviveReopening() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("lprojd.sqlite").path
        let key = ClientKey(uid: 1000, client: "app")
        do {
            let store = ClientStore(path: path)
            try await store.saveSelection("ja", for: key, bundle: "demo")
        }
        let reopened = ClientStore(path: path)
        #expect(reopened.selection(for: key, bundle: "demo")?.locale == "ja")
        #expect(reopened.selectionCount == 1)
    }

    /// A locale matched to the preferred languages keeps its origin and
    /// languages across a reopening, never replaces a choice, and rows of a
    /// database from before the origin existed are choices.
    @Test func aSelectionsOriginAndLanguagesSurviveAndAChoiceIsNeverReplaced() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("lprojd.sqlite").path
        let follower = ClientKey(uid: 1000, client: "follower"), chooser = ClientKey(uid: 1000, client: "chooser")
        do {
            // A database as version 4 left it, with a saved locale.
            let old = try DatabaseQueue(path: path)
            try ClientStore.migrator.migrate(old, upTo: "v4-misses")
            try await old.write { db in
                try db.execute(
                    sql: "INSERT INTO selection (uid, client, bundle, locale, updatedAt) VALUES (1000, 'old', 'demo', 'de', ?)",
                    arguments: [Date()])
            }
        }
        do {
            let store = ClientStore(path: path)
            #expect(store.selection(for: ClientKey(uid: 1000, client: "old"), bundle: "demo")?.origin == .selected)
            #expect(try await store.saveSelection("fr", for: follower, bundle: "demo", origin: .preferred, languages: ["ja", "fr-CA"]))
            try await store.saveSelection("de", for: chooser, bundle: "demo")
            #expect(try await store.saveSelection("fr", for: chooser, bundle: "demo", origin: .preferred) == false)
            let made = try await store.followPreferredLanguages([
                .init(key: chooser, bundle: "demo", locale: "ja"), .init(key: follower, bundle: "demo", locale: "ja"),
            ])
            #expect(made.map(\.key) == [follower])
            #expect(store.selections(uid: 1000).count == 3 && store.selections(uid: 1001).isEmpty)
        }
        let reopened = ClientStore(path: path)
        let followed = reopened.selection(for: follower, bundle: "demo")
        #expect(followed?.locale == "ja" && followed?.origin == .preferred && followed?.languages == ["ja", "fr-CA"])
        #expect(reopened.selection(for: chooser, bundle: "demo")?.origin == .selected)
        #expect(reopened.selection(for: chooser, bundle: "demo")?.locale == "de")
    }

    @Test func concurrentWritesLeaveTheCacheAsTheDatabase() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("lprojd.sqlite").path
        let store = ClientStore(path: path)
        let key = ClientKey(uid: 1, client: "app")
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { _ = try? await store.saveSelection("l\(index)", for: key, bundle: "b") }
            }
        }
        let cached = store.selection(for: key, bundle: "b")?.locale
        let fromDisk = ClientStore(path: path).selection(for: key, bundle: "b")?.locale
        #expect(cached == fromDisk)
    }

    @Test func clientIDs() {
        #expect(ClientKey.isValidClientID("org.example.Editor"))
        #expect(!ClientKey.isValidClientID(""))
        #expect(!ClientKey.isValidClientID("has space"))
        #expect(!ClientKey.isValidClientID(String(repeating: "a", count: 256)))
    }

    @Test func preferencesAreKeyedAsSelectionsAndSurviveReopening() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("lprojd.sqlite").path
        let alice = ClientKey(uid: 1000, client: "org.example.App"), bob = ClientKey(uid: 1001, client: "org.example.App")
        let mine: SavedPreferences = [
            "dateFormat": "yyyy.MM.dd", "distanceUnit": "miles", "timeZone": "Europe/Rome", "calendar": "japanese",
        ]
        do {
            let store = ClientStore(path: path)
            #expect(store.preferences(for: alice, bundle: "demo").isEmpty)
            let (previous, current) = try await store.updatePreferences(for: alice, bundle: "demo") { _ in mine }
            #expect(previous.isEmpty && current == mine)
            #expect(store.preferences(for: alice, bundle: "demo") == mine)
            #expect(store.preferences(for: bob, bundle: "demo").isEmpty)
            #expect(store.preferences(for: alice, bundle: "other").isEmpty)
            try await store.updatePreferences(for: alice, bundle: "other") { _ in ["currencySymbol": "CHF"] }
        }
        let reopened = ClientStore(path: path)
        #expect(reopened.preferences(for: alice, bundle: "demo") == mine)
        #expect(reopened.preferences(for: alice, bundle: "other")["currencySymbol"] == "CHF")
        // Saving nothing forgets them, on disk too.
        let (previous, _) = try await reopened.updatePreferences(for: alice, bundle: "demo") { _ in [:] }
        #expect(previous == mine)
        #expect(ClientStore(path: path).preferences(for: alice, bundle: "demo").isEmpty)
    }

    /// A store written by an lprojd that had only the selections (the first
    /// migration) gains the preferences table and keeps its selections.
    @Test func anOlderStoreIsMigrated() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("lprojd.sqlite").path
        do {
            let old = try DatabaseQueue(path: path)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1-selections") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE selection (uid INTEGER NOT NULL, client TEXT NOT NULL, bundle TEXT NOT NULL, locale TEXT NOT NULL,
                        updatedAt DATETIME NOT NULL, PRIMARY KEY (uid, client, bundle))
                        """)
                try db.execute(sql: "INSERT INTO selection VALUES (1000, 'app', 'demo', 'de', '2026-01-01 00:00:00.000')")
            }
            try migrator.migrate(old)
        }
        let store = ClientStore(path: path)
        let key = ClientKey(uid: 1000, client: "app")
        #expect(store.selection(for: key, bundle: "demo")?.locale == "de")
        try await store.updatePreferences(for: key, bundle: "demo") { _ in ["speedUnit": "knots"] }
        #expect(ClientStore(path: path).preferences(for: key, bundle: "demo")["speedUnit"] == "knots")
        let applied = try await DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        }
        #expect(applied == ["v1-selections", "v2-preferences", "v3-preference-fields", "v4-misses", "v5-selection-origin"])
        // A locale saved before it had an origin is the client's own choice.
        #expect(store.selection(for: key, bundle: "demo")?.origin == .selected)
    }

    /// Preferences saved as columns (the second migration) become a row a
    /// field, and are read back the same.
    @Test func preferencesInColumnsAreMigratedToRows() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("lprojd.sqlite").path
        do {
            let old = try DatabaseQueue(path: path)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1-selections") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE selection (uid INTEGER NOT NULL, client TEXT NOT NULL, bundle TEXT NOT NULL, locale TEXT NOT NULL,
                        updatedAt DATETIME NOT NULL, PRIMARY KEY (uid, client, bundle))
                        """)
            }
            migrator.registerMigration("v2-preferences") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE preferences (uid INTEGER NOT NULL, client TEXT NOT NULL, bundle TEXT NOT NULL, dateFormat TEXT, timeFormat TEXT,
                        distanceUnit TEXT, speedUnit TEXT, currencySymbol TEXT, timeZone TEXT, calendar TEXT, updatedAt DATETIME NOT NULL,
                        PRIMARY KEY (uid, client, bundle))
                        """)
                try db.execute(
                    sql: """
                        INSERT INTO preferences VALUES (1000, 'app', 'demo', 'yyyy.MM.dd', NULL, 'miles', NULL, NULL, 'Europe/Rome', NULL,
                        '2026-01-01 00:00:00.000')
                        """)
            }
            try migrator.migrate(old)
        }
        let store = ClientStore(path: path)
        #expect(
            store.preferences(for: ClientKey(uid: 1000, client: "app"), bundle: "demo")
                == ["dateFormat": "yyyy.MM.dd", "distanceUnit": "miles", "timeZone": "Europe/Rome"])
        #expect(store.heldBytes(uid: 1000) > 0)
    }

    @Test func concurrentPreferenceChangesAreAllKept() async throws {
        let store = try ClientStore.inMemory()
        let key = ClientKey(uid: 1, client: "app")
        // Forty read-modify-writes of one counter: none may be lost.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    _ = try? await store.updatePreferences(for: key, bundle: "b") { saved in
                        var updated = saved
                        updated["currencySymbol"] = String((Int(saved["currencySymbol"] ?? "0") ?? 0) + 1)
                        return updated
                    }
                }
            }
        }
        #expect(store.preferences(for: key, bundle: "b")["currencySymbol"] == "40")
    }
}
