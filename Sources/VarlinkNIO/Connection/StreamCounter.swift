import Synchronization

/// Open streams per uid, so that one user cannot hold more subscriptions
/// than the limit whatever the number of its connections.
final class StreamCounter: Sendable {
    private let counts = Mutex<[UInt32: Int]>([:])

    /// Takes a place for a stream of `uid`; false at the limit.
    func open(uid: UInt32, maximum: Int) -> Bool {
        counts.withLock { counts in
            let current = counts[uid, default: 0]
            guard current < maximum else { return false }
            counts[uid] = current + 1
            return true
        }
    }

    /// Gives back a stream's place.
    func close(uid: UInt32) {
        counts.withLock { counts in
            let remaining = counts[uid, default: 1] - 1
            counts[uid] = remaining > 0 ? remaining : nil
        }
    }

}
