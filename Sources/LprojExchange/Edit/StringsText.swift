internal import LprojTables

/// A `.strings` file as text that can be edited and written back in its
/// own encoding, byte for byte where it is not edited.
///
/// Only encodings that come back exactly are taken: UTF-8 with or without a
/// byte order mark, and UTF-16 of either order with one. Anything else (a
/// file Foundation reads by guessing, an odd trailing byte, an unpaired
/// surrogate) is refused for editing, so that an import never rewrites
/// bytes it did not mean to.
struct StringsText {
    let encoding: TextEncoding
    /// The text after the byte order mark, as scalars.
    var scalars: [Unicode.Scalar]

    /// Reads a file; nil when its bytes would not come back the same.
    init?(bytes: [UInt8], encoding: TextEncoding) {
        self.encoding = encoding
        switch encoding {
        case .utf8, .utf8WithBOM:
            let body = encoding == .utf8WithBOM ? Array(bytes.dropFirst(3)) : bytes
            guard let text = String(validating: body, as: UTF8.self) else { return nil }
            scalars = Array(text.unicodeScalars)
        case .utf16LittleEndian, .utf16BigEndian:
            let body = bytes.dropFirst(2)
            guard body.count % 2 == 0 else { return nil }
            var units: [UInt16] = []
            units.reserveCapacity(body.count / 2)
            var index = body.startIndex
            while index < body.endIndex {
                let first = UInt16(body[index]), second = UInt16(body[index + 1])
                units.append(encoding == .utf16LittleEndian ? first | second << 8 : first << 8 | second)
                index += 2
            }
            guard let text = String(validating: units, as: UTF16.self) else { return nil }
            scalars = Array(text.unicodeScalars)
        case .utf16WithoutBOM, .utf32LittleEndian, .utf32BigEndian:
            return nil
        }
        guard self.bytes == bytes else { return nil }
    }

    /// The file's bytes: the byte order mark, then the text in the encoding.
    var bytes: [UInt8] {
        Self.encode(String(String.UnicodeScalarView(scalars)), as: encoding, bom: true)
    }

    /// Text in an encoding, with the encoding's byte order mark if asked.
    static func encode(_ text: String, as encoding: TextEncoding, bom: Bool) -> [UInt8] {
        switch encoding {
        case .utf8, .utf16WithoutBOM, .utf32LittleEndian, .utf32BigEndian:
            return Array(text.utf8)
        case .utf8WithBOM:
            return (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
        case .utf16LittleEndian:
            return (bom ? [0xFF, 0xFE] : []) + text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        case .utf16BigEndian:
            return (bom ? [0xFE, 0xFF] : []) + text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }
        }
    }

    /// Where each line starts (lines end at `\n`, `\r` or `\r\n`, as the parser counts them).
    func lineStarts() -> [Int] {
        var starts = [0]
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\n" {
                starts.append(index)
            } else if scalar == "\r" {
                if index < scalars.count && scalars[index] == "\n" { index += 1 }
                starts.append(index)
            }
        }
        return starts
    }

    /// The scalar offset of a 1-based line and column (columns in scalars).
    func offset(of location: SourceLocation, lineStarts: [Int]) -> Int? {
        guard location.line >= 1, location.line <= lineStarts.count else { return nil }
        let offset = lineStarts[location.line - 1] + location.column - 1
        return offset <= scalars.count ? offset : nil
    }

    // MARK: Reading an entry's tokens

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{2028}", "\u{2029}": true
        default: false
        }
    }

    static func isUnquoted(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "$", "/", ":", ".", "-": true
        default: false
        }
    }

    /// The offset after white space and comments from `index`.
    func skippingTrivia(from index: Int) -> Int {
        var index = index
        while index < scalars.count {
            if Self.isWhitespace(scalars[index]) {
                index += 1
            } else if scalars[index] == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                var end = index + 2
                while end + 1 < scalars.count && !(scalars[end] == "*" && scalars[end + 1] == "/") { end += 1 }
                index = min(end + 2, scalars.count)
            } else if scalars[index] == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                while index < scalars.count && scalars[index] != "\n" && scalars[index] != "\r" { index += 1 }
            } else {
                break
            }
        }
        return index
    }

    /// The range of a string token (quoted or unquoted) starting at `index`.
    func token(at index: Int) -> Range<Int>? {
        guard index < scalars.count else { return nil }
        let first = scalars[index]
        if first == "\"" || first == "'" {
            var end = index + 1
            while end < scalars.count {
                if scalars[end] == "\\" {
                    end += 2
                    continue
                }
                if scalars[end] == first { return index..<(end + 1) }
                end += 1
            }
            return nil
        }
        var end = index
        while end < scalars.count && Self.isUnquoted(scalars[end]) { end += 1 }
        return end > index ? index..<end : nil
    }

    /// Where an entry's value is written, given where its key starts: the
    /// value token, or (for `"key";`) the offset of its `;`.
    enum ValuePlace {
        case token(Range<Int>)
        case shorthand(semicolon: Int)
    }

    func valuePlace(keyStart: Int) -> ValuePlace? {
        guard let key = token(at: keyStart) else { return nil }
        let next = skippingTrivia(from: key.upperBound)
        guard next < scalars.count else { return nil }
        if scalars[next] == ";" { return .shorthand(semicolon: next) }
        guard scalars[next] == "=" else { return nil }
        let valueStart = skippingTrivia(from: next + 1)
        guard let value = token(at: valueStart) else { return nil }
        let end = skippingTrivia(from: value.upperBound)
        guard end < scalars.count, scalars[end] == ";" else { return nil }
        return .token(value)
    }

    /// The comment written just before an entry, on lines of its own
    /// (`/* … */` or `// …`): what the developer wrote for translators.
    func comment(before keyStart: Int) -> String? {
        var index = keyStart
        while index > 0 && Self.isWhitespace(scalars[index - 1]) { index -= 1 }
        guard index >= 2 else { return nil }
        if scalars[index - 2] == "*" && scalars[index - 1] == "/" {
            var start = index - 2
            while start >= 1 && !(scalars[start - 1] == "/" && scalars[start] == "*") { start -= 1 }
            guard start >= 1 else { return nil }
            guard startsLine(start - 1) else { return nil }
            let body = String(String.UnicodeScalarView(scalars[(start + 1)..<(index - 2)]))
            return Self.trimmed(body)
        }
        // Consecutive `//` lines.
        var lines: [String] = []
        var end = index
        while end > 0 {
            var lineStart = end
            while lineStart > 0 && scalars[lineStart - 1] != "\n" && scalars[lineStart - 1] != "\r" { lineStart -= 1 }
            var first = lineStart
            while first < end && (scalars[first] == " " || scalars[first] == "\t") { first += 1 }
            guard first + 1 < end, scalars[first] == "/", scalars[first + 1] == "/" else { break }
            lines.insert(Self.trimmed(String(String.UnicodeScalarView(scalars[(first + 2)..<end]))), at: 0)
            end = lineStart
            while end > 0 && (scalars[end - 1] == "\n" || scalars[end - 1] == "\r") { end -= 1 }
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// Whether only spaces and tabs come before `index` on its line.
    func startsLine(_ index: Int) -> Bool {
        var position = index
        while position > 0 {
            let previous = scalars[position - 1]
            if previous == "\n" || previous == "\r" { return true }
            if previous != " " && previous != "\t" { return false }
            position -= 1
        }
        return true
    }

    static func trimmed(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var start = 0, end = scalars.count
        while start < end && isWhitespace(scalars[start]) { start += 1 }
        while end > start && isWhitespace(scalars[end - 1]) { end -= 1 }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }

    /// A string as a double-quoted `.strings` literal.
    static func literal(_ text: String) -> String {
        "\"" + StringsLiteral.escaped(text) + "\""
    }
}
