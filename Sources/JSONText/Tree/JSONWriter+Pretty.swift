extension JSONWriter {
    /// How indented JSON is laid out beyond two spaces per level.
    public struct PrettyStyle: Sendable {
        /// Members sorted by their keys' code points, or kept in the
        /// object's own order.
        public var sortsKeys = true
        /// Between a key and its value: `" : "`, or `": "` as some tools write.
        public var colon = " : "
        /// An empty object or array written open, `{\n\n}`, as Foundation's
        /// pretty printer (and so Xcode) writes it, instead of `{}`.
        public var opensEmptyContainers = false

        public init(sortsKeys: Bool = true, colon: String = " : ", opensEmptyContainers: Bool = false) {
            self.sortsKeys = sortsKeys
            self.colon = colon
            self.opensEmptyContainers = opensEmptyContainers
        }
    }

    /// A value as indented JSON for people to read: two spaces per level,
    /// `"key" : value`, and by default each object's members sorted by
    /// their keys' code points (as `jq -S` and Python's `sort_keys` order
    /// them), so that the same value always prints the same.
    ///
    /// Foundation's `.sortedKeys` orders by ICU collation, one comparison
    /// at a time, and took seconds for a table of 100,000 keys; code-point
    /// order is a byte comparison.
    public static func encodePretty(_ value: JSONValue, style: PrettyStyle = PrettyStyle()) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 4096)
        writer.writePretty(value, indent: 0, style: style)
        return writer.bytes
    }

    private mutating func writePretty(_ value: JSONValue, indent: Int, style: PrettyStyle) {
        switch value {
        case .array(let items) where items.isEmpty && style.opensEmptyContainers:
            writeOpenEmpty(UInt8(ascii: "["), UInt8(ascii: "]"), indent: indent)
        case .object(let object) where object.isEmpty && style.opensEmptyContainers:
            writeOpenEmpty(UInt8(ascii: "{"), UInt8(ascii: "}"), indent: indent)
        case .array(let items) where !items.isEmpty:
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                bytes.append(contentsOf: index == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
                writeIndent(indent + 2)
                writePretty(item, indent: indent + 2, style: style)
            }
            bytes.append(0x0A)
            writeIndent(indent)
            bytes.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            let keys = object.keys
            let order = style.sortsKeys ? keys.indices.sorted { Self.codePointsPrecede(keys[$0], keys[$1]) } : Array(keys.indices)
            bytes.append(UInt8(ascii: "{"))
            for (written, position) in order.enumerated() {
                bytes.append(contentsOf: written == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
                writeIndent(indent + 2)
                write(keys[position])
                append(style.colon)
                writePretty(object.values[position], indent: indent + 2, style: style)
            }
            bytes.append(0x0A)
            writeIndent(indent)
            bytes.append(UInt8(ascii: "}"))
        default:
            write(value)
        }
    }

    private mutating func writeOpenEmpty(_ open: UInt8, _ close: UInt8, indent: Int) {
        bytes.append(contentsOf: [open, 0x0A, 0x0A])
        writeIndent(indent)
        bytes.append(close)
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
