/// An immutable table of string keys to string values, stored compactly.
///
/// All keys and values live as UTF-8 in one byte arena; each entry is four
/// 32-bit offsets, and an open-addressing index maps key hashes to entries.
/// That keeps a loaded table close to the size of its file (a Swift
/// `[String: String]` costs three to four times more) and makes a lookup one
/// hash and, usually, one comparison.
///
/// Keys compare by their exact UTF-8 bytes, as Core Foundation compares
/// dictionary keys by UTF-16 code units: "é" and "e\u{301}" are two keys.
public struct StringTable: Sendable {
    let storage: Storage

    /// The empty table.
    public static let empty = StringTable(storage: Storage(bytes: [], records: [], slots: [0, 0]))

    init(storage: Storage) {
        self.storage = storage
    }

    /// Builds a table from a dictionary (for tests, added strings and plists).
    public init(_ dictionary: [String: String]) {
        var builder = StringTableBuilder(estimatedBytes: 0)
        for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
            builder.append(key: key, value: value)
        }
        self = builder.finish().table
    }

    /// Builds a table from entries whose keys are distinct, in the order
    /// given (a dictionary's, for a table that is only looked up in).
    public init(uniqueEntries entries: some Collection<(key: String, value: String)>) {
        var bytes = 0
        for (key, value) in entries { bytes += key.utf8.count + value.utf8.count }
        var builder = StringTableBuilder(estimatedBytes: bytes)
        for (key, value) in entries { builder.append(key: key, value: value) }
        self = builder.finish().table
    }

    /// The number of keys.
    public var count: Int { storage.records.count / 4 }

    /// The UTF-8 bytes of all its keys and values.
    public var byteCount: Int { storage.bytes.count }

    /// Whether the table has no keys.
    public var isEmpty: Bool { count == 0 }

    /// The value for `key`, or `nil` if the table has none.
    public func value(forKey key: String) -> String? {
        guard let index = entryIndex(forKey: key) else { return nil }
        return value(at: index)
    }

    /// Whether the table has a value for `key`.
    public func contains(_ key: String) -> Bool {
        entryIndex(forKey: key) != nil
    }

    /// The entry index for `key`, usable with ``key(at:)`` and ``value(at:)``.
    public func entryIndex(forKey key: String) -> Int? {
        var key = key
        return key.withUTF8 { entryIndex(forUTF8: UnsafeRawBufferPointer($0)) }
    }

    /// The entry index for a key given as UTF-8 bytes.
    public func entryIndex(forUTF8 key: UnsafeRawBufferPointer) -> Int? {
        storage.find(key)
    }

    /// The key of the entry at `index`.
    public func key(at index: Int) -> String {
        storage.string(start: storage.records[index &* 4], length: storage.records[index &* 4 &+ 1])
    }

    /// The value of the entry at `index`.
    public func value(at index: Int) -> String {
        storage.string(start: storage.records[index &* 4 &+ 2], length: storage.records[index &* 4 &+ 3])
    }

    /// Calls `body` with the UTF-8 bytes of the value at `index`, without
    /// creating a `String` (the Varlink encoder writes them straight out).
    public func withValueUTF8<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withBytes(start: storage.records[index &* 4 &+ 2], length: storage.records[index &* 4 &+ 3], body)
    }

    /// Calls `body` with the UTF-8 bytes of the key at `index`.
    public func withKeyUTF8<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withBytes(start: storage.records[index &* 4], length: storage.records[index &* 4 &+ 1], body)
    }

    /// All keys, in the order their winning definitions appear in the file.
    public var keys: [String] { (0..<count).map(key(at:)) }

    /// All entries as a dictionary (for tests and for dumping).
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        result.reserveCapacity(count)
        for index in 0..<count { result[key(at: index)] = value(at: index) }
        return result
    }

    /// Whether both tables have the same keys with the same values.
    public func hasSameEntries(as other: StringTable) -> Bool {
        guard count == other.count else { return false }
        if isIdentical(to: other) { return true }
        for index in 0..<count {
            let matches = withKeyUTF8(at: index) { key in
                other.entryIndex(forUTF8: key).map { found in
                    withValueUTF8(at: index) { value in other.withValueUTF8(at: found) { $0.elementsEqual(value) } }
                } ?? false
            }
            if !matches { return false }
        }
        return true
    }

    /// Whether both are the same loaded table (not merely equal content):
    /// how a reload tells the tables it kept from those it read again.
    public func isIdentical(to other: StringTable) -> Bool {
        storage === other.storage
    }

}

extension StringTable {
    /// The arrays behind a table. Immutable after construction, hence Sendable.
    final class Storage: Sendable {
        /// Keys and values, UTF-8.
        let bytes: [UInt8]
        /// Four per entry: key start, key length, value start, value length.
        let records: [UInt32]
        /// Open-addressing index: entry index + 1, or 0 for an empty slot.
        /// The count is a power of two and at most three quarters full.
        let slots: [UInt32]

        init(bytes: [UInt8], records: [UInt32], slots: [UInt32]) {
            self.bytes = bytes
            self.records = records
            self.slots = slots
        }

        func find(_ key: UnsafeRawBufferPointer) -> Int? {
            let mask = slots.count &- 1
            var slot = Int(truncatingIfNeeded: byteHash(key)) & mask
            return bytes.withUnsafeBytes { arena in
                records.withUnsafeBufferPointer { records in
                    slots.withUnsafeBufferPointer { slots in
                        while true {
                            let entry = slots[slot]
                            if entry == 0 { return nil }
                            let index = Int(entry &- 1)
                            let length = Int(records[index &* 4 &+ 1])
                            if length == key.count {
                                let start = Int(records[index &* 4])
                                if length == 0 || memoryEqual(arena.baseAddress! + start, key.baseAddress!, length) {
                                    return index
                                }
                            }
                            slot = (slot &+ 1) & mask
                        }
                    }
                }
            }
        }

        func string(start: UInt32, length: UInt32) -> String {
            withBytes(start: start, length: length) { String(decoding: $0, as: UTF8.self) }
        }

        func withBytes<R>(start: UInt32, length: UInt32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try bytes.withUnsafeBytes { arena in
                try body(UnsafeRawBufferPointer(rebasing: arena[Int(start)..<Int(start) + Int(length)]))
            }
        }
    }
}
