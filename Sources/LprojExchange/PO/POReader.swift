import LprojTables

/// Reads PO files strictly: UTF-8, gettext's keywords and C string
/// escapes, at most 64 MiB; every error names its line and column.
/// Obsolete (`#~`) messages are skipped; `#,` flags and `#.` comments kept.
package enum POReader {
    package static let maximumBytes = 64 << 20

    package static func read(_ bytes: [UInt8]) throws(XMLError) -> PODocument {
        guard bytes.count <= maximumBytes else {
            throw XMLError(
                location: SourceLocation(line: 1, column: 1), message: "the file is \(bytes.count) bytes; at most \(maximumBytes) are read")
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard let text = String(validating: body, as: UTF8.self) else {
            let lines = body.split(separator: 0x0A, omittingEmptySubsequences: false)
            let line = (lines.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0) + 1
            throw XMLError(location: SourceLocation(line: line, column: 1), message: "the file is not UTF-8")
        }
        var parser = Parser()
        // Split on the scalar: to Swift's Characters, a CRLF is one, not
        // a "\n", and a file with CRLF line ends (which gettext's tools
        // read) was one long line.
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() { try parser.line(String(String.UnicodeScalarView(line)), number: index + 1) }
        try parser.finish(line: lines.count)
        return PODocument(header: parser.header, messages: parser.messages)
    }

    struct Parser {
        var header: [(name: String, value: String)] = []
        var messages: [POMessage] = []
        var current = POMessage(context: nil, id: "", strings: [])
        var started = false
        var sawID = false
        var sawHeader = false
        /// Which string continuation lines go to.
        enum Field { case none, context, id, idPlural, string(Int) }
        var field = Field.none
        var seen: Set<String> = []

        mutating func line(_ raw: String, number: Int) throws(XMLError) {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
            let trimmed = line.trimmingSpaces
            let indent = line.unicodeScalars.prefix { $0 == " " || $0 == "\t" }.count
            func error(_ message: String, column: Int = indent + 1) -> XMLError {
                XMLError(location: SourceLocation(line: number, column: column), message: message)
            }
            if trimmed.isEmpty { return }
            if trimmed.hasPrefix("#") {
                if trimmed.hasPrefix("#~") { return }
                if sawID { try finishMessage() }
                started = true
                if trimmed.hasPrefix("#.") { current.extractedComments.append(String(trimmed.dropFirst(2)).trimmingSpaces) }
                if trimmed.hasPrefix("#:") {
                    current.references += trimmed.dropFirst(2).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                }
                if trimmed.hasPrefix("#,") {
                    current.flags += trimmed.dropFirst(2).split(separator: ",").map { String($0).trimmingSpaces }
                }
                return
            }
            if trimmed.hasPrefix("\"") {
                let text = try Self.string(trimmed, line: number, column: indent + 1)
                switch field {
                case .none: throw error("a string with no keyword before it")
                case .context: current.context = (current.context ?? "") + text
                case .id: current.id += text
                case .idPlural: current.idPlural = (current.idPlural ?? "") + text
                case .string(let index): current.strings[index] += text
                }
                return
            }
            guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else { throw error("expected a keyword and a string") }
            let keyword = String(trimmed[..<space])
            let rest = String(trimmed[space...]).trimmingSpaces
            let column = indent + 1 + trimmed.distance(from: trimmed.startIndex, to: space) + 1
            let text = try Self.string(rest, line: number, column: column)
            switch keyword {
            case "msgctxt":
                if sawID { try finishMessage() }
                current.location = SourceLocation(line: number, column: indent + 1)
                started = true
                guard current.context == nil else { throw error("a second msgctxt in one message") }
                current.context = text
                field = .context
            case "msgid":
                if sawID { try finishMessage() }
                if current.context == nil { current.location = SourceLocation(line: number, column: indent + 1) }
                started = true
                sawID = true
                current.id = text
                field = .id
            case "msgid_plural":
                guard sawID, current.strings.isEmpty, current.idPlural == nil else { throw error("msgid_plural must follow msgid") }
                current.idPlural = text
                field = .idPlural
            case "msgstr":
                guard sawID, current.strings.isEmpty, current.idPlural == nil else {
                    throw error(current.idPlural == nil ? "msgstr must follow msgid" : "a plural message has msgstr[0], msgstr[1], …")
                }
                current.strings = [text]
                field = .string(0)
            default:
                guard keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"), let index = Int(keyword.dropFirst(7).dropLast()) else {
                    throw error("unknown keyword \(keyword)")
                }
                guard sawID, current.idPlural != nil, index == current.strings.count, index < 6 else {
                    throw error("\(keyword) is out of order (a plural message has msgstr[0], msgstr[1], … after msgid_plural)")
                }
                current.strings.append(text)
                field = .string(index)
            }
        }

        mutating func finishMessage() throws(XMLError) {
            let location = current.location ?? SourceLocation(line: 1, column: 1)
            guard !current.strings.isEmpty else { throw XMLError(location: location, message: "the message has no msgstr") }
            if current.context == nil && current.id.isEmpty {
                guard !sawHeader else { throw XMLError(location: location, message: "a second header entry") }
                sawHeader = true
                for line in current.strings[0].split(separator: "\n") {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    header.append((String(line[..<colon]).trimmingSpaces, String(line[line.index(after: colon)...]).trimmingSpaces))
                }
            } else {
                let key = (current.context ?? "") + "\u{4}" + current.id
                guard seen.insert(key).inserted else {
                    throw XMLError(
                        location: location,
                        message: "the message \(current.context.map { "\"\($0)\" " } ?? "")\"\(current.id)\" is given twice")
                }
                messages.append(current)
            }
            current = POMessage(context: nil, id: "", strings: [])
            started = false
            sawID = false
            field = .none
        }

        mutating func finish(line: Int) throws(XMLError) {
            if sawID { try finishMessage() }
        }

        /// A C string literal (with gettext's escapes), which must be all the rest of the line.
        static func string(_ text: String, line: Int, column: Int) throws(XMLError) -> String {
            let scalars = Array(text.unicodeScalars)
            func error(_ message: String, at offset: Int) -> XMLError {
                XMLError(location: SourceLocation(line: line, column: column + offset), message: message)
            }
            guard scalars.first == "\"" else { throw error("expected a string in double quotes", at: 0) }
            var result = ""
            var index = 1
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "\"" {
                    guard index == scalars.count - 1 else { throw error("text after the string's closing quote", at: index + 1) }
                    return result
                }
                if scalar == "\\" {
                    guard index + 1 < scalars.count else { break }
                    let next = scalars[index + 1]
                    index += 2
                    switch next {
                    case "n": result += "\n"
                    case "t": result += "\t"
                    case "r": result += "\r"
                    case "a": result += "\u{7}"
                    case "b": result += "\u{8}"
                    case "f": result += "\u{C}"
                    case "v": result += "\u{B}"
                    case "\\", "\"", "'", "?": result.unicodeScalars.append(next)
                    case "0"..."7":
                        var value = next.value - 48
                        var digits = 1
                        while digits < 3, index < scalars.count, ("0"..."7").contains(scalars[index]) {
                            value = value * 8 + scalars[index].value - 48
                            index += 1
                            digits += 1
                        }
                        guard let decoded = Unicode.Scalar(value) else { throw error("a bad octal escape", at: index) }
                        result.unicodeScalars.append(decoded)
                    case "x":
                        var value: UInt32 = 0
                        var digits = 0
                        while digits < 2, index < scalars.count, let digit = UInt32(String(scalars[index]), radix: 16) {
                            value = value * 16 + digit
                            index += 1
                            digits += 1
                        }
                        guard digits > 0, let decoded = Unicode.Scalar(value) else { throw error("a bad hexadecimal escape", at: index) }
                        result.unicodeScalars.append(decoded)
                    default:
                        throw error("the escape \\\(next) is not one gettext reads", at: index - 2)
                    }
                    continue
                }
                result.unicodeScalars.append(scalar)
                index += 1
            }
            throw error("the string is not closed", at: 0)
        }
    }
}
