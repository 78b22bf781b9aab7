import Synchronization

/// The open connections, so that the server can count them and, when it
/// stops, ask each to finish.
///
/// One lock guards one state: whether the server is stopping, the
/// connections, and who waits for none to be left. So a connection that
/// registers while the server stops is either seen by the stop (and asked
/// to finish with the others) or sees the stop itself (and is asked at
/// once); it cannot fall between the two.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        let uid: UInt32
        let shutdown: @Sendable () -> Void
    }

    private struct State {
        var stopping = false
        var entries: [UInt64: Entry] = [:]
        var emptyWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Registers a connection; if the server is already stopping, asks it
    /// to finish at once.
    func add(id: UInt64, uid: UInt32, shutdown: @escaping @Sendable () -> Void) {
        let alreadyStopping = state.withLock { state in
            state.entries[id] = Entry(uid: uid, shutdown: shutdown)
            return state.stopping
        }
        if alreadyStopping { shutdown() }
    }

    func remove(id: UInt64) {
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.entries.removeValue(forKey: id)
            guard state.entries.isEmpty else { return [] }
            defer { state.emptyWaiters = [] }
            return state.emptyWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once no connection is open.
    func waitUntilEmpty() async {
        await withCheckedContinuation { continuation in
            let empty = state.withLock { state in
                if state.entries.isEmpty { return true }
                state.emptyWaiters.append(continuation)
                return false
            }
            if empty { continuation.resume() }
        }
    }

    /// How many connections are open.
    var count: Int { state.withLock { $0.entries.count } }

    /// Asks every connection, and every one registered from now on, to
    /// finish and close.
    func shutdownAll() {
        let all = state.withLock { state in
            state.stopping = true
            return Array(state.entries.values)
        }
        for entry in all { entry.shutdown() }
    }
}
