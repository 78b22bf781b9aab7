extension JSONWriter {
    /// A value as indented JSON for people to read: two spaces per level,
    /// `"key" : value`, and each object's members sorted by their keys'
    /// code points (as `jq -S` and Python's `sort_keys` order them), so
    /// that the same value always prints the same.
    ///
    /// Foundation's `.sortedKeys` orders by ICU collation, one comparison
    /// at a time, and took seconds for a table of 100,000 keys; code-point
    /// order is a byte comparison.
    public static func encodePretty(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 4096)
        writer.writePretty(value, indent: 0)
        return writer.bytes
    }

    private mutating func writePretty(_ value: JSONValue, indent: Int) {
        switch value {
        case .array(let items) where !items.isEmpty:
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                bytes.append(contentsOf: index == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
                writeIndent(indent + 2)
                writePretty(item, indent: indent + 2)
            }
            bytes.append(0x0A)
            writeIndent(indent)
            bytes.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            let keys = object.keys
            let order = keys.indices.sorted { Self.codePointsPrecede(keys[$0], keys[$1]) }
            bytes.append(UInt8(ascii: "{"))
            for (written, position) in order.enumerated() {
                bytes.append(contentsOf: written == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
                writeIndent(indent + 2)
                write(keys[position])
                append(" : ")
                writePretty(object.values[position], indent: indent + 2)
            }
            bytes.append(0x0A)
            writeIndent(indent)
            bytes.append(UInt8(ascii: "}"))
        default:
            write(value)
        }
    }

    private mutating func writeIndent(_ count: Int) {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }

    /// Whether `a` sorts before `b` by code points: for UTF-8, the order
    /// of their bytes.
    static func codePointsPrecede(_ a: String, _ b: String) -> Bool {
        let inPlace = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right in
                let common = min(left.count, right.count)
                var position = 0
                while position < common {
                    if left[position] != right[position] { return left[position] < right[position] }
                    position += 1
                }
                return left.count < right.count
            }
        }
        return (inPlace ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
