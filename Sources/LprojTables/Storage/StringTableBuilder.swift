/// Accumulates entries for a ``StringTable``; the last definition of a key wins.
///
/// Parsers write key and value bytes straight into ``bytes`` and then record
/// where they are, so building a table allocates nothing per entry.
struct StringTableBuilder {
    /// A key defined more than once: the append ordinals of the definition
    /// that lost and of the one that replaced it.
    struct Duplicate {
        let replaced: Int
        let winner: Int
        /// Where the key's bytes are in the arena.
        let keyStart: Int
        let keyLength: Int
    }

    /// What ``finish(droppingWinners:)`` produced.
    struct Result {
        let table: StringTable
        let duplicates: [Duplicate]
        /// For each entry of the table, the ordinal it was appended with.
        let ordinals: [Int]
        /// The ordinals from `droppingWinners` that had won their key.
        let droppedWinners: Set<Int>
    }

    /// The arena that parsers append key and value bytes to.
    var bytes: [UInt8]
    private var records: [UInt32] = []

    /// Creates a builder that expects about `estimatedBytes` of keys and values.
    init(estimatedBytes: Int) {
        bytes = []
        bytes.reserveCapacity(estimatedBytes)
    }

    /// The number of entries appended so far, duplicates included.
    var appendedCount: Int { records.count / 4 }

    /// Records an entry whose bytes are already in ``bytes``.
    mutating func append(keyStart: Int, keyLength: Int, valueStart: Int, valueLength: Int) {
        records.append(UInt32(truncatingIfNeeded: keyStart))
        records.append(UInt32(truncatingIfNeeded: keyLength))
        records.append(UInt32(truncatingIfNeeded: valueStart))
        records.append(UInt32(truncatingIfNeeded: valueLength))
    }

    /// Appends a key and value given as strings.
    mutating func append(key: String, value: String) {
        let keyStart = bytes.count
        bytes.append(contentsOf: key.utf8)
        let valueStart = bytes.count
        bytes.append(contentsOf: value.utf8)
        append(keyStart: keyStart, keyLength: valueStart - keyStart, valueStart: valueStart, valueLength: bytes.count - valueStart)
    }

    /// Builds the table. Replaced definitions are dropped; so are keys whose
    /// winning definition is one of `droppingWinners` (placeholders for
    /// values that are not strings).
    consuming func finish(droppingWinners: Set<Int> = []) -> Result {
        let appended = records.count / 4
        var alive = [Bool](repeating: true, count: appended)
        var duplicates: [Duplicate] = []
        let records = self.records
        var slots = Self.index(records: records, bytes: bytes, count: appended) { replaced, winner in
            alive[replaced] = false
            duplicates.append(
                Duplicate(
                    replaced: replaced, winner: winner,
                    keyStart: Int(records[winner * 4]), keyLength: Int(records[winner * 4 + 1])))
        }
        var droppedWinners: Set<Int> = []
        for ordinal in droppingWinners where alive[ordinal] {
            alive[ordinal] = false
            droppedWinners.insert(ordinal)
        }
        var ordinals = Array(0..<appended)
        if !duplicates.isEmpty || !droppedWinners.isEmpty {
            var compacted: [UInt32] = []
            compacted.reserveCapacity(records.count)
            ordinals.removeAll(keepingCapacity: true)
            for ordinal in 0..<appended where alive[ordinal] {
                ordinals.append(ordinal)
                compacted.append(contentsOf: records[ordinal * 4..<ordinal * 4 + 4])
            }
            self.records = compacted
            slots = Self.index(records: compacted, bytes: bytes, count: ordinals.count) { _, _ in }
        }
        if bytes.capacity > bytes.count + bytes.count / 8 + 64 {
            bytes = Array(bytes)  // drop the growth slack: tables live long
        }
        let table = StringTable(storage: StringTable.Storage(bytes: bytes, records: self.records, slots: slots))
        return Result(table: table, duplicates: duplicates, ordinals: ordinals, droppedWinners: droppedWinners)
    }

    /// Builds the open-addressing index, reporting each key met again.
    private static func index(records: [UInt32], bytes: [UInt8], count: Int, replaced: (Int, Int) -> Void) -> [UInt32] {
        var capacity = 8
        while capacity * 3 < (count + 1) * 4 { capacity <<= 1 }
        let mask = capacity - 1
        var slots = [UInt32](repeating: 0, count: capacity)
        bytes.withUnsafeBytes { arena in
            records.withUnsafeBufferPointer { records in
                slots.withUnsafeMutableBufferPointer { slots in
                    for index in 0..<count {
                        let start = Int(records[index &* 4])
                        let length = Int(records[index &* 4 &+ 1])
                        let key = UnsafeRawBufferPointer(rebasing: arena[start..<start + length])
                        var slot = Int(truncatingIfNeeded: byteHash(key)) & mask
                        while true {
                            let entry = slots[slot]
                            if entry == 0 {
                                slots[slot] = UInt32(index + 1)
                                break
                            }
                            let other = Int(entry - 1)
                            if Int(records[other &* 4 &+ 1]) == length,
                                length == 0 || memoryEqual(arena.baseAddress! + Int(records[other &* 4]), key.baseAddress!, length)
                            {
                                replaced(other, index)
                                slots[slot] = UInt32(index + 1)
                                break
                            }
                            slot = (slot &+ 1) & mask
                        }
                    }
                }
            }
        }
        return slots
    }
}
