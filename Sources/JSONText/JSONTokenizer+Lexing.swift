extension JSONTokenizer {
    // MARK: Strings

    /// Reads a string from its opening quote. Escapes are decoded; text that
    /// is not UTF-8, a raw control character, a bad escape or a lone
    /// surrogate is an error.
    mutating func lexString() throws(JSONSyntaxError) -> String {
        let opening = offset
        let start = offset &+ 1
        // Most strings have no escape: they are made straight from the text.
        let (end, bits) = plainRun(from: start)
        guard end < bytes.count else { throw JSONSyntaxError(offset: opening, reason: .unclosedString) }
        guard bytes[end] == UInt8(ascii: "\"") else { return try lexEscapedString(opening: opening, plainEnd: end) }
        offset = end &+ 1
        let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
        // ASCII needs no validation.
        return bits < 0x80 ? String(decoding: text, as: UTF8.self) : try validated(text, at: start)
    }

    /// The plain run of a string's text from `start`: where it ends (at a
    /// quote, a backslash, a control character or the end of the text), and
    /// its bytes or'ed together (below 0x80: ASCII, no validation needed).
    @inline(__always)
    func plainRun(from start: Int) -> (end: Int, bits: UInt8) {
        var end = start
        var bits: UInt8 = 0
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            bits |= byte
            end &+= 1
        }
        return (end, bits)
    }

    /// The rest of a string whose plain start ends at `plainEnd` with a
    /// backslash or a control character: its bytes are gathered, decoded,
    /// in ``scratch``.
    private mutating func lexEscapedString(opening: Int, plainEnd: Int) throws(JSONSyntaxError) -> String {
        var output = scratch
        scratch = []
        output.removeAll(keepingCapacity: true)
        defer { scratch = output }
        var runStart = opening &+ 1
        var end = plainEnd
        while true {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<end]))
            offset = end
            switch bytes[end] {
            case UInt8(ascii: "\""):
                offset &+= 1
                return try output.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in try validated(buffer, at: opening &+ 1) }
            case UInt8(ascii: "\\"):
                offset &+= 1
                try decodeEscape(into: &output)
            case let byte:
                throw error(.unescapedControlCharacter(byte))
            }
            runStart = offset
            end = plainRun(from: offset).end
            guard end < bytes.count else { throw JSONSyntaxError(offset: opening, reason: .unclosedString) }
        }
    }

    private func validated(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONSyntaxError) -> String {
        guard let string = String(validating: text, as: UTF8.self) else {
            throw JSONSyntaxError(offset: offset, reason: .invalidUTF8)
        }
        return string
    }

    /// JSON's escapes, decoded once for every reader: what follows a
    /// backslash (just read), appended to `output` as UTF-8. A surrogate
    /// pair must come as two escapes in a row. Errors are reported at the
    /// backslash.
    private mutating func decodeEscape(into output: inout [UInt8]) throws(JSONSyntaxError) {
        let backslash = offset &- 1
        guard offset < bytes.count else { throw JSONSyntaxError(offset: backslash, reason: .endInsideEscape) }
        let byte = bytes[offset]
        offset &+= 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            let first = try hexQuad(backslash: backslash)
            switch first {
            case 0xD800...0xDBFF:
                guard offset &+ 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset &+ 1] == UInt8(ascii: "u") else {
                    throw JSONSyntaxError(offset: backslash, reason: .missingLowSurrogate(first))
                }
                offset &+= 2
                let second = try hexQuad(backslash: backslash)
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw JSONSyntaxError(offset: backslash, reason: .notLowSurrogate(first, second))
                }
                UnicodeBytes.appendUTF8(UnicodeBytes.scalar(high: first, low: second), to: &output)
            case 0xDC00...0xDFFF:
                throw JSONSyntaxError(offset: backslash, reason: .loneLowSurrogate(first))
            default:
                UnicodeBytes.appendUTF8(first, to: &output)
            }
        default:
            throw JSONSyntaxError(offset: backslash, reason: .unknownEscape(byte))
        }
    }

    /// The four hex digits of a `\u` escape.
    private mutating func hexQuad(backslash: Int) throws(JSONSyntaxError) -> UInt32 {
        guard offset &+ 4 <= bytes.count else { throw JSONSyntaxError(offset: backslash, reason: .expectedHexDigits) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Hexadecimal.value(of: bytes[offset]) else {
                throw JSONSyntaxError(offset: backslash, reason: .expectedHexDigits)
            }
            value = value &<< 4 | UInt32(digit)
            offset &+= 1
        }
        return value
    }

    // MARK: Numbers and literals

    /// Reads a number from its first character.
    mutating func lexNumber() throws(JSONSyntaxError) -> JSONNumberLiteral {
        let start = offset
        if bytes[offset] == UInt8(ascii: "-") { offset &+= 1 }
        guard offset < bytes.count, Self.isDigit(bytes[offset]) else { throw error(.expectedDigit) }
        if bytes[offset] == UInt8(ascii: "0") {
            offset &+= 1
        } else {
            skipDigits()
        }
        let integerDigits = offset &- start
        var isInteger = true
        var hasExponent = false
        var fractionDigits = 0
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            isInteger = false
            offset &+= 1
            let fractionStart = offset
            guard offset < bytes.count, Self.isDigit(bytes[offset]) else { throw error(.expectedFractionDigit) }
            skipDigits()
            fractionDigits = offset &- fractionStart
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            isInteger = false
            hasExponent = true
            offset &+= 1
            var negative = false
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                negative = bytes[offset] == UInt8(ascii: "-")
                offset &+= 1
            }
            guard offset < bytes.count, Self.isDigit(bytes[offset]) else { throw error(.expectedExponentDigit) }
            var exponent = 0
            while offset < bytes.count, Self.isDigit(bytes[offset]) {
                exponent = min(exponent * 10 + Int(bytes[offset] &- UInt8(ascii: "0")), 10_000)
                offset &+= 1
            }
            fractionDigits = max(0, fractionDigits + (negative ? exponent : -exponent))
        }
        let number = JSONNumberLiteral(range: start..<offset, isInteger: isInteger, fractionDigits: fractionDigits)
        // Past a Double's range (1e400) is not a number to Foundation's
        // reader either; only an exponent or some 300 digits get there.
        if hasExponent || integerDigits > 300 {
            guard let value = Double(text(of: number)), value.isFinite else {
                throw JSONSyntaxError(offset: start, reason: .numberOutOfRange)
            }
        }
        return number
    }

    @inline(__always)
    private mutating func skipDigits() {
        while offset < bytes.count, Self.isDigit(bytes[offset]) { offset &+= 1 }
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// A number's text, as written.
    package func text(of number: JSONNumberLiteral) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[number.range]), as: UTF8.self)
    }

    /// Reads `true`, `false` or `null` from its first letter.
    mutating func lexLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard offset &+ count <= bytes.count else { throw error(.expectedLiteral("\(literal)")) }
        let expected = literal.utf8Start
        for index in 0..<count where bytes[offset &+ index] != expected[index] {
            throw error(.expectedLiteral("\(literal)"))
        }
        offset &+= count
    }
}
