internal import Synchronization

/// A bounded map of immutable values (ICU's answers, patterns, thread-safe
/// formatters), shared by every uid, each of which holds at most a share of
/// it (``CacheShares``): the working set of a daemon is small (the locales
/// and styles its apps use), and one uid's flood of distinct requests must
/// neither grow it without bound nor push out what others use.
package final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var entries: [Key: Value] = [:]
        var shares: CacheShares<Key>
    }

    private let state: Mutex<State>

    package init(capacity: Int) {
        state = Mutex(State(shares: CacheShares(capacity: capacity)))
    }

    /// The value for `key`, made by `make` if it is not cached; made for
    /// ``CacheOwner/uid``.
    package func value(_ key: Key, make: () -> Value?) -> Value? {
        if let cached = state.withLock({ $0.entries[key] }) { return cached }
        guard let made = make() else { return nil }
        let owner = CacheOwner.uid
        state.withLock { state in
            guard state.entries[key] == nil else { return }
            if let evicted = state.shares.admit(key, owner: owner) { state.entries[evicted] = nil }
            state.entries[key] = made
        }
        return made
    }

    /// The value for `key`, made by `make` (which always gives one) the first time.
    package func value(forKey key: Key, making make: () -> Value) -> Value {
        // `make` gives a value, so one is always there.
        value(key) { Optional(make()) }!
    }

    /// Entries cached now.
    package var count: Int { state.withLock { $0.entries.count } }
}
