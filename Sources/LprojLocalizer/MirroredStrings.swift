internal import LprojTables
internal import Synchronization

/// A table's plain values as the mirror keeps them: laid out for the one
/// thing the mirror does most, a hit.
///
/// Each entry lives whole in one arena, 8-byte aligned: a header (the
/// key's and the value's lengths, and the value as a `String` once it is
/// made), then the key's and the value's UTF-8 bytes. An open-addressing
/// index maps a key's hash to its entry, keeping 32 more bits of the hash
/// beside the entry's place, so a probe past another key's slot never
/// reads that key.
///
/// A hit therefore reads one index slot, then one entry (header and key
/// side by side), then the value's storage as it is counted: three places
/// in memory, where an engine ``StringTable`` plus a slot array of made
/// values read six, and in a mirror of thousands of keys each place is a
/// cache miss. A value's `String` is made on its first lookup and kept, so
/// a hit costs a reference count rather than an allocation and a copy; the
/// arena's header keeps room for it (16 bytes an entry) rather than an
/// object per value.
///
/// Any thread may look up. A value is kept by the thread that claims its
/// entry (one compare-exchange), which then publishes it; a thread that
/// finds the entry claimed but not yet published uses its own copy.
final class MirroredStrings: @unchecked Sendable {
    /// Where an entry's parts are, from its start.
    private enum Layout {
        static let state = 0
        static let keyLength = 4
        static let valueLength = 8
        static let value = 16
        static let key = 32

        /// An entry's size, a multiple of 8 so the next one stays aligned.
        static func size(keyLength: Int, valueLength: Int) -> Int {
            (key + keyLength + valueLength + 7) & ~7
        }
    }

    /// What an entry's value slot holds.
    private enum State {
        static let empty: UInt32 = 0
        /// A thread is writing the value.
        static let claimed: UInt32 = 1
        /// The value is there, to be read by anyone.
        static let made: UInt32 = 2
    }

    /// The index: 0 for an empty slot, else the hash's high 32 bits and the
    /// entry's offset in the arena in 8-byte words, plus one.
    private let slots: UnsafeMutableBufferPointer<UInt64>
    private let arena: UnsafeMutableRawPointer
    private let arenaBytes: Int
    /// The number of keys.
    let count: Int

    /// A table of `entries`, whose keys are distinct (a dictionary's).
    init(_ entries: [String: String]) {
        var arenaBytes = 0
        for (key, value) in entries { arenaBytes += Layout.size(keyLength: key.utf8.count, valueLength: value.utf8.count) }
        precondition(arenaBytes / 8 < Int(UInt32.max), "a mirrored table holds at most 32 GiB")
        // A power of two at most 7/8 full: a probe past a neighbour compares
        // only the hash bits kept in the slot, so a fuller index costs little.
        var capacity = 8
        while capacity - capacity / 8 < entries.count { capacity *= 2 }
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0)
        arena = .allocate(byteCount: max(arenaBytes, 8), alignment: 8)
        self.arenaBytes = arenaBytes
        count = entries.count

        let mask = capacity - 1
        var offset = 0
        for (key, value) in entries {
            var key = key, value = value
            let entry = arena + offset
            (entry + Layout.state).bindMemory(to: Atomic<UInt32>.self, capacity: 1).initialize(to: Atomic(State.empty))
            // Bound, not initialized: a value is written on its first lookup.
            (entry + Layout.value).bindMemory(to: String.self, capacity: 1)
            key.withUTF8 { key in
                value.withUTF8 { value in
                    entry.storeBytes(of: UInt32(key.count), toByteOffset: Layout.keyLength, as: UInt32.self)
                    entry.storeBytes(of: UInt32(value.count), toByteOffset: Layout.valueLength, as: UInt32.self)
                    if let base = key.baseAddress { (entry + Layout.key).copyMemory(from: base, byteCount: key.count) }
                    if let base = value.baseAddress { (entry + Layout.key + key.count).copyMemory(from: base, byteCount: value.count) }
                    let hash = byteHash(UnsafeRawBufferPointer(key))
                    var slot = Int(truncatingIfNeeded: hash) & mask
                    while slots[slot] != 0 { slot = (slot &+ 1) & mask }
                    slots[slot] = (hash & Self.hashBits) | UInt64(offset / 8 + 1)
                    offset += Layout.size(keyLength: key.count, valueLength: value.count)
                }
            }
        }
    }

    deinit {
        var offset = 0
        while offset < arenaBytes {
            let entry = arena + offset
            if state(entry).pointee.load(ordering: .acquiring) == State.made { valueSlot(entry).deinitialize(count: 1) }
            offset += Layout.size(keyLength: Self.keyLength(entry), valueLength: Self.valueLength(entry))
        }
        slots.deallocate()
        arena.deallocate()
    }

    /// The value for `key`, or nil when the table has none.
    @inline(__always)
    func value(forKey key: String) -> String? {
        var key = key
        return key.withUTF8 { key in entry(forKey: UnsafeRawBufferPointer(key)).map(value(of:)) }
    }

    /// Whether the table has `key`.
    func contains(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { entry(forKey: UnsafeRawBufferPointer($0)) != nil }
    }

    // MARK: Finding an entry

    private static let hashBits: UInt64 = 0xFFFF_FFFF_0000_0000

    @inline(__always)
    private func entry(forKey key: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer? {
        let hash = byteHash(key)
        let bits = hash & Self.hashBits
        let mask = slots.count &- 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let word = slots[slot]
            if word == 0 { return nil }
            if word & Self.hashBits == bits {
                let entry = arena + Int(truncatingIfNeeded: (word & 0xFFFF_FFFF) &- 1) &* 8
                if Self.keyLength(entry) == key.count
                    && (key.count == 0 || memoryEqual(entry + Layout.key, key.baseAddress!, key.count))
                {
                    return entry
                }
            }
            slot = (slot &+ 1) & mask
        }
    }

    // MARK: Reading an entry

    @inline(__always)
    private static func keyLength(_ entry: UnsafeMutableRawPointer) -> Int {
        Int(entry.load(fromByteOffset: Layout.keyLength, as: UInt32.self))
    }

    @inline(__always)
    private static func valueLength(_ entry: UnsafeMutableRawPointer) -> Int {
        Int(entry.load(fromByteOffset: Layout.valueLength, as: UInt32.self))
    }

    @inline(__always)
    private func state(_ entry: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Atomic<UInt32>> {
        (entry + Layout.state).assumingMemoryBound(to: Atomic<UInt32>.self)
    }

    @inline(__always)
    private func valueSlot(_ entry: UnsafeMutableRawPointer) -> UnsafeMutablePointer<String> {
        (entry + Layout.value).assumingMemoryBound(to: String.self)
    }

    private static func makeValue(_ entry: UnsafeMutableRawPointer) -> String {
        String(
            decoding: UnsafeRawBufferPointer(start: entry + Layout.key + keyLength(entry), count: valueLength(entry)), as: UTF8.self)
    }

    @inline(__always)
    private func value(of entry: UnsafeMutableRawPointer) -> String {
        // Acquiring: the value written before `made` was stored is seen whole.
        if state(entry).pointee.load(ordering: .acquiring) == State.made { return valueSlot(entry).pointee }
        return keep(Self.makeValue(entry), in: entry)
    }

    private func keep(_ value: String, in entry: UnsafeMutableRawPointer) -> String {
        let state = state(entry)
        guard state.pointee.compareExchange(expected: State.empty, desired: State.claimed, ordering: .acquiring).exchanged else {
            return value
        }
        valueSlot(entry).initialize(to: value)
        state.pointee.store(State.made, ordering: .releasing)
        return value
    }
}
