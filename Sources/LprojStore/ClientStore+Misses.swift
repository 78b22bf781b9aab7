import Foundation
internal import GRDB

/// The lookups that missed a key, as saved: one row per user, bundle,
/// locale, table and key. The service keeps them in memory and saves the
/// rows that changed every few seconds; they are read back at start-up.
package struct MissRow: Sendable, Hashable {
    package let uid: UInt32
    package let bundle: String
    package let locale: String
    package let table: String
    package let key: String
    package var count: Int
    /// Stable hashes of the distinct clients that missed it (bounded by the service).
    package var clientHashes: [UInt64]
    /// Seconds since 1970.
    package var firstSeen: Double
    package var lastSeen: Double

    package init(
        uid: UInt32, bundle: String, locale: String, table: String, key: String, count: Int, clientHashes: [UInt64], firstSeen: Double,
        lastSeen: Double
    ) {
        self.uid = uid
        self.bundle = bundle
        self.locale = locale
        self.table = table
        self.key = key
        self.count = count
        self.clientHashes = clientHashes
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }
}

/// Lookups of keys no table of a bundle has, per user and bundle, with a
/// few of the keys as sent.
package struct UnknownKeysRow: Sendable, Hashable {
    package let uid: UInt32
    package let bundle: String
    package var count: Int
    package var sample: [String]

    package init(uid: UInt32, bundle: String, count: Int, sample: [String]) {
        self.uid = uid
        self.bundle = bundle
        self.count = count
        self.sample = sample
    }
}

extension ClientStore {
    /// Every saved miss. Throws ``ClientStoreError/unavailable(reason:)`` when the database is not
    /// open (the misses are then read once it is).
    package func savedMisses() throws -> (misses: [MissRow], unknownKeys: [UnknownKeysRow]) {
        let database = try database()
        return try database.read { db in
            let misses = try Row.fetchAll(db, sql: "SELECT * FROM miss").map { row in
                MissRow(
                    uid: UInt32(truncatingIfNeeded: row["uid"] as Int64), bundle: row["bundle"], locale: row["locale"],
                    table: row["tableName"], key: row["key"], count: row["count"], clientHashes: Self.hashes(row["clientHashes"]),
                    firstSeen: row["firstSeen"], lastSeen: row["lastSeen"])
            }
            let unknown = try Row.fetchAll(db, sql: "SELECT * FROM unknownKeys").map { row in
                UnknownKeysRow(
                    uid: UInt32(truncatingIfNeeded: row["uid"] as Int64), bundle: row["bundle"], count: row["count"],
                    sample: (try? JSONDecoder().decode([String].self, from: Data((row["sample"] as String).utf8))) ?? [])
            }
            return (misses, unknown)
        }
    }

    /// Writes the rows that changed, in one transaction; returns once
    /// committed, and whether it wrote. `isCurrent` is asked on the writer,
    /// just before: false (the misses were reset since the rows were taken)
    /// writes nothing.
    @discardableResult
    package func saveMisses(_ misses: [MissRow], unknownKeys: [UnknownKeysRow], isCurrent: @escaping @Sendable () -> Bool) async throws
        -> Bool
    {
        guard !misses.isEmpty || !unknownKeys.isEmpty else { return true }
        return try await writing { writer in
            try await writer.write { db in
                guard isCurrent() else { return false }
                for miss in misses {
                    try db.execute(
                        sql: """
                            INSERT OR REPLACE INTO miss (uid, bundle, locale, tableName, key, count, clientHashes, firstSeen, lastSeen)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            Int64(miss.uid), miss.bundle, miss.locale, miss.table, miss.key, miss.count, Self.blob(miss.clientHashes),
                            miss.firstSeen, miss.lastSeen,
                        ])
                }
                for unknown in unknownKeys {
                    let sample = String(decoding: try JSONEncoder().encode(unknown.sample), as: UTF8.self)
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO unknownKeys (uid, bundle, count, sample) VALUES (?, ?, ?, ?)",
                        arguments: [Int64(unknown.uid), unknown.bundle, unknown.count, sample])
                }
                return true
            }
        }
    }

    /// Deletes the saved misses of one bundle, or of all. `resetMemory`
    /// runs on the writer, in the same transaction, so that a save is
    /// wholly before the reset (its rows deleted) or after it (its rows
    /// taken after the reset, or not written).
    package func deleteMisses(bundle: String?, resetMemory: @escaping @Sendable () -> Void) async throws {
        try await writing { writer in
            try await writer.write { db in
                resetMemory()
                if let bundle {
                    try db.execute(sql: "DELETE FROM miss WHERE bundle = ?", arguments: [bundle])
                    try db.execute(sql: "DELETE FROM unknownKeys WHERE bundle = ?", arguments: [bundle])
                } else {
                    try db.execute(sql: "DELETE FROM miss")
                    try db.execute(sql: "DELETE FROM unknownKeys")
                }
            }
        }
    }

    static func blob(_ hashes: [UInt64]) -> Data {
        var data = Data(capacity: hashes.count * 8)
        for hash in hashes { withUnsafeBytes(of: hash.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    static func hashes(_ data: Data) -> [UInt64] {
        stride(from: 0, to: data.count - data.count % 8, by: 8).map { offset in
            data[data.startIndex + offset..<data.startIndex + offset + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
    }
}
