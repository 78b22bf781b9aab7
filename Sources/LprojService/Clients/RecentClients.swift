package import ClientBudget
internal import Glibc
package import LprojLocales
internal import Synchronization

/// The client and bundle pairs each uid's calls named lately: what
/// `ListClients` calls "used recently", and the clients whose locale follows
/// the desktop's languages.
///
/// "Recently" is: among the last ``capacity`` distinct pairs (64 by default)
/// a uid's calls named since lprojd started, in `Lookup`, `GetTable`,
/// `GetSelection`, `SelectLocale`, `ResetSelection` or `Subscribe` with a
/// client id. The record lives in memory only: after a restart, apps name
/// their bundles again as they reconnect. Each pair remembers when it was
/// last named and the preferred languages its process last sent
/// (`GetSelection`; the first 16), so that a change of the desktop's
/// languages can choose anew with them.
///
/// Every entry is charged to its uid's saved-state budget
/// (``Resource/savedState``), beside its selections and preferences, and a
/// uid's record holds at most a quarter of that budget, so that what is
/// saved always has the rest. A new pair past the capacity, the quarter or
/// the budget replaces the uid's least recently used one; a pair that does
/// not fit even then is not recorded (nothing a client sees depends on it
/// but `ListClients` and the desktop's languages).
package final class RecentClients: Sendable {
    /// One pair, as last seen.
    package struct Entry: Sendable, Equatable {
        package let client: String
        package let bundle: String
        /// When a call last named it, in seconds since 1970 (to a few
        /// milliseconds).
        package var lastUsed: Double
        /// The preferred languages the client's process last sent, if it did.
        package var languages: [LocaleIdentifier]?
    }

    private struct Pair: Hashable {
        let client: String
        let bundle: String
    }

    /// A pair's entry, what it is charged, and its last use in the order of
    /// uses (clock readings may tie).
    private struct Slot {
        var entry: Entry
        var bytes: Int
        var use: UInt64

        mutating func touch(now: Double, use: UInt64) {
            entry.lastUsed = now
            self.use = use
        }
    }

    private struct Record {
        var slots: [Pair: Slot] = [:]
        var total = 0
        var tick: UInt64 = 0

        /// Marks a known pair used, with one lookup; false if it is not known.
        mutating func touch(_ pair: Pair, now: Double) -> Bool {
            tick &+= 1
            return slots[pair]?.touch(now: now, use: tick) != nil
        }
    }

    /// The most pairs kept per uid.
    package let capacity: Int
    /// The most bytes a uid's record holds: a quarter of its saved-state budget.
    private let share: Int
    private let book: BudgetBook
    private let records = Mutex<[UInt32: Record]>([:])

    /// A record of at most `capacity` pairs a uid, charged to `budget`.
    package init(capacity: Int = 64, budget: BudgetBook) {
        self.capacity = capacity
        self.book = budget
        self.share = (budget.limits.perUID[.savedState] ?? .max) / 4
    }

    /// What an entry is charged: its texts, and about what the dictionary
    /// keeps beside them.
    static func cost(client: String, bundle: String, languages: [LocaleIdentifier]?) -> Int {
        128 + client.utf8.count + bundle.utf8.count + (languages ?? []).reduce(0) { $0 + 32 + $1.tag.utf8.count }
    }

    /// The most preferred languages kept per pair: the first ones decide.
    package static let maximumLanguages = 16

    /// The wall clock to a few milliseconds, without a system call
    /// (`CLOCK_REALTIME_COARSE`): lookups call ``record(uid:client:bundle:languages:now:)``.
    package static func coarseNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Records that a call of `uid` named `client` and `bundle` (with the
    /// process's preferred languages, when the call sent them). Returns
    /// whether it is the first pair the uid has. A pair already recorded,
    /// named without languages (as lookups name it), costs a lock and one
    /// hashed update in place.
    @discardableResult
    package func record(
        uid: UInt32, client: String, bundle: String, languages: [LocaleIdentifier]? = nil, now: Double = RecentClients.coarseNow()
    ) -> Bool {
        let pair = Pair(client: client, bundle: bundle)
        return records.withLock { records in
            if languages == nil, records[uid]?.touch(pair, now: now) == true { return false }
            let first = records[uid] == nil
            let languages = languages.map { Array($0.prefix(Self.maximumLanguages)) }
            use(pair, uid: uid, languages: languages, now: now, in: &records[uid, default: Record()])
            if records[uid]?.slots.isEmpty == true { records[uid] = nil }
            return first
        }
    }

    private func use(_ pair: Pair, uid: UInt32, languages: [LocaleIdentifier]?, now: Double, in record: inout Record) {
        if record.touch(pair, now: now) {
            guard let languages, let slot = record.slots[pair], languages != slot.entry.languages else { return }
            let new = Self.cost(client: pair.client, bundle: pair.bundle, languages: languages)
            guard charge(new - slot.bytes, uid: uid, record: &record, keeping: pair) else { return }
            record.slots[pair]?.entry.languages = languages
            record.slots[pair]?.bytes = new
            return
        }
        if record.slots.count >= capacity { evictOldest(uid: uid, record: &record, keeping: nil) }
        let bytes = Self.cost(client: pair.client, bundle: pair.bundle, languages: languages)
        guard charge(bytes, uid: uid, record: &record, keeping: nil) else { return }
        record.tick &+= 1
        record.slots[pair] = Slot(
            entry: Entry(client: pair.client, bundle: pair.bundle, lastUsed: now, languages: languages), bytes: bytes, use: record.tick)
    }

    /// Charges `bytes` more (or releases less) to the uid, making room by
    /// forgetting its least recently used pairs (never `keeping`).
    private func charge(_ bytes: Int, uid: UInt32, record: inout Record, keeping: Pair?) -> Bool {
        if bytes <= 0 {
            book.release(-bytes, of: .savedState, from: uid)
            record.total += bytes
            return true
        }
        while record.total + bytes > share || book.charge(bytes, of: .savedState, to: uid) != nil {
            guard evictOldest(uid: uid, record: &record, keeping: keeping) else { return false }
        }
        record.total += bytes
        return true
    }

    @discardableResult
    private func evictOldest(uid: UInt32, record: inout Record, keeping: Pair?) -> Bool {
        guard let oldest = record.slots.filter({ $0.key != keeping }).min(by: { $0.value.use < $1.value.use })?.key,
            let slot = record.slots.removeValue(forKey: oldest)
        else { return false }
        record.total -= slot.bytes
        book.release(slot.bytes, of: .savedState, from: uid)
        return true
    }

    /// A uid's pairs, most recently used first.
    package func entries(uid: UInt32) -> [Entry] {
        records.withLock { $0[uid]?.slots.values.sorted { $0.use > $1.use }.map(\.entry) ?? [] }
    }

    /// One pair of a uid, if it is recorded.
    package func entry(uid: UInt32, client: String, bundle: String) -> Entry? {
        records.withLock { $0[uid]?.slots[Pair(client: client, bundle: bundle)]?.entry }
    }

    /// What a uid's record is charged, in all.
    package func heldBytes(uid: UInt32) -> Int {
        records.withLock { $0[uid]?.total ?? 0 }
    }
}
