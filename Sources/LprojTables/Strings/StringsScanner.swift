internal import JSONText

/// The old-style property-list grammar over UTF-8 bytes, as `CFOldStylePList.c` reads it.
///
/// Top-level entries are written straight into a ``StringTableBuilder``;
/// nested dictionaries, arrays and data (rare in `.strings` files) become
/// ``PropertyListValue``s. Where Core Foundation is lenient — a key position
/// holding something that is not a key ends the table without an error, and
/// array elements that fail to parse end the array — this scanner is lenient
/// in the same way, so that tables are identical, and adds a diagnostic.
struct StringsScanner {
    enum Outcome {
        /// The bytes were a strings table; call ``finish(encoding:)``.
        case table
        /// The bytes start with '<': an XML property list for Foundation.
        case propertyList
    }

    private let text: UnsafeRawBufferPointer
    private let count: Int
    private var position = 0
    private var builder: StringTableBuilder
    /// The source offset of each appended entry's key.
    private var keyOffsets: [UInt32] = []
    /// Non-string top-level values by append ordinal.
    private var otherValues: [Int: (key: String, value: PropertyListValue)] = [:]
    private var diagnostics: [Diagnostic] = []
    private let recordsKeyLocations: Bool
    private var lines: UTF8Lines?

    /// How deeply values may nest. Core Foundation allows 512; lprojd stops
    /// at 128 so that a crafted file cannot exhaust a worker thread's stack.
    /// No real `.strings` file nests at all.
    private static let maximumDepth = 128

    init(text: UnsafeRawBufferPointer, recordsKeyLocations: Bool) {
        self.text = text
        self.count = text.count
        self.recordsKeyLocations = recordsKeyLocations
        // Keys and values are never longer than the text that spells them,
        // except for the "key"; shorthand, so the text size is a good guess.
        self.builder = StringTableBuilder(estimatedBytes: text.count)
    }

    // MARK: - File

    mutating func parseFile() throws(TableParseError) -> Outcome {
        guard skipSpace() else { return .table }
        let first = text[position]
        switch first {
        case Byte.lessThan:
            return .propertyList
        case Byte.openBrace:
            position += 1
            try parseTopLevelEntries(braced: true)
            guard skipSpace(), text[position] == Byte.closeBrace else {
                throw error(at: position, "expected '}' to close the dictionary opened at \(location(of: 0))")
            }
            position += 1
            if skipSpace() {
                throw error(at: position, "unexpected \(describe(at: position)) after the closing '}'; expected the end of the file")
            }
            return .table
        case Byte.openParenthesis:
            throw error(at: position, "the file holds an array; expected a strings table of \"key\" = \"value\"; pairs")
        case Byte.quote, Byte.apostrophe:
            // Foundation first reads one object; a file that is one string is
            // a string, not a table. Otherwise it rereads from the start.
            let start = position
            position += 1
            let arenaMark = builder.bytes.count
            switch parseQuotedString(quote: first) {
            case .string: break
            case .unterminated(let opening): throw unterminatedString(at: opening)
            case .unterminatedEscape(let backslash): throw unterminatedEscape(at: backslash)
            }
            builder.bytes.removeSubrange(arenaMark...)
            guard skipSpace() else {
                throw error(at: start, "the file holds a single string; expected \"key\" = \"value\"; pairs")
            }
            position = 0
            try parseTopLevelEntries(braced: false)
            return .table
        default:
            guard Byte.isUnquoted(first) else {
                throw error(at: position, "expected a key (a quoted string), found \(describe(at: position))")
            }
            let start = position
            while position < count, Byte.isUnquoted(text[position]) { position += 1 }
            guard skipSpace() else {
                throw error(at: start, "the file holds a single string; expected \"key\" = \"value\"; pairs")
            }
            position = 0
            try parseTopLevelEntries(braced: false)
            return .table
        }
    }

    /// Entries of the table itself, written into the builder.
    private mutating func parseTopLevelEntries(braced: Bool) throws(TableParseError) {
        while true {
            let keyOffset: Int
            let keyStart = builder.bytes.count
            switch parseKey() {
            case .key(let offset):
                keyOffset = offset
            case .end(let reason):
                if !braced { noteIgnoredContent(reason) }
                return
            }
            let keyLength = builder.bytes.count - keyStart
            guard skipSpace() else {
                throw error(
                    at: count,
                    "expected '=' or ';' after the key \(quotedKey(start: keyStart, length: keyLength)), found the end of the file")
            }
            let ordinal = builder.appendedCount
            switch text[position] {
            case Byte.semicolon:
                // "key"; is shorthand for "key" = "key";
                builder.append(keyStart: keyStart, keyLength: keyLength, valueStart: keyStart, valueLength: keyLength)
            case Byte.equals:
                position += 1
                let valueStart = builder.bytes.count
                switch try parseValue(depth: 1, key: (keyStart, keyLength)) {
                case .inArena:
                    builder.append(
                        keyStart: keyStart, keyLength: keyLength, valueStart: valueStart, valueLength: builder.bytes.count - valueStart)
                case .value(let value):
                    let key = arenaString(start: keyStart, length: keyLength)
                    otherValues[ordinal] = (key, value)
                    builder.append(keyStart: keyStart, keyLength: keyLength, valueStart: valueStart, valueLength: 0)
                }
            default:
                throw error(
                    at: position,
                    "expected '=' or ';' after the key \(quotedKey(start: keyStart, length: keyLength)), found \(describe(at: position))")
            }
            keyOffsets.append(UInt32(truncatingIfNeeded: keyOffset))
            let valueEnd = position
            guard skipSpace(), text[position] == Byte.semicolon else {
                throw missingSemicolon(
                    after: valueEnd, found: position, key: quotedKey(start: keyStart, length: keyLength))
            }
            position += 1
            guard builder.bytes.count < Int(UInt32.max) else {
                throw error(at: position, "the table is larger than 4 GiB")
            }
        }
    }

    private enum KeyResult {
        case key(offset: Int)
        case end(EndReason)
    }

    private enum EndReason {
        case endOfFile
        case unexpected(offset: Int)
        case unterminatedString(offset: Int)
        case unterminatedEscape(offset: Int)
    }

    /// A key at a position where one may be (`parsePlistString` with
    /// `requireObject` false): its bytes go into the arena.
    private mutating func parseKey() -> KeyResult {
        guard skipSpace() else { return .end(.endOfFile) }
        let offset = position
        let byte = text[position]
        if byte == Byte.quote || byte == Byte.apostrophe {
            position += 1
            switch parseQuotedString(quote: byte) {
            case .string: return .key(offset: offset)
            case .unterminated: return .end(.unterminatedString(offset: offset))
            case .unterminatedEscape: return .end(.unterminatedEscape(offset: offset))
            }
        }
        if Byte.isUnquoted(byte) {
            appendUnquotedString()
            return .key(offset: offset)
        }
        return .end(.unexpected(offset: offset))
    }

    private mutating func noteIgnoredContent(_ reason: EndReason) {
        let message: String
        let offset: Int
        switch reason {
        case .endOfFile:
            return
        case .unexpected(let at):
            offset = at
            message = "expected a key, found \(describe(at: at)); Foundation stops reading here and ignores the rest of the file"
        case .unterminatedString(let at):
            offset = at
            message = "the string starting here is never closed; Foundation ignores it and the rest of the file"
        case .unterminatedEscape(let at):
            offset = at
            message = "the file ends inside an escape sequence; Foundation ignores this last string"
        }
        diagnostics.append(Diagnostic(severity: .error, location: location(of: offset), code: "ignored-content", message: message))
    }

    // MARK: - Values

    private enum ParsedValue {
        /// A string, already appended to the arena.
        case inArena
        /// A dictionary, array or data value.
        case value(PropertyListValue)
    }

    /// A value where one is required (`parsePlistObject` with `requireObject`).
    private mutating func parseValue(depth: Int, key: (start: Int, length: Int)) throws(TableParseError) -> ParsedValue {
        guard skipSpace() else {
            throw error(
                at: count,
                "expected a value after '=' for the key \(quotedKey(start: key.start, length: key.length)), found the end of the file")
        }
        let byte = text[position]
        if byte == Byte.quote || byte == Byte.apostrophe {
            position += 1
            switch parseQuotedString(quote: byte) {
            case .string: return .inArena
            case .unterminated(let opening): throw unterminatedString(at: opening)
            case .unterminatedEscape(let backslash): throw unterminatedEscape(at: backslash)
            }
        }
        if Byte.isUnquoted(byte) {
            appendUnquotedString()
            return .inArena
        }
        var failure: TableParseError?
        if let value = parseNestedObject(depth: depth, required: true, failure: &failure) {
            return .value(value)
        }
        throw failure
            ?? error(
                at: position,
                "expected a value (a quoted string) after '=' for the key \(quotedKey(start: key.start, length: key.length)), found \(describe(at: position))"
            )
    }

    /// Any object, as a ``PropertyListValue``. Like Core Foundation, a failure
    /// returns `nil` with `failure` set, and callers decide whether it matters.
    private mutating func parseNestedObject(depth: Int, required: Bool, failure: inout TableParseError?) -> PropertyListValue? {
        if depth > Self.maximumDepth {
            failure = error(at: position, "dictionaries and arrays are nested more than \(Self.maximumDepth) deep")
            return nil
        }
        guard skipSpace() else {
            if required { failure = error(at: count, "expected a value, found the end of the file") }
            return nil
        }
        let byte = text[position]
        switch byte {
        case Byte.openBrace:
            let opening = position
            position += 1
            guard let dictionary = parseNestedDictionaryContent(depth: depth, failure: &failure) else { return nil }
            guard skipSpace(), text[position] == Byte.closeBrace else {
                failure = error(
                    at: position, "expected '}' to close the dictionary opened at \(location(of: opening)), found \(describe(at: position))"
                )
                return nil
            }
            position += 1
            return .dictionary(dictionary)
        case Byte.openParenthesis:
            position += 1
            return parseArray(depth: depth, failure: &failure).map(PropertyListValue.array)
        case Byte.lessThan:
            position += 1
            return parseData(failure: &failure).map(PropertyListValue.data)
        case Byte.quote, Byte.apostrophe:
            position += 1
            return takeString { scanner in scanner.parseQuotedString(quote: byte) }.flatMap { result in
                switch result {
                case .success(let string): return .string(string)
                case .failure(let error):
                    failure = error
                    return nil
                }
            }
        default:
            if Byte.isUnquoted(byte) {
                let start = builder.bytes.count
                appendUnquotedString()
                let string = arenaString(start: start, length: builder.bytes.count - start)
                builder.bytes.removeSubrange(start...)
                return .string(string)
            }
            if required { failure = error(at: position, "expected a value, found \(describe(at: position))") }
            return nil
        }
    }

    private mutating func parseNestedDictionaryContent(depth: Int, failure: inout TableParseError?) -> [String: PropertyListValue]? {
        var dictionary: [String: PropertyListValue] = [:]
        while true {
            let keyStart = builder.bytes.count
            guard case .key = parseKey() else { return dictionary }
            let key = arenaString(start: keyStart, length: builder.bytes.count - keyStart)
            builder.bytes.removeSubrange(keyStart...)
            guard skipSpace() else {
                failure = error(at: count, "expected '=' or ';' after the key \(quoted(key)), found the end of the file")
                return nil
            }
            if text[position] == Byte.semicolon {
                dictionary[key] = .string(key)
            } else if text[position] == Byte.equals {
                position += 1
                guard let value = parseNestedObject(depth: depth + 1, required: true, failure: &failure) else { return nil }
                dictionary[key] = value
            } else {
                failure = error(at: position, "expected '=' or ';' after the key \(quoted(key)), found \(describe(at: position))")
                return nil
            }
            let valueEnd = position
            guard skipSpace(), text[position] == Byte.semicolon else {
                failure = missingSemicolon(after: valueEnd, found: position, key: quoted(key))
                return nil
            }
            position += 1
        }
    }

    private mutating func parseArray(depth: Int, failure: inout TableParseError?) -> [PropertyListValue]? {
        var items: [PropertyListValue] = []
        var ignored: TableParseError?
        var next = parseNestedObject(depth: depth + 1, required: false, failure: &ignored)
        while let item = next {
            items.append(item)
            guard skipSpace() else {
                failure = error(at: count, "expected ',' or ')' in the array, found the end of the file")
                return nil
            }
            if text[position] == Byte.comma {
                position += 1
                next = parseNestedObject(depth: depth + 1, required: false, failure: &ignored)
            } else {
                next = nil
            }
        }
        guard skipSpace(), text[position] == Byte.closeParenthesis else {
            failure = ignored ?? error(at: position, "expected ')' to close the array, found \(describe(at: position))")
            return nil
        }
        position += 1
        return items
    }

    /// `<0fa1 b2>`: hex digit pairs and whitespace up to '>'.
    private mutating func parseData(failure: inout TableParseError?) -> [UInt8]? {
        var data: [UInt8] = []
        while position < count {
            let byte = text[position]
            if byte == Byte.greaterThan {
                position += 1
                return data
            }
            if let high = hexDigitValue(atScalar: position) {
                let secondOffset = position + scalarLength(at: position)
                guard secondOffset < count, let low = hexDigitValue(atScalar: secondOffset) else {
                    failure = error(at: position, "expected two hex digits per byte in data")
                    return nil
                }
                data.append(high << 4 | low)
                position = secondOffset + scalarLength(at: secondOffset)
            } else if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || isLineOrParagraphSeparator(at: position) {
                position += byte == 0xE2 ? 3 : 1
            } else {
                failure = error(at: position, "expected hex digits or '>' in data, found \(describe(at: position))")
                return nil
            }
        }
        failure = error(at: count, "expected '>' to close the data, found the end of the file")
        return nil
    }

    /// Core Foundation reads each UTF-16 unit's low byte as a hex digit.
    private func hexDigitValue(atScalar offset: Int) -> UInt8? {
        let lowByte: UInt8
        let lead = text[offset]
        if lead < 0x80 {
            lowByte = lead
        } else {
            guard let scalar = scalarValue(at: offset), scalar <= 0xFFFF else { return nil }
            lowByte = UInt8(truncatingIfNeeded: scalar)
        }
        return Hexadecimal.value(of: lowByte)
    }

    // MARK: - Strings

    private enum QuotedResult {
        case string
        case unterminated(opening: Int)
        case unterminatedEscape(backslash: Int)
    }

    /// Appends the decoded contents of a quoted string to the arena; the
    /// opening quote is already consumed. On failure the arena is restored
    /// and, for a missing closing quote, the position returns to just after
    /// the opening quote, as Core Foundation leaves it.
    private mutating func parseQuotedString(quote: UInt8) -> QuotedResult {
        let contentStart = position
        let arenaStart = builder.bytes.count
        var segmentStart = position
        var pendingHighSurrogate: UInt16?
        while position < count {
            let byte = text[position]
            if byte == quote {
                flushSegment(from: segmentStart, pending: &pendingHighSurrogate)
                resolvePendingSurrogate(&pendingHighSurrogate)
                position += 1
                return .string
            }
            if byte == Byte.backslash {
                flushSegment(from: segmentStart, pending: &pendingHighSurrogate)
                let backslash = position
                position += 1
                guard position < count else {
                    builder.bytes.removeSubrange(arenaStart...)
                    return .unterminatedEscape(backslash: backslash)
                }
                decodeEscape(pending: &pendingHighSurrogate)
                segmentStart = position
            } else {
                position += 1
            }
        }
        builder.bytes.removeSubrange(arenaStart...)
        position = contentStart
        return .unterminated(opening: contentStart - 1)
    }

    private mutating func flushSegment(from start: Int, pending: inout UInt16?) {
        guard start < position else { return }
        resolvePendingSurrogate(&pending)
        builder.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[start..<position]))
    }

    /// A high surrogate from `\U` not followed by a low one becomes U+FFFD,
    /// as it does when Foundation's string bridges to Swift.
    private mutating func resolvePendingSurrogate(_ pending: inout UInt16?) {
        if pending != nil {
            UnicodeBytes.appendUTF8(0xFFFD, to: &builder.bytes)
            pending = nil
        }
    }

    /// Decodes the escape after a backslash (`getSlashedChar`).
    private mutating func decodeEscape(pending: inout UInt16?) {
        let byte = text[position]
        position += 1
        let unit: UInt16
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            var value = byte - UInt8(ascii: "0")
            for _ in 0..<2 {
                guard position < count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(text[position]) else { break }
                value = value &<< 3 &+ (text[position] - UInt8(ascii: "0"))
                position += 1
            }
            unit = NextStepLatin.codeUnit(for: value)
        case UInt8(ascii: "U"):
            var value: UInt16 = 0
            for _ in 0..<4 {
                guard position < count, let digit = Hexadecimal.value(of: text[position]) else { break }
                value = value << 4 | UInt16(digit)
                position += 1
            }
            unit = value
        case UInt8(ascii: "a"): unit = 0x07
        case UInt8(ascii: "b"): unit = 0x08
        case UInt8(ascii: "f"): unit = 0x0C
        case UInt8(ascii: "n"): unit = 0x0A
        case UInt8(ascii: "r"): unit = 0x0D
        case UInt8(ascii: "t"): unit = 0x09
        case UInt8(ascii: "v"): unit = 0x0B
        default:
            // Any other character stands for itself: \" \' \\ \<newline>, and
            // also \u, \q or a backslash before a letter of any script.
            resolvePendingSurrogate(&pending)
            let start = position - 1
            position = start + scalarLength(at: start)
            builder.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[start..<position]))
            return
        }
        appendCodeUnit(unit, pending: &pending)
    }

    private mutating func appendCodeUnit(_ unit: UInt16, pending: inout UInt16?) {
        switch unit {
        case 0xD800...0xDBFF:
            resolvePendingSurrogate(&pending)
            pending = unit
        case 0xDC00...0xDFFF:
            if let high = pending {
                pending = nil
                UnicodeBytes.appendUTF8(UnicodeBytes.scalar(high: UInt32(high), low: UInt32(unit)), to: &builder.bytes)
            } else {
                UnicodeBytes.appendUTF8(0xFFFD, to: &builder.bytes)
            }
        default:
            resolvePendingSurrogate(&pending)
            UnicodeBytes.appendUTF8(UInt32(unit), to: &builder.bytes)
        }
    }

    private mutating func appendUnquotedString() {
        let start = position
        while position < count, Byte.isUnquoted(text[position]) { position += 1 }
        builder.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[start..<position]))
    }

    /// Runs a quoted-string parse and takes its result out of the arena.
    private mutating func takeString(_ parse: (inout StringsScanner) -> QuotedResult) -> Result<String, TableParseError>? {
        let start = builder.bytes.count
        switch parse(&self) {
        case .string:
            let string = arenaString(start: start, length: builder.bytes.count - start)
            builder.bytes.removeSubrange(start...)
            return .success(string)
        case .unterminated(let opening):
            return .failure(unterminatedString(at: opening))
        case .unterminatedEscape(let backslash):
            return .failure(unterminatedEscape(at: backslash))
        }
    }

    // MARK: - Whitespace and comments

    /// Skips whitespace and comments (`advanceToNonSpace`); false at the end.
    private mutating func skipSpace() -> Bool {
        while position < count {
            let byte = text[position]
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                position += 1
            } else if byte == 0xE2, isLineOrParagraphSeparator(at: position) {
                position += 3
            } else if byte == Byte.slash, position + 1 < count, text[position + 1] == Byte.slash {
                position += 2
                while position < count {
                    let next = text[position]
                    if next == 0x0A || next == 0x0D || (next == 0xE2 && isLineOrParagraphSeparator(at: position)) { break }
                    position += 1
                }
            } else if byte == Byte.slash, position + 1 < count, text[position + 1] == Byte.asterisk {
                position += 2
                while position < count {
                    if text[position] == Byte.asterisk, position + 1 < count, text[position + 1] == Byte.slash {
                        position += 2
                        break
                    }
                    position += 1
                }
                if position > count { position = count }
            } else {
                return true
            }
        }
        return false
    }

    /// U+2028 LINE SEPARATOR or U+2029 PARAGRAPH SEPARATOR at `offset`.
    private func isLineOrParagraphSeparator(at offset: Int) -> Bool {
        offset + 2 < count && text[offset] == 0xE2 && text[offset + 1] == 0x80 && (text[offset + 2] == 0xA8 || text[offset + 2] == 0xA9)
    }

    // MARK: - Bytes and scalars

    private func scalarLength(at offset: Int) -> Int {
        let lead = text[offset]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        return min(length, count - offset)
    }

    private func scalarValue(at offset: Int) -> UInt32? {
        let length = scalarLength(at: offset)
        let slice = UnsafeRawBufferPointer(rebasing: text[offset..<offset + length])
        var iterator = slice.makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar.value }
        return nil
    }

    private func arenaString(start: Int, length: Int) -> String {
        builder.bytes.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[start..<start + length]), as: UTF8.self) }
    }

    // MARK: - Messages

    private mutating func location(of offset: Int) -> SourceLocation {
        if lines == nil { lines = UTF8Lines(text) }
        return lines!.location(of: offset, in: text)
    }

    private mutating func error(at offset: Int, _ message: String) -> TableParseError {
        TableParseError(location: location(of: offset), message: message)
    }

    /// A missing `;` is reported where it belongs, just after the value, as
    /// a compiler does, not at what follows (often the next entry's key, lines
    /// below); the message says what was found there, and where.
    private mutating func missingSemicolon(after valueEnd: Int, found: Int, key: String) -> TableParseError {
        let place = location(of: valueEnd)
        var message = "expected ';' after the value of the key \(key), found \(describe(at: found))"
        if found < count {
            let next = location(of: found)
            if next.line != place.line { message += " at \(next.line):\(next.column)" }
        }
        return TableParseError(location: place, message: message)
    }

    private mutating func unterminatedString(at opening: Int) -> TableParseError {
        error(at: opening, "the string starting here is never closed; expected a closing quote")
    }

    private mutating func unterminatedEscape(at backslash: Int) -> TableParseError {
        error(at: backslash, "the file ends inside an escape sequence; expected a character after '\\'")
    }

    /// The character at `offset`, for "found ..." in messages.
    private func describe(at offset: Int) -> String {
        guard offset < count else { return "the end of the file" }
        guard let scalar = scalarValue(at: offset).flatMap(Unicode.Scalar.init) else { return "an invalid byte" }
        switch scalar.value {
        case 0x20...0x7E: return "'\(Character(scalar))'"
        default: return "U+" + Hexadecimal.uppercase(scalar.value, minimumWidth: 4)
        }
    }

    private func quotedKey(start: Int, length: Int) -> String {
        quoted(arenaString(start: start, length: length))
    }

    private func quoted(_ key: String) -> String {
        let shown = key.count > 60 ? String(key.prefix(57)) + "..." : key
        return "\"\(shown)\""
    }

    // MARK: - Result

    consuming func finish(encoding: TextEncoding) -> StringsFile {
        let result = builder.finish(droppingWinners: Set(otherValues.keys))
        var diagnostics = self.diagnostics
        if recordsKeyLocations || !result.duplicates.isEmpty || !result.droppedWinners.isEmpty, lines == nil {
            lines = UTF8Lines(text)
        }
        let lines = self.lines
        let text = self.text
        let keyOffsets = self.keyOffsets
        func keyLocation(_ ordinal: Int) -> SourceLocation {
            lines!.location(of: Int(keyOffsets[ordinal]), in: text)
        }
        for duplicate in result.duplicates {
            let key = result.table.storage.string(start: UInt32(duplicate.keyStart), length: UInt32(duplicate.keyLength))
            diagnostics.append(
                Diagnostic(
                    severity: .warning, location: keyLocation(duplicate.winner), code: "duplicate-key",
                    message:
                        "the key \(quoted(key)) is defined again (first at \(keyLocation(duplicate.replaced))); the last definition wins",
                    keyPath: key))
        }
        var others: [(key: String, value: PropertyListValue)] = []
        for ordinal in result.droppedWinners.sorted() {
            guard let other = otherValues[ordinal] else { continue }
            others.append(other)
            diagnostics.append(
                Diagnostic(
                    severity: .error, location: keyLocation(ordinal), code: "not-a-string",
                    message:
                        "the value of the key \(quoted(other.key)) is \(article(other.value.typeName)), not a string; lookups ignore it",
                    keyPath: other.key))
        }
        var keyLocations: [String: SourceLocation]?
        if recordsKeyLocations {
            var map: [String: SourceLocation] = [:]
            map.reserveCapacity(result.table.count)
            for (index, ordinal) in result.ordinals.enumerated() {
                map[result.table.key(at: index)] = keyLocation(ordinal)
            }
            for ordinal in result.droppedWinners {
                if let other = otherValues[ordinal] { map[other.key] = keyLocation(ordinal) }
            }
            keyLocations = map
        }
        return StringsFile(
            table: result.table, otherValues: others, diagnostics: diagnostics,
            keyLocations: keyLocations, encoding: encoding, isPropertyList: false)
    }

    private func article(_ word: String) -> String {
        "aeiou".contains(word.first ?? "x") ? "an \(word)" : "a \(word)"
    }
}

/// The bytes the grammar cares about.
enum Byte {
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let backslash = UInt8(ascii: "\\")
    static let semicolon = UInt8(ascii: ";")
    static let equals = UInt8(ascii: "=")
    static let slash = UInt8(ascii: "/")
    static let asterisk = UInt8(ascii: "*")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openParenthesis = UInt8(ascii: "(")
    static let closeParenthesis = UInt8(ascii: ")")
    static let comma = UInt8(ascii: ",")
    static let lessThan = UInt8(ascii: "<")
    static let greaterThan = UInt8(ascii: ">")

    /// Characters allowed in an unquoted string: `[A-Za-z0-9_$/:.-]`.
    @inline(__always)
    static func isUnquoted(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
