import Synchronization
import Testing
@testable import LprojLocales

/// Shared caches, each uid within its share.
@Suite struct CacheSharesTests {
    /// One uid cycling through distinct keys displaces only its own
    /// entries; before, the cache started again empty when full, and
    /// another uid's entries went with it.
    @Test func aUIDCyclingThroughKeysKeepsToItsShare() {
        let cache = BoundedCache<String, Int>(capacity: 16)
        let made = Mutex(0)
        func value(_ key: String, for uid: UInt32) -> Int? {
            CacheOwner.$uid.withValue(uid) {
                cache.value(key) {
                    made.withLock { $0 += 1 }
                    return key.count
                }
            }
        }
        _ = value("kept", for: 2)
        _ = value("lprojd's", for: 3)
        for index in 0..<1_000 { _ = value("cycled.\(index)", for: 1) }
        let before = made.withLock { $0 }
        #expect(value("kept", for: 2) == 4)
        #expect(value("lprojd's", for: 3) == 8)
        // An entry is anyone's to use, whoever made it.
        #expect(value("cycled.999", for: 2) == 10)
        #expect(made.withLock { $0 } == before)
        #expect(cache.count <= 16)
    }

    @Test func aFullCacheGivesWayFromTheUIDHoldingMost() {
        var shares = CacheShares<Int>(capacity: 8, share: 4)
        for key in 0..<4 { #expect(shares.admit(key, owner: 1) == nil) }
        for key in 10..<12 { #expect(shares.admit(key, owner: 2) == nil) }
        for key in 20..<22 { #expect(shares.admit(key, owner: nil) == nil) }
        // Full: uid 3's first entry displaces the oldest of uid 1, which holds most.
        #expect(shares.admit(30, owner: 3) == 0)
        // Full again: uid 1 still holds most, and gives way to itself.
        #expect(shares.admit(4, owner: 1) == 1)
        #expect(shares.admit(4, owner: 2) == nil)  // already there: nothing moves
        #expect(shares.admit(5, owner: 1) == 2)
        #expect(shares.count == 8 && shares.held(by: 1) == 3 && shares.held(by: 2) == 2 && shares.held(by: nil) == 2)
        // At its share, a uid displaces its own oldest, full or not.
        var roomy = CacheShares<Int>(capacity: 100, share: 2)
        #expect(roomy.admit(1, owner: 7) == nil && roomy.admit(2, owner: 7) == nil)
        #expect(roomy.admit(3, owner: 7) == 1)
        #expect(roomy.admit(4, owner: 8) == nil && roomy.count == 3)
    }
}
