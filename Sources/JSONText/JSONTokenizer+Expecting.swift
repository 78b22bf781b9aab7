/// Reading what the caller expects: a reader that knows its schema asks for
/// the value it wants next, checks its kind first with ``peekKind()``, and
/// skips what it does not know. No tree is built.
extension JSONTokenizer {
    /// The kind of the value that comes next, without reading it.
    package mutating func peekKind() throws(JSONSyntaxError) -> JSONValueKind {
        guard try settle() == .value else {
            // A container's end or a member name is where a value was wanted.
            throw error(offset < bytes.count ? .cannotStartValue(bytes[offset]) : .endWhereValueExpected)
        }
        skipWhitespace()
        guard offset < bytes.count else { throw error(.endWhereValueExpected) }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case let byte: throw error(.cannotStartValue(byte))
        }
    }

    /// Reads the `{` of an object; then call ``nextKey()`` until it returns nil.
    package mutating func beginObject() throws(JSONSyntaxError) {
        try expect(.object)
        _ = try readValue()
    }

    /// The next member's name, with the member's value next; nil (having
    /// read the `}`) when the object ends.
    package mutating func nextKey() throws(JSONSyntaxError) -> String? {
        switch try settle() {
        case .key:
            return try readKey()
        case .objectEnd:
            close()
            return nil
        case .value, .arrayEnd, .end:
            throw error(.expectedMemberName)
        }
    }

    /// A member's name as its bytes in the text, for a reader that matches
    /// the names it knows without making a `String` of each.
    package enum PlainKey {
        /// The name, with the member's value next.
        case name(UnsafeBufferPointer<UInt8>)
        /// The object ended (its `}` is read).
        case end
        /// The name has an escape or a byte past ASCII: nothing is read.
        case notPlain
    }

    /// The next member's name, as ``nextKey()`` reads it, without making a
    /// `String` of it.
    package mutating func nextPlainKey() throws(JSONSyntaxError) -> PlainKey {
        switch try settle() {
        case .key:
            let start = offset &+ 1
            let (end, bits) = plainRun(from: start)
            guard end < bytes.count, bytes[end] == UInt8(ascii: "\""), bits < 0x80 else { return .notPlain }
            tokenStart = offset
            offset = end &+ 1
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error(.expectedColon) }
            offset &+= 1
            state = .value
            return .name(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        case .objectEnd:
            close()
            return .end
        case .value, .arrayEnd, .end:
            throw error(.expectedMemberName)
        }
    }

    /// Reads the `[` of an array; then call ``nextElement()`` until it returns false.
    package mutating func beginArray() throws(JSONSyntaxError) {
        try expect(.array)
        _ = try readValue()
    }

    /// Whether another element follows (it is then next); false, having
    /// read the `]`, when the array ends.
    package mutating func nextElement() throws(JSONSyntaxError) -> Bool {
        switch try settle() {
        case .value:
            return true
        case .arrayEnd:
            close()
            return false
        case .key, .objectEnd, .end:
            throw error(.expectedCommaOrArrayEnd)
        }
    }

    /// Reads a string.
    package mutating func readString() throws(JSONSyntaxError) -> String {
        try expect(.string)
        guard case .string(let string) = try readValue() else { preconditionFailure("a string was peeked") }
        return string
    }

    /// Reads a string that needs no decoding (no escape, ASCII only) and
    /// gives its bytes in the text, with no `String` made; nil, having read
    /// nothing, when the string is not such a string. A caller that matches
    /// names (a call's method) takes this path and the full one otherwise.
    package mutating func readPlainASCIIString() throws(JSONSyntaxError) -> UnsafeBufferPointer<UInt8>? {
        try expect(.string)
        let start = offset &+ 1
        let (end, bits) = plainRun(from: start)
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\""), bits < 0x80 else { return nil }
        try countValue()
        tokenStart = offset
        offset = end &+ 1
        state = .afterValue
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// Reads a number.
    package mutating func readNumber() throws(JSONSyntaxError) -> JSONNumberLiteral {
        try expect(.number)
        guard case .number(let number) = try readValue() else { preconditionFailure("a number was peeked") }
        return number
    }

    /// Reads a number and returns its text as written.
    package mutating func readNumberText() throws(JSONSyntaxError) -> String {
        text(of: try readNumber())
    }

    /// Reads `true` or `false`.
    package mutating func readBoolean() throws(JSONSyntaxError) -> Bool {
        try expect(.boolean)
        guard case .bool(let flag) = try readValue() else { preconditionFailure("a boolean was peeked") }
        return flag
    }

    /// Reads `null`.
    package mutating func readNull() throws(JSONSyntaxError) {
        try expect(.null)
        _ = try readValue()
    }

    /// Skips one value of any kind, checking its syntax.
    package mutating func skipValue() throws(JSONSyntaxError) {
        var open = 0
        repeat {
            switch try next() {
            case .objectStart, .arrayStart: open += 1
            case .objectEnd, .arrayEnd: open -= 1
            default: break
            }
        } while open > 0
    }

    /// Checks that nothing but white space follows.
    package mutating func finish() throws(JSONSyntaxError) {
        skipWhitespace()
        guard offset == bytes.count else { throw error(.contentAfterDocument) }
    }

    private mutating func expect(_ kind: JSONValueKind) throws(JSONSyntaxError) {
        let found = try peekKind()
        guard found == kind else { throw error(.unexpectedKind(expected: kind, found: found)) }
    }
}
