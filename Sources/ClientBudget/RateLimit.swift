internal import Synchronization

/// A token bucket per uid.
package typealias PerUIDRateLimit = RateLimit<UInt32>

/// A token bucket per key (a uid, a bundle): at most `burst` events at
/// once, refilled at `perSecond`. For what a client, or whoever writes a
/// bundle's files, can make lprojd do as often as it likes but must not
/// make it do without bound, such as writing a log line.
///
/// Keys whose bucket is full again are forgotten, and the table is capped,
/// so its size follows the keys active in the last few seconds.
package final class RateLimit<Key: Hashable & Sendable>: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
        /// Events refused since the last one allowed.
        var suppressed: Int
    }

    private let burst: Double
    private let perSecond: Double
    private let buckets = Mutex<[Key: Bucket]>([:])
    private static var maximumUIDs: Int { 4096 }

    package init(burst: Int, perSecond: Double) {
        self.burst = Double(burst)
        self.perSecond = perSecond
    }

    /// Whether the key may have one more event now; if so, also how many
    /// were refused since its last allowed one (to say so once).
    package func allow(_ uid: Key, now: ContinuousClock.Instant = .now) -> (allowed: Bool, suppressed: Int) {
        buckets.withLock { buckets in
            var bucket = buckets[uid] ?? Bucket(tokens: burst, updated: now, suppressed: 0)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(burst, bucket.tokens + seconds * perSecond)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                bucket.suppressed += 1
                buckets[uid] = bucket
                return (false, 0)
            }
            bucket.tokens -= 1
            let suppressed = bucket.suppressed
            bucket.suppressed = 0
            if buckets.count >= Self.maximumUIDs, buckets[uid] == nil {
                // Forget the uids whose buckets have refilled; if none has,
                // this uid goes unlimited for now rather than growing the table.
                buckets = buckets.filter { $0.value.tokens + seconds * perSecond < burst }
                guard buckets.count < Self.maximumUIDs else { return (true, suppressed) }
            }
            buckets[uid] = bucket
            return (true, suppressed)
        }
    }
}
