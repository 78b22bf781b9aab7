/// Whom the cache entries made now are made for: the uid whose call is
/// being answered (set by the interface around each call), or nobody
/// (lprojd's own work).
package enum CacheOwner {
    /// The uid, or nil for lprojd itself.
    @TaskLocal package static var uid: UInt32?
}

/// Which entries of a shared cache each uid made, so that a uid's flood of
/// distinct requests displaces only its own entries.
///
/// Each uid (and lprojd itself) may hold a ``share`` of the cache. A new
/// entry for a uid at its share replaces that uid's oldest one. When the
/// cache is full, the oldest entry of the uid holding the most goes: a
/// uid can never fill a shared cache for good, and never flushes the
/// entries of a uid holding fewer than it. An entry is used by everyone,
/// whoever made it. (A cache that started again empty when full let one
/// uid's cycling of templates and zones double another's `Format` time.)
package struct CacheShares<Key: Hashable> {
    /// Entries in all.
    package let capacity: Int
    /// Entries one owner may hold.
    package let share: Int
    private var owners: [Key: UInt32] = [:]
    /// Each owner's keys, oldest first.
    private var keys: [UInt32: [Key]] = [:]

    /// Shares of a cache of `capacity` entries: a quarter each, by default.
    package init(capacity: Int, share: Int? = nil) {
        self.capacity = max(1, capacity)
        self.share = max(1, min(self.capacity, share ?? self.capacity / 4))
    }

    /// lprojd's own entries are held by this owner.
    static var lprojd: UInt32 { .max }

    /// Entries held now.
    package var count: Int { owners.count }

    /// Records a new key for `owner` (nil: lprojd); returns the key to drop
    /// to make room for it, if any.
    package mutating func admit(_ key: Key, owner: UInt32?) -> Key? {
        let owner = owner ?? Self.lprojd
        guard owners[key] == nil else { return nil }
        var evicted: Key?
        if keys[owner, default: []].count >= share {
            evicted = removeOldest(of: owner)
        } else if owners.count >= capacity, let largest = keys.max(by: { $0.value.count < $1.value.count })?.key {
            evicted = removeOldest(of: largest)
        }
        owners[key] = owner
        keys[owner, default: []].append(key)
        return evicted
    }

    /// How many entries `owner` holds.
    package func held(by owner: UInt32?) -> Int { keys[owner ?? Self.lprojd]?.count ?? 0 }

    private mutating func removeOldest(of owner: UInt32) -> Key? {
        guard var owned = keys[owner], !owned.isEmpty else { return nil }
        let oldest = owned.removeFirst()
        keys[owner] = owned.isEmpty ? nil : owned
        owners[oldest] = nil
        return oldest
    }
}
