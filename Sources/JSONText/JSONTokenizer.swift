/// A pull tokenizer over a JSON text in UTF-8 (RFC 8259): the one the
/// Varlink wire (`JSONParser` builds values from its tokens) and the String
/// Catalog reader share.
///
/// ``next()`` gives the text's tokens in order; the tokenizer keeps the
/// grammar (commas, colons, nesting), so a caller sees values, keys and the
/// ends of containers only. A caller that knows what it expects asks for it
/// instead (``peekKind()``, ``beginObject()``, ``nextKey()``,
/// ``readString()``, ...) and skips the rest with ``skipValue()``; no tree
/// is built unless the caller builds one.
///
/// It is strict: invalid UTF-8 or a raw control character in a string, an
/// unknown escape, a lone surrogate, a number JSON does not allow, nesting
/// deeper than ``maximumDepth``, more values than allowed, or anything after
/// the top-level value throws a ``JSONSyntaxError`` with the byte offset
/// where reading stopped.
package struct JSONTokenizer: ~Copyable {
    /// How deeply arrays and objects may nest: a caller that descends as it
    /// reads (a tree builder, a skip) must not overflow its stack.
    package static let maximumDepth = 64

    let bytes: UnsafeBufferPointer<UInt8>
    /// Where reading is: just after the last token read.
    package internal(set) var offset: Int
    /// Where the last token read starts (a key's opening quote, say).
    package internal(set) var tokenStart: Int
    var state = State.value
    var depth = 0
    /// Which open containers are objects: bit `n` for depth `n + 1`.
    var objects: UInt64 = 0
    var valuesLeft: Int
    let maximumValues: Int
    /// Where the text starts, after a byte order mark if one was skipped.
    let textStart: Int
    let recordsLines: Bool
    /// Where each line after the first starts, when lines are recorded.
    var lineStarts: [Int] = []
    /// The last position a column was counted for, on the current line.
    var columnMark: (offset: Int, column: Int)
    /// Reused for strings with escapes, which are decoded before they are made.
    var scratch: [UInt8] = []

    /// Where reading is in the grammar.
    enum State: UInt8 {
        /// A value comes next: at the start, after a colon, or after a comma
        /// (or an opening bracket) in an array.
        case value
        /// A member name or `}` comes next.
        case objectOpened
        /// A value or `]` comes next.
        case arrayOpened
        /// A comma or the end of the container (or of the text) comes next.
        case afterValue
        /// A member name comes next; reading is at its opening quote.
        case key
    }

    /// Tokenizes `bytes`, which must outlive the tokenizer.
    ///
    /// - Parameters:
    ///   - maximumValues: values (of any kind, members' included) allowed in
    ///     all: what a text becomes in memory grows with its values, not its
    ///     bytes.
    ///   - skipsByteOrderMark: a leading UTF-8 byte order mark is skipped
    ///     (files may have one; the wire may not).
    ///   - recordsLines: where lines start is recorded as white space is
    ///     skipped, so that ``lineAndColumn()`` can say where a token is.
    package init(
        _ bytes: UnsafeBufferPointer<UInt8>, maximumValues: Int = .max, skipsByteOrderMark: Bool = false, recordsLines: Bool = false
    ) {
        self.bytes = bytes
        let hasMark = skipsByteOrderMark && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        textStart = hasMark ? 3 : 0
        offset = textStart
        tokenStart = textStart
        columnMark = (textStart, 1)
        valuesLeft = maximumValues
        self.maximumValues = maximumValues
        self.recordsLines = recordsLines
    }

    /// Tokenizes raw bytes (a message in a buffer).
    package init(_ bytes: UnsafeRawBufferPointer, maximumValues: Int = .max) {
        self.init(bytes.assumingMemoryBound(to: UInt8.self), maximumValues: maximumValues)
    }

    // MARK: Tokens

    /// The next token. After the top-level value it is ``JSONToken/end``
    /// (and again if asked again), or an error if anything but white space
    /// follows.
    package mutating func next() throws(JSONSyntaxError) -> JSONToken {
        switch try settle() {
        case .value: return try readValue()
        case .key: return .key(try readKey())
        case .objectEnd:
            close()
            return .objectEnd
        case .arrayEnd:
            close()
            return .arrayEnd
        case .end:
            tokenStart = offset
            return .end
        }
    }

    /// What comes next, once separators are read.
    enum Step {
        case value, key, objectEnd, arrayEnd, end
    }

    /// Reads the white space and separator before the next token, and says
    /// what the token is without reading it. Asking twice gives the same.
    @inline(__always)
    mutating func settle() throws(JSONSyntaxError) -> Step {
        switch state {
        case .value:
            return .value
        case .key:
            return .key
        case .objectOpened:
            skipWhitespace()
            guard offset < bytes.count else { throw error(.endInsideObject) }
            if bytes[offset] == UInt8(ascii: "}") { return .objectEnd }
            return try memberNameFollows()
        case .arrayOpened:
            skipWhitespace()
            guard offset < bytes.count else { throw error(.endInsideArray) }
            if bytes[offset] == UInt8(ascii: "]") { return .arrayEnd }
            state = .value
            return .value
        case .afterValue:
            return try settleAfterValue()
        }
    }

    @inline(__always)
    private mutating func settleAfterValue() throws(JSONSyntaxError) -> Step {
        skipWhitespace()
        guard depth > 0 else {
            guard offset == bytes.count else { throw error(.contentAfterDocument) }
            return .end
        }
        if isInObject {
            guard offset < bytes.count else { throw error(.endInsideObject) }
            switch bytes[offset] {
            case UInt8(ascii: "}"):
                return .objectEnd
            case UInt8(ascii: ","):
                offset &+= 1
                skipWhitespace()
                guard offset < bytes.count else { throw error(.endInsideObject) }
                return try memberNameFollows()
            default:
                throw error(.expectedCommaOrObjectEnd)
            }
        }
        guard offset < bytes.count else { throw error(.endInsideArray) }
        switch bytes[offset] {
        case UInt8(ascii: "]"):
            return .arrayEnd
        case UInt8(ascii: ","):
            offset &+= 1
            state = .value
            return .value
        default:
            throw error(.expectedCommaOrArrayEnd)
        }
    }

    /// Reading is at a byte inside an object where a member name must start.
    @inline(__always)
    private mutating func memberNameFollows() throws(JSONSyntaxError) -> Step {
        guard bytes[offset] == UInt8(ascii: "\"") else { throw error(.expectedMemberName) }
        state = .key
        return .key
    }

    /// Reads the value that comes next (``settle()`` said one does).
    mutating func readValue() throws(JSONSyntaxError) -> JSONToken {
        try countValue()
        skipWhitespace()
        tokenStart = offset
        guard offset < bytes.count else { throw error(.endWhereValueExpected) }
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            try open(object: true)
            return .objectStart
        case UInt8(ascii: "["):
            try open(object: false)
            return .arrayStart
        case UInt8(ascii: "\""):
            let string = try lexString()
            state = .afterValue
            return .string(string)
        case UInt8(ascii: "t"):
            try lexLiteral("true")
            state = .afterValue
            return .bool(true)
        case UInt8(ascii: "f"):
            try lexLiteral("false")
            state = .afterValue
            return .bool(false)
        case UInt8(ascii: "n"):
            try lexLiteral("null")
            state = .afterValue
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try lexNumber()
            state = .afterValue
            return .number(number)
        case let byte:
            throw error(.cannotStartValue(byte))
        }
    }

    /// Reads a member name and its colon (``settle()`` said one comes).
    @inline(__always)
    mutating func readKey() throws(JSONSyntaxError) -> String {
        tokenStart = offset
        let key = try lexString()
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error(.expectedColon) }
        offset &+= 1
        state = .value
        return key
    }

    @inline(__always)
    mutating func countValue() throws(JSONSyntaxError) {
        valuesLeft &-= 1
        guard valuesLeft >= 0 else { throw error(.tooManyValues(maximumValues)) }
    }

    // MARK: Containers

    var isInObject: Bool { objects &>> UInt64(depth &- 1) & 1 != 0 }

    /// Reads an opening brace or bracket.
    private mutating func open(object: Bool) throws(JSONSyntaxError) {
        offset &+= 1
        depth &+= 1
        guard depth <= Self.maximumDepth else { throw error(.nestedTooDeep(Self.maximumDepth)) }
        let bit: UInt64 = 1 &<< UInt64(depth &- 1)
        if object {
            objects |= bit
            state = .objectOpened
        } else {
            objects &= ~bit
            state = .arrayOpened
        }
    }

    /// Reads the closing brace or bracket ``settle()`` found.
    @inline(__always)
    mutating func close() {
        tokenStart = offset
        offset &+= 1
        depth &-= 1
        state = .afterValue
    }

    // MARK: White space

    @inline(__always)
    mutating func skipWhitespace() {
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

    /// JSON allows line breaks only between tokens, so white space is the
    /// one place to notice them.
    @inline(__always)
    private mutating func newLine() {
        if recordsLines { lineStarts.append(offset) }
    }

    /// Skips white space; the offset of what follows.
    package mutating func offsetOfNextToken() -> Int {
        skipWhitespace()
        return offset
    }

    func error(_ reason: JSONSyntaxError.Reason) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, reason: reason)
    }

    // MARK: Going back

    /// Where the tokenizer is, to come back to: a reader may try a fast
    /// reading of a value and read it again the full way if the value is
    /// more than it expected.
    package struct Mark {
        fileprivate let offset: Int
        fileprivate let tokenStart: Int
        fileprivate let state: State
        fileprivate let depth: Int
        fileprivate let objects: UInt64
        fileprivate let valuesLeft: Int
        fileprivate let lineStartCount: Int
        fileprivate let columnMark: (offset: Int, column: Int)
    }

    /// Where the tokenizer is now.
    package func mark() -> Mark {
        Mark(
            offset: offset, tokenStart: tokenStart, state: state, depth: depth, objects: objects, valuesLeft: valuesLeft,
            lineStartCount: lineStarts.count, columnMark: columnMark)
    }

    /// Back to a mark taken on this tokenizer, as if nothing after it had been read.
    package mutating func rewind(to mark: Mark) {
        offset = mark.offset
        tokenStart = mark.tokenStart
        state = mark.state
        depth = mark.depth
        objects = mark.objects
        valuesLeft = mark.valuesLeft
        lineStarts.removeLast(lineStarts.count - mark.lineStartCount)
        columnMark = mark.columnMark
    }
}
