import Synchronization

/// Counts open connections, overall and per uid, and refuses those over
/// the limits (systemd's Varlink servers: 4096 overall, 1024 per uid).
final class ConnectionLimiter: Sendable {
    enum Refusal: Equatable {
        case total(maximum: Int)
        case perUID(maximum: Int)
    }

    private struct Counts {
        var total = 0
        var perUID: [UInt32: Int] = [:]
    }

    private let maximumTotal: Int
    private let maximumPerUID: Int
    private let counts = Mutex(Counts())

    init(maximumTotal: Int, maximumPerUID: Int) {
        self.maximumTotal = maximumTotal
        self.maximumPerUID = maximumPerUID
    }

    /// Takes a place for a connection of `uid`, or says why not.
    func admit(uid: UInt32) -> Refusal? {
        counts.withLock { counts in
            if counts.total >= maximumTotal { return .total(maximum: maximumTotal) }
            let current = counts.perUID[uid, default: 0]
            if current >= maximumPerUID { return .perUID(maximum: maximumPerUID) }
            counts.total += 1
            counts.perUID[uid] = current + 1
            return nil
        }
    }

    /// Gives back the place of a closed connection.
    func release(uid: UInt32) {
        counts.withLock { counts in
            counts.total -= 1
            let remaining = counts.perUID[uid, default: 1] - 1
            counts.perUID[uid] = remaining > 0 ? remaining : nil
        }
    }

    /// Open connections of one uid.
    func count(uid: UInt32) -> Int { counts.withLock { $0.perUID[uid] ?? 0 } }
}
