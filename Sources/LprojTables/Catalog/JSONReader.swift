/// A pull reader over a JSON document in UTF-8 (RFC 8259).
///
/// It builds no tree: the caller asks for the value it expects next
/// (`beginObject`, `nextKey`, `readString`, ...) and skips what it does not
/// know with ``skipValue()``. That is what makes a String Catalog load
/// several times faster than `JSONSerialization`, which must box every value
/// of the document first. Syntax errors throw ``JSONSyntaxError`` with the
/// offset where reading stopped; the caller decides what a value of the
/// wrong type means.
///
/// Lines and columns are tracked as the reader goes: JSON allows line
/// breaks only between tokens, so ``location`` costs a few steps from the
/// last position asked for, never a rescan from the start.
struct JSONReader: ~Copyable {
    /// The kinds of JSON value.
    enum Kind: String {
        case object, array, string, number, boolean = "boolean", null
    }

    /// Nesting deeper than this is refused: a catalog is five levels deep,
    /// and unbounded recursion in ``skipValue()`` would overflow the stack.
    static let maximumDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var offset: Int
    private var depth = 0
    // Where the current line starts, and the last (offset, column) computed on it.
    private var line = 1
    private var lineStart = 0
    private var columnMark = (offset: 0, column: 1)
    // Where each line after the first starts, so that a position already
    // passed can still be located (errors are found after their value).
    private var lineStarts: [Int] = []

    /// Reads `bytes`, skipping a UTF-8 byte order mark.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        let hasMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        offset = hasMark ? 3 : 0
        lineStart = offset
        columnMark = (offset, 1)
    }

    // MARK: Going back

    /// Where the reader is, to come back to (``StringCatalogLoader`` tries
    /// a fast reading of a value, and reads it again the full way if the
    /// value is more than it expected).
    struct Mark {
        fileprivate let offset: Int
        fileprivate let depth: Int
        fileprivate let line: Int
        fileprivate let lineStart: Int
        fileprivate let columnMark: (offset: Int, column: Int)
        fileprivate let lineStartCount: Int
    }

    mutating func mark() -> Mark {
        Mark(offset: offset, depth: depth, line: line, lineStart: lineStart, columnMark: columnMark, lineStartCount: lineStarts.count)
    }

    /// Back to a mark taken on this reader, as if nothing after it had been read.
    mutating func rewind(to mark: Mark) {
        offset = mark.offset
        depth = mark.depth
        line = mark.line
        lineStart = mark.lineStart
        columnMark = mark.columnMark
        lineStarts.removeLast(lineStarts.count - mark.lineStartCount)
    }

    // MARK: Positions

    /// The line and column (in Unicode scalars) of the next token.
    mutating func location() -> SourceLocation {
        skipWhitespace()
        return location(at: offset)
    }

    /// The line and column of `position`, which must be on the current line,
    /// at or after the last position asked for.
    private mutating func location(at position: Int) -> SourceLocation {
        var (index, column) = columnMark.offset >= lineStart && columnMark.offset <= position ? columnMark : (lineStart, 1)
        while index < position {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        columnMark = (position, column)
        return SourceLocation(line: line, column: column)
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, message: message)
    }

    // MARK: Structure

    @inline(__always)
    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                offset &+= 1
            case UInt8(ascii: "\n"):
                offset &+= 1
                newLine()
            case UInt8(ascii: "\r"):
                offset &+= 1
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "\n") { offset &+= 1 }
                newLine()
            default:
                return
            }
        }
    }

    @inline(__always)
    private mutating func newLine() {
        line &+= 1
        lineStart = offset
        lineStarts.append(offset)
    }

    /// The offset where the next value starts: cheap to take for every
    /// value, turned into a line and column by ``location(of:)`` only when
    /// a message needs it.
    mutating func valueStart() -> Int {
        skipWhitespace()
        return offset
    }

    /// The line and column of an offset already read.
    func location(of position: Int) -> SourceLocation {
        // The number of line starts at or before the position.
        var low = 0, high = lineStarts.count
        while low < high {
            let middle = (low + high) / 2
            if lineStarts[middle] <= position { low = middle + 1 } else { high = middle }
        }
        let start = low == 0 ? (bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0) : lineStarts[low - 1]
        var column = 1
        var index = start
        while index < min(position, bytes.count) {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(line: low + 1, column: column)
    }

    /// The kind of the next value, without reading it.
    mutating func peekKind() throws(JSONSyntaxError) -> Kind {
        skipWhitespace()
        guard offset < bytes.count else { throw error("the document ends where a value was expected") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw error("'\(Self.describe(bytes[offset]))' cannot start a value")
        }
    }

    /// Reads the `{` of an object; then call ``nextKey()`` until it returns `nil`.
    mutating func beginObject() throws(JSONSyntaxError) {
        try expect(UInt8(ascii: "{"), "'{'")
        try enter()
        afterOpening = true
    }

    // Whether the last structural token was an opening brace or bracket, so
    // that the next member needs no comma.
    private var afterOpening = false

    /// The next key of the object being read, with the reader at its value;
    /// `nil` (having read the `}`) when the object ends.
    mutating func nextKey() throws(JSONSyntaxError) -> String? {
        skipWhitespace()
        guard offset < bytes.count else { throw error("the document ends inside an object") }
        if bytes[offset] == UInt8(ascii: "}") {
            offset &+= 1
            depth -= 1
            afterOpening = false
            return nil
        }
        if !afterOpening {
            guard bytes[offset] == UInt8(ascii: ",") else { throw error("expected ',' or '}' after a member of an object") }
            offset &+= 1
            skipWhitespace()
        }
        afterOpening = false
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
            throw error(offset < bytes.count ? "expected a member name in double quotes" : "the document ends inside an object")
        }
        let key = try readString()
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
        offset &+= 1
        return key
    }

    /// Reads the `[` of an array; then call ``nextElement()`` until it returns `false`.
    mutating func beginArray() throws(JSONSyntaxError) {
        try expect(UInt8(ascii: "["), "'['")
        try enter()
        afterOpening = true
    }

    /// Whether another element follows (the reader is then at it); `false`
    /// having read the `]`.
    mutating func nextElement() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard offset < bytes.count else { throw error("the document ends inside an array") }
        if bytes[offset] == UInt8(ascii: "]") {
            offset &+= 1
            depth -= 1
            afterOpening = false
            return false
        }
        if !afterOpening {
            guard bytes[offset] == UInt8(ascii: ",") else { throw error("expected ',' or ']' after an element of an array") }
            offset &+= 1
        }
        afterOpening = false
        return true
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("values are nested more than \(Self.maximumDepth) deep") }
    }

    private mutating func expect(_ byte: UInt8, _ name: String) throws(JSONSyntaxError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == byte else { throw error("expected \(name)") }
        offset &+= 1
    }

    /// Checks that nothing but white space follows the document.
    mutating func finish() throws(JSONSyntaxError) {
        skipWhitespace()
        guard offset == bytes.count else { throw error("unexpected content after the end of the document") }
    }

    // MARK: Values

    /// Skips one value of any kind, checking its syntax.
    mutating func skipValue() throws(JSONSyntaxError) {
        switch try peekKind() {
        case .object:
            try beginObject()
            while try nextKey() != nil { try skipValue() }
        case .array:
            try beginArray()
            while try nextElement() { try skipValue() }
        case .string:
            try skipString()
        case .number:
            _ = try readNumberText()
        case .boolean:
            _ = try readBoolean()
        case .null:
            try readLiteral("null")
        }
    }

    /// Reads `true` or `false`.
    mutating func readBoolean() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "t") {
            try readLiteral("true")
            return true
        }
        try readLiteral("false")
        return false
    }

    private mutating func readLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        skipWhitespace()
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count, memcmpEqual(literal.utf8Start, offset, count) else {
            throw error("expected '\(literal)'")
        }
        offset &+= count
    }

    private func memcmpEqual(_ pointer: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Bool {
        for index in 0..<count where bytes[start + index] != pointer[index] { return false }
        return true
    }

    /// Reads a number and returns it as written.
    mutating func readNumberText() throws(JSONSyntaxError) -> Substring {
        skipWhitespace()
        let start = offset
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset &+= 1 }
        guard offset < bytes.count, Self.isDigit(bytes[offset]) else { throw error("expected a digit") }
        if bytes[offset] == UInt8(ascii: "0") {
            offset &+= 1
        } else {
            while offset < bytes.count, Self.isDigit(bytes[offset]) { offset &+= 1 }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset &+= 1
            guard offset < bytes.count, Self.isDigit(bytes[offset]) else { throw error("expected a digit after '.'") }
            while offset < bytes.count, Self.isDigit(bytes[offset]) { offset &+= 1 }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset &+= 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset &+= 1 }
            guard offset < bytes.count, Self.isDigit(bytes[offset]) else { throw error("expected a digit in the exponent") }
            while offset < bytes.count, Self.isDigit(bytes[offset]) { offset &+= 1 }
        }
        return Substring(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// Reads a string. Escapes are decoded; text that is not UTF-8, a raw
    /// control character, a bad escape or a lone surrogate is an error.
    mutating func readString() throws(JSONSyntaxError) -> String {
        try expect(UInt8(ascii: "\""), "'\"'")
        let opening = offset - 1
        // Most strings have no escape: they are made straight from the
        // document's bytes. The others gather their decoded bytes first.
        var decoded: [UInt8]?
        while true {
            // The plain run up to the next quote, backslash or control character.
            var end = offset
            var nonASCII: UInt8 = 0
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
                nonASCII |= bytes[end]
                end &+= 1
            }
            guard end < bytes.count else { throw JSONSyntaxError(offset: opening, message: "the string is not closed") }
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") && decoded == nil {
                defer { offset = end + 1 }
                let text = UnsafeBufferPointer(rebasing: bytes[offset..<end])
                // ASCII needs no validation.
                return nonASCII < 0x80 ? String(decoding: text, as: UTF8.self) : try validated(text, at: opening + 1)
            }
            if decoded == nil {
                decoded = []
                decoded!.reserveCapacity(2 * (end - offset) + 64)
            }
            decoded!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
            if byte == UInt8(ascii: "\"") {
                offset &+= 1
                return try decoded!.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in try validated(buffer, at: opening + 1) }
            } else if byte == UInt8(ascii: "\\") {
                offset &+= 1
                decoded! += try readEscape().utf8
            } else {
                throw error("a control character (U+\(Self.hex(UInt32(byte), digits: 4))) must be escaped inside a string")
            }
        }
    }

    private mutating func skipString() throws(JSONSyntaxError) {
        _ = try readString()
    }

    private func validated(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONSyntaxError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw JSONSyntaxError(offset: offset, message: "the string is not valid UTF-8")
        }
        return text
    }

    /// Reads what follows a backslash.
    private mutating func readEscape() throws(JSONSyntaxError) -> String {
        let backslash = offset - 1
        do throws(JSONSyntaxError) {
            return try decodeEscape()
        } catch {
            throw JSONSyntaxError(offset: backslash, message: error.message)
        }
    }

    private mutating func decodeEscape() throws(JSONSyntaxError) -> String {
        guard offset < bytes.count else { throw error("the document ends inside an escape") }
        let byte = bytes[offset]
        offset &+= 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try readHexQuad()
            switch first {
            case 0xD800...0xDBFF:
                guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                    throw error("\\u\(Self.hex(first, digits: 4)) is half of a surrogate pair; the other half is missing")
                }
                offset &+= 2
                let second = try readHexQuad()
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw error(
                        "\\u\(Self.hex(first, digits: 4)) must be followed by a low surrogate, not \\u\(Self.hex(second, digits: 4))")
                }
                let scalar = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                return String(Unicode.Scalar(scalar)!)
            case 0xDC00...0xDFFF:
                throw error("\\u\(Self.hex(first, digits: 4)) is the second half of a surrogate pair without a first")
            default:
                return String(Unicode.Scalar(first)!)
            }
        default:
            throw error("'\\\(Self.describe(byte))' is not an escape JSON knows")
        }
    }

    private mutating func readHexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("expected four hexadecimal digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected four hexadecimal digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            offset &+= 1
        }
        return value
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    private static func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + hex(UInt32(byte), digits: 2)
    }
}

/// A JSON document that is not well formed, and where reading stopped.
struct JSONSyntaxError: Error {
    /// The byte offset in the document.
    let offset: Int
    /// What was wrong there.
    let message: String
}
