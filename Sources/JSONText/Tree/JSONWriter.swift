/// Writes JSON as compact UTF-8, appending to a byte array.
///
/// The counterpart of ``JSONParser`` on the reply path: no intermediate
/// strings, and the common case of a string with nothing to escape is a
/// single append.
public struct JSONWriter {
    /// The bytes written so far.
    public var bytes: [UInt8]

    /// A writer with some room reserved.
    public init(reservingCapacity capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Writes any value.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number): write(number)
        case .string(let string): write(string)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            write(object)
        }
    }

    /// Writes an object.
    public mutating func write(_ object: JSONObject) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in object.members {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            write(key)
            bytes.append(UInt8(ascii: ":"))
            write(value)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes a number; JSON has no NaN or infinity, so those become null.
    public mutating func write(_ number: JSONNumber) {
        if let integer = number.integer {
            append(String(integer))
        } else if number.double.isFinite {
            if number.double == number.double.rounded(), abs(number.double) < 1e15 {
                append(String(Int64(number.double)))
            } else {
                append(String(number.double))
            }
        } else {
            append("null")
        }
    }

    /// Writes a string, escaping what JSON requires.
    public mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { writeString(UnsafeRawBufferPointer($0)) }
    }

    /// Writes UTF-8 bytes as a JSON string (the bytes must be valid UTF-8).
    public mutating func writeString(_ utf8: UnsafeRawBufferPointer) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[runStart..<index])) }
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                append("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
            runStart = index + 1
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[runStart...])) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends raw bytes that are already JSON.
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends raw text that is already JSON.
    public mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// A value as compact JSON bytes.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }
}
