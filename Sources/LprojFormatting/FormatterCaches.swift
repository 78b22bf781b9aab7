internal import Synchronization

/// Opening an ICU formatter costs far more than using it (a date format
/// loads its calendar and symbols; a pattern generator, a locale's whole
/// pattern data: together some 250 µs, against a few µs to format), so the
/// formatters are kept and reused.

/// Idle formatters that only one thread may use at a time, by key: a call
/// takes one (or opens one), uses it, and gives it back.
final class HandlePool<Key: Hashable & Sendable, Handle: Sendable>: Sendable {
    private let idle = Mutex<[Key: [Handle]]>([:])
    private let keyCapacity: Int
    private let perKey: Int

    /// - Parameters:
    ///   - keyCapacity: distinct keys kept before the pool starts again empty.
    ///   - perKey: idle formatters kept per key (about the threads that
    ///     format at once).
    init(keyCapacity: Int, perKey: Int) {
        self.keyCapacity = keyCapacity
        self.perKey = perKey
    }

    func with<T>(_ key: Key, open: () -> Handle?, _ body: (Handle) -> T) -> T? {
        guard let handle = idle.withLock({ $0[key]?.popLast() }) ?? open() else { return nil }
        defer {
            idle.withLock { idle in
                if idle[key] == nil && idle.count >= keyCapacity { idle.removeAll(keepingCapacity: true) }
                if idle[key, default: []].count < perKey { idle[key, default: []].append(handle) }
            }
        }
        return body(handle)
    }
}
