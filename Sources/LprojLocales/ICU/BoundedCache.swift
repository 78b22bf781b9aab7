internal import Synchronization

/// A bounded map of immutable values (ICU's answers, patterns, thread-safe
/// formatters). When full it starts again empty: the working set of a daemon is small
/// (the locales and styles its apps use), and a flood of distinct requests
/// must not grow it without bound.
package final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries = Mutex<[Key: Value]>([:])
    private let capacity: Int

    package init(capacity: Int) {
        self.capacity = capacity
    }

    package func value(_ key: Key, make: () -> Value?) -> Value? {
        if let cached = entries.withLock({ $0[key] }) { return cached }
        guard let made = make() else { return nil }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = made
        }
        return made
    }

    /// The value for `key`, made by `make` (which always gives one) the first time.
    package func value(forKey key: Key, making make: () -> Value) -> Value {
        // `make` gives a value, so one is always there.
        value(key) { Optional(make()) }!
    }
}
