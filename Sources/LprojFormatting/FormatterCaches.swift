internal import LprojLocales
internal import Synchronization

/// Opening an ICU formatter costs far more than using it (a date format
/// loads its calendar and symbols; a pattern generator, a locale's whole
/// pattern data: together some 250 µs, against a few µs to format), so the
/// formatters are kept and reused.

/// Idle formatters that only one thread may use at a time, by key: a call
/// takes one (or opens one), uses it, and gives it back. Each uid keeps at
/// most its share of the keys (``CacheShares``).
final class HandlePool<Key: Hashable & Sendable, Handle: Sendable>: Sendable {
    private struct State {
        var idle: [Key: [Handle]] = [:]
        var shares: CacheShares<Key>
    }

    private let state: Mutex<State>
    private let perKey: Int

    /// - Parameters:
    ///   - keyCapacity: distinct keys kept in all.
    ///   - perKey: idle formatters kept per key (about the threads that
    ///     format at once).
    init(keyCapacity: Int, perKey: Int) {
        self.state = Mutex(State(shares: CacheShares(capacity: keyCapacity)))
        self.perKey = perKey
    }

    func with<T>(_ key: Key, open: () -> Handle?, _ body: (Handle) -> T) -> T? {
        guard let handle = state.withLock({ $0.idle[key]?.popLast() }) ?? open() else { return nil }
        let owner = CacheOwner.uid
        defer {
            state.withLock { state in
                if state.idle[key] == nil, let evicted = state.shares.admit(key, owner: owner) { state.idle[evicted] = nil }
                if state.idle[key, default: []].count < perKey { state.idle[key, default: []].append(handle) }
            }
        }
        return body(handle)
    }
}
