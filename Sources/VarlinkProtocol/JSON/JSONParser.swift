/// A strict JSON parser (RFC 8259) over UTF-8 bytes.
///
/// Written by hand because it sits on every call's path: Foundation's
/// decoders cost several microseconds a message, which would cap pipelined
/// lookups well below lprojd's target. It rejects invalid UTF-8, control
/// characters in strings, trailing garbage, duplicate keys and nesting
/// deeper than ``maximumDepth``; numbers keep how many fraction digits
/// they were written with.
public struct JSONParser {
    /// Why a text is not JSON, and where.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The byte offset where parsing stopped.
        public let offset: Int
        /// What was expected there.
        public let message: String
        /// The text holds more values than the parser was allowed.
        public var isOverValueLimit = false

        public var description: String { "invalid JSON at byte \(offset): \(message)" }
    }

    /// How deeply arrays and objects may nest.
    public static let maximumDepth = 64

    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    /// Values (of any kind, members' included) still allowed: what a text
    /// becomes in memory grows with its values, not its bytes.
    private var valuesLeft: Int
    private let maximumValues: Int

    /// Parses one JSON value filling all of `bytes` (whitespace aside), of
    /// at most `maximumValues` values in all.
    public static func parse(_ bytes: UnsafeRawBufferPointer, maximumValues: Int = .max) throws(Error) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maximumValues: maximumValues)
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    /// Parses JSON text given as bytes.
    public static func parse(_ bytes: [UInt8]) throws(Error) -> JSONValue {
        try bytes.withUnsafeBytes { buffer in Result { () throws(Error) in try parse(buffer) } }.get()
    }

    private init(bytes: UnsafeRawBufferPointer, maximumValues: Int) {
        self.bytes = bytes
        self.valuesLeft = maximumValues
        self.maximumValues = maximumValues
    }

    private func error(_ message: String) -> Error {
        Error(offset: position, message: message)
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(Error) -> JSONValue {
        valuesLeft -= 1
        guard valuesLeft >= 0 else {
            var error = error("more than \(maximumValues) values")
            error.isOverValueLimit = true
            throw error
        }
        skipWhitespace()
        guard position < bytes.count else { throw error("expected a value, found the end") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) deep") }
            return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) deep") }
            return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw error("expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(Error) {
        let length = literal.utf8CodeUnitCount
        guard position + length <= bytes.count else { throw error("expected \(literal)") }
        let matches = literal.withUTF8Buffer { expected in
            (0..<length).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        guard matches else { throw error("expected \(literal)") }
        position += length
    }

    private mutating func parseObject(depth: Int) throws(Error) -> JSONObject {
        position += 1
        var object = JSONObject()
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return object
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let keyOffset = position
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
            position += 1
            guard object.appendIfNew(key, try parseValue(depth: depth)) else {
                throw Error(offset: keyOffset, message: "the member \"\(key.prefix(64))\" appears twice")
            }
            skipWhitespace()
            guard position < bytes.count else { throw error("expected ',' or '}', found the end") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard bytes[position] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
            position += 1
            return object
        }
    }

    private mutating func parseArray(depth: Int) throws(Error) -> [JSONValue] {
        position += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return array
        }
        while true {
            array.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw error("expected ',' or ']', found the end") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard bytes[position] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
            position += 1
            return array
        }
    }

    private mutating func parseString() throws(Error) -> String {
        position += 1
        let start = position
        var ascii = true
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
                position += 1
                // ASCII is valid UTF-8 as it stands.
                return ascii ? String(decoding: slice, as: UTF8.self) : try validatedString(slice, at: start)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("a control character must be escaped in a string") }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        var output: [UInt8] = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try output.withUnsafeBytes { buffer in Result { () throws(Error) in try validatedString(buffer, at: start) } }.get()
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): output.append(0x22)
                case UInt8(ascii: "\\"): output.append(0x5C)
                case UInt8(ascii: "/"): output.append(0x2F)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = UInt32(try parseHex4())
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                        else {
                            throw error("an unpaired surrogate in a \\u escape")
                        }
                        position += 2
                        let low = UInt32(try parseHex4())
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("an unpaired surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("an unpaired surrogate in a \\u escape")
                    }
                    appendUTF8(scalar, to: &output)
                default:
                    throw error("an unknown escape")
                }
            default:
                if byte < 0x20 { throw error("a control character must be escaped in a string") }
                output.append(byte)
                position += 1
            }
        }
        throw Error(offset: start - 1, message: "a string that is never closed")
    }

    private func validatedString(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(Error) -> String {
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw Error(offset: offset, message: "a string that is not valid UTF-8")
        }
        return string
    }

    private mutating func parseHex4() throws(Error) -> UInt16 {
        guard position + 4 <= bytes.count else { throw error("expected four hex digits") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected four hex digits")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80: output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    private mutating func parseNumber() throws(Error) -> JSONNumber {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else {
            throw error("expected a digit")
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        }
        var isInteger = true
        var fractionDigits = 0
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            let fractionStart = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            guard position > fractionStart else { throw error("expected a digit after '.'") }
            fractionDigits = position - fractionStart
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            var negative = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                negative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            let exponentStart = position
            var exponent = 0
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                exponent = min(exponent * 10 + Int(bytes[position] - UInt8(ascii: "0")), 10_000)
                position += 1
            }
            guard position > exponentStart else { throw error("expected a digit in the exponent") }
            fractionDigits = max(0, fractionDigits + (negative ? exponent : -exponent))
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let integer = Int64(text) {
            return JSONNumber(double: Double(integer), integer: integer, fractionDigits: 0)
        }
        guard let double = Double(text), double.isFinite else { throw Error(offset: start, message: "a number out of range") }
        return JSONNumber(double: double, integer: nil, fractionDigits: fractionDigits)
    }
}
