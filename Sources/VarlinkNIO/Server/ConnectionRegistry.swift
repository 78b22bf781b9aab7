import Synchronization

/// The open connections, so that the server can count them and, when it
/// stops, ask each to finish.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        let uid: UInt32
        let shutdown: @Sendable () -> Void
    }

    private let entries = Mutex<[UInt64: Entry]>([:])
    private let stopping = Mutex(false)
    private let emptyWaiters = Mutex<[CheckedContinuation<Void, Never>]>([])

    func add(id: UInt64, uid: UInt32, shutdown: @escaping @Sendable () -> Void) {
        let alreadyStopping = stopping.withLock { $0 }
        entries.withLock { $0[id] = Entry(uid: uid, shutdown: shutdown) }
        if alreadyStopping { shutdown() }
    }

    func remove(id: UInt64) {
        let nowEmpty = entries.withLock { entries in
            entries.removeValue(forKey: id)
            return entries.isEmpty
        }
        if nowEmpty {
            for waiter in emptyWaiters.withLock({ waiters in defer { waiters = [] }; return waiters }) { waiter.resume() }
        }
    }

    /// Returns once no connection is open.
    func waitUntilEmpty() async {
        await withCheckedContinuation { continuation in
            let empty = entries.withLock { entries in
                if entries.isEmpty { return true }
                emptyWaiters.withLock { $0.append(continuation) }
                return false
            }
            if empty { continuation.resume() }
        }
    }

    /// How many connections are open.
    var count: Int { entries.withLock { $0.count } }

    /// Asks every connection to finish and close.
    func shutdownAll() {
        stopping.withLock { $0 = true }
        let all = entries.withLock { Array($0.values) }
        for entry in all { entry.shutdown() }
    }
}
