internal import Foundation
package import LprojStore
internal import Synchronization

/// The lookups that did not find their key in the requested locale's own
/// chain, counted per user, bundle, locale, table and key: what
/// translators would add next, by how often users met it.
///
/// Only keys some table of the bundle has are recorded by name (the
/// service checks that), so what a client sends becomes a record only when
/// it names one of the bundle's own keys; other keys are counted per
/// bundle, with a sample of at most ``sampleSize`` of them, each cut to
/// ``sampleKeyBytes`` bytes.
///
/// Bounded: each record is charged what it holds (its text, its clients,
/// the dictionary's share), at most ``Limits/bytesPerUID`` a user and
/// ``Limits/totalBytes`` in all. A miss that does not fit is counted in
/// ``dropped`` and not recorded; records that exist go on counting.
/// Recording is one lock and one dictionary update, off the common path:
/// a lookup that found its key in its own chain records nothing.
package final class MissLedger: Sendable {
    package struct Limits: Sendable {
        package var bytesPerUID = 2 << 20
        package var totalBytes = 8 << 20
        package init() {}
    }

    /// Distinct clients are counted up to this many a record.
    package static let maximumClients = 32
    package static let sampleSize = 16
    /// Uids whose dropped misses are counted apart.
    static let maximumDroppedUIDs = 4096
    package static let sampleKeyBytes = 128

    struct Key: Hashable {
        let uid: UInt32
        let bundle: String
        let locale: String
        let table: String
        let key: String

        var bytes: Int { bundle.utf8.count + locale.utf8.count + table.utf8.count + key.utf8.count }
    }

    struct UnknownKey: Hashable {
        let uid: UInt32
        let bundle: String
    }

    /// What is counted for one key; its identity is the dictionary's key.
    struct Record {
        var count: Int
        var clientHashes: [UInt64]
        var firstSeen: Double
        var lastSeen: Double
        /// Changed since last taken for saving.
        var dirty = true
    }

    struct State {
        var records: [Key: Record] = [:]
        var unknown: [UnknownKey: UnknownKeysRow] = [:]
        var bytesByUID: [UInt32: Int] = [:]
        var totalBytes = 0
        var dropped = 0
        /// Dropped per uid (at most ``maximumDroppedUIDs`` uids; the total counts them all).
        var droppedByUID: [UInt32: Int] = [:]
        var dirtyUnknown: Set<UnknownKey> = []
        /// Increases with each reset: changes taken before one are not saved.
        var epoch = 0
    }

    let limits: Limits
    let now: @Sendable () -> Double
    let state = Mutex(State())

    /// A ledger; `now` gives the time in seconds since 1970 (the wall
    /// clock by default: first and last seen are dates people read).
    package init(limits: Limits = Limits(), now: @escaping @Sendable () -> Double = MissLedger.wallClock) {
        self.limits = limits
        self.now = now
    }

    /// Seconds since 1970, now.
    package static let wallClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }

    /// What a record costs: its text, its clients' hashes, and about what
    /// the dictionaries keep beside it.
    static func cost(_ key: Key) -> Int { 256 + maximumClients * 8 + key.bytes }
    static func cost(_ key: UnknownKey) -> Int { 256 + key.bundle.utf8.count + sampleSize * (sampleKeyBytes + 16) }

    /// A lookup missed a key of the bundle.
    package func record(uid: UInt32, client: String?, bundle: String, locale: String, table: String, key: String) {
        let recordKey = Key(uid: uid, bundle: bundle, locale: locale, table: table, key: key)
        let client = Self.clientHash(uid: uid, client: client)
        let time = now()
        state.withLock { state in
            // One hash of the key: the record is changed in place.
            if let index = state.records.index(forKey: recordKey) {
                state.records.values[index].count += 1
                state.records.values[index].lastSeen = max(state.records.values[index].lastSeen, time)
                state.records.values[index].dirty = true
                if state.records.values[index].clientHashes.count < Self.maximumClients,
                    !state.records.values[index].clientHashes.contains(client)
                {
                    state.records.values[index].clientHashes.append(client)
                }
            } else {
                guard Self.charge(Self.cost(recordKey), uid: uid, in: &state, limits: limits) else { return }
                state.records[recordKey] = Record(count: 1, clientHashes: [client], firstSeen: time, lastSeen: time)
            }
        }
    }

    /// A lookup asked for a key no table of the bundle has.
    package func recordUnknown(uid: UInt32, bundle: String, key: String) {
        let recordKey = UnknownKey(uid: uid, bundle: bundle)
        state.withLock { state in
            if state.unknown[recordKey] == nil {
                guard Self.charge(Self.cost(recordKey), uid: uid, in: &state, limits: limits) else { return }
                state.unknown[recordKey] = UnknownKeysRow(uid: uid, bundle: bundle, count: 0, sample: [])
            }
            state.unknown[recordKey]!.count += 1
            if state.unknown[recordKey]!.sample.count < Self.sampleSize {
                let clipped = Self.clip(key)
                if !state.unknown[recordKey]!.sample.contains(clipped) { state.unknown[recordKey]!.sample.append(clipped) }
            }
            state.dirtyUnknown.insert(recordKey)
        }
    }

    private static func charge(_ bytes: Int, uid: UInt32, in state: inout State, limits: Limits) -> Bool {
        let held = state.bytesByUID[uid, default: 0]
        guard held + bytes <= limits.bytesPerUID, state.totalBytes + bytes <= limits.totalBytes else {
            state.dropped += 1
            if state.droppedByUID[uid] != nil || state.droppedByUID.count < Self.maximumDroppedUIDs {
                state.droppedByUID[uid, default: 0] += 1
            }
            return false
        }
        state.bytesByUID[uid] = held + bytes
        state.totalBytes += bytes
        return true
    }

    /// The rows changed since the last call, to be saved, and the epoch
    /// they belong to.
    package func takeChanges(limit: Int = .max) -> (misses: [MissRow], unknownKeys: [UnknownKeysRow], epoch: Int) {
        state.withLock { state in
            var misses: [MissRow] = []
            for index in state.records.indices where state.records.values[index].dirty {
                guard misses.count < limit else { break }
                state.records.values[index].dirty = false
                misses.append(Self.row(state.records.keys[index], state.records.values[index]))
            }
            let unknown = state.dirtyUnknown.compactMap { state.unknown[$0] }
            state.dirtyUnknown.removeAll()
            return (misses, unknown, state.epoch)
        }
    }

    /// The current epoch: a save of older changes must not be written.
    package var epoch: Int { state.withLock { $0.epoch } }

    /// Rows a save did not write, to be tried again.
    package func markChanged(_ misses: [MissRow], unknownKeys: [UnknownKeysRow]) {
        state.withLock { state in
            for row in misses {
                state.records[Key(uid: row.uid, bundle: row.bundle, locale: row.locale, table: row.table, key: row.key)]?.dirty = true
            }
            for row in unknownKeys { state.dirtyUnknown.insert(UnknownKey(uid: row.uid, bundle: row.bundle)) }
        }
    }

    /// Takes in the rows saved before a restart (as far as the limits
    /// allow), added to what was counted since: a record counted meanwhile
    /// sums both, and is saved again.
    package func restore(_ misses: [MissRow], unknownKeys: [UnknownKeysRow]) {
        state.withLock { state in
            for row in misses.sorted(by: { $0.lastSeen > $1.lastSeen }) {
                let key = Key(uid: row.uid, bundle: row.bundle, locale: row.locale, table: row.table, key: row.key)
                if let index = state.records.index(forKey: key) {
                    var record = state.records.values[index]
                    record.count += row.count
                    record.firstSeen = min(record.firstSeen, row.firstSeen)
                    record.lastSeen = max(record.lastSeen, row.lastSeen)
                    for client in row.clientHashes
                    where record.clientHashes.count < Self.maximumClients && !record.clientHashes.contains(client) {
                        record.clientHashes.append(client)
                    }
                    record.dirty = true
                    state.records.values[index] = record
                    continue
                }
                guard Self.charge(Self.cost(key), uid: row.uid, in: &state, limits: limits) else { continue }
                state.records[key] = Record(
                    count: row.count, clientHashes: Array(row.clientHashes.prefix(Self.maximumClients)), firstSeen: row.firstSeen,
                    lastSeen: row.lastSeen, dirty: false)
            }
            for row in unknownKeys {
                let key = UnknownKey(uid: row.uid, bundle: row.bundle)
                if var current = state.unknown[key] {
                    current.count += row.count
                    for sample in row.sample.map(Self.clip) where current.sample.count < Self.sampleSize && !current.sample.contains(sample)
                    {
                        current.sample.append(sample)
                    }
                    state.unknown[key] = current
                    state.dirtyUnknown.insert(key)
                    continue
                }
                guard Self.charge(Self.cost(key), uid: row.uid, in: &state, limits: limits) else { continue }
                var row = row
                row.sample = Array(row.sample.prefix(Self.sampleSize).map(Self.clip))
                state.unknown[key] = row
            }
        }
    }

    /// Forgets the records of one bundle, or of all; returns how many.
    package func reset(bundle: String?) -> Int {
        state.withLock { state in
            var removed = 0
            for (key, _) in state.records where bundle == nil || key.bundle == bundle {
                state.records[key] = nil
                state.bytesByUID[key.uid, default: 0] -= Self.cost(key)
                state.totalBytes -= Self.cost(key)
                removed += 1
            }
            for (key, _) in state.unknown where bundle == nil || key.bundle == bundle {
                state.unknown[key] = nil
                state.dirtyUnknown.remove(key)
                state.bytesByUID[key.uid, default: 0] -= Self.cost(key)
                state.totalBytes -= Self.cost(key)
            }
            if bundle == nil {
                state.dropped = 0
                state.droppedByUID = [:]
            }
            state.epoch += 1
            return removed
        }
    }

    /// A miss as reported: summed over the users asked about.
    package struct Summary: Sendable, Hashable {
        package let bundle: String
        package let locale: String
        package let table: String
        package let key: String
        package let count: Int
        package let clients: Int
        package let firstSeen: Double
        package let lastSeen: Double
    }

    /// The misses of `uid` (nil: everyone's, summed over users), filtered,
    /// most frequent first, at most `limit`.
    package func misses(uid: UInt32?, bundle: String?, locale: String?, since: Double?, limit: Int) -> (
        misses: [Summary], unknownKeys: [UnknownKeysRow], dropped: Int
    ) {
        let (records, unknown, dropped) = state.withLock { state in
            (
                state.records.filter { key, _ in
                    (uid == nil || key.uid == uid) && (bundle == nil || key.bundle == bundle) && (locale == nil || key.locale == locale)
                }.map { Self.row($0.key, $0.value) },
                state.unknown.values.filter { (uid == nil || $0.uid == uid) && (bundle == nil || $0.bundle == bundle) },
                uid.map { state.droppedByUID[$0] ?? 0 } ?? state.dropped
            )
        }
        struct Group: Hashable {
            let bundle: String, locale: String, table: String, key: String
        }
        var merged: [Group: (count: Int, clients: Set<UInt64>, first: Double, last: Double)] = [:]
        for row in records {
            let group = Group(bundle: row.bundle, locale: row.locale, table: row.table, key: row.key)
            var entry = merged[group] ?? (0, [], .infinity, -.infinity)
            entry.count += row.count
            entry.clients.formUnion(row.clientHashes)
            entry.first = min(entry.first, row.firstSeen)
            entry.last = max(entry.last, row.lastSeen)
            merged[group] = entry
        }
        let summaries = merged.compactMap { group, entry -> Summary? in
            if let since, entry.last < since { return nil }
            return Summary(
                bundle: group.bundle, locale: group.locale, table: group.table, key: group.key, count: entry.count,
                clients: min(entry.clients.count, Self.maximumClients), firstSeen: entry.first, lastSeen: entry.last)
        }.sorted { lhs, rhs in
            if lhs.count != rhs.count { return lhs.count > rhs.count }
            return (lhs.bundle, lhs.locale, lhs.table, lhs.key) < (rhs.bundle, rhs.locale, rhs.table, rhs.key)
        }
        var unknownByBundle: [String: UnknownKeysRow] = [:]
        for row in unknown {
            var entry = unknownByBundle[row.bundle] ?? UnknownKeysRow(uid: uid ?? 0, bundle: row.bundle, count: 0, sample: [])
            entry.count += row.count
            for key in row.sample where entry.sample.count < Self.sampleSize && !entry.sample.contains(key) { entry.sample.append(key) }
            unknownByBundle[row.bundle] = entry
        }
        return (Array(summaries.prefix(limit)), unknownByBundle.values.sorted { $0.bundle < $1.bundle }, dropped)
    }

    static func row(_ key: Key, _ record: Record) -> MissRow {
        MissRow(
            uid: key.uid, bundle: key.bundle, locale: key.locale, table: key.table, key: key.key, count: record.count,
            clientHashes: record.clientHashes, firstSeen: record.firstSeen, lastSeen: record.lastSeen)
    }

    /// A client's identity as a stable 64-bit FNV-1a hash (of its user and
    /// id), so that distinct clients are counted, and saved, without
    /// keeping what they sent.
    static func clientHash(uid: UInt32, client: String?) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        withUnsafeBytes(of: uid.littleEndian) { for byte in $0 { mix(byte) } }
        for byte in (client ?? "").utf8 { mix(byte) }
        return hash
    }

    /// A key cut to at most ``sampleKeyBytes`` bytes, on a character
    /// boundary, in one pass over what is kept.
    static func clip(_ key: String) -> String {
        guard key.utf8.count > sampleKeyBytes else { return key }
        var end = key.startIndex, bytes = 0
        for index in key.indices {
            let next = key.index(after: index)
            bytes += key.utf8.distance(from: index, to: next)
            if bytes > sampleKeyBytes { break }
            end = next
        }
        return String(key[..<end])
    }
}
