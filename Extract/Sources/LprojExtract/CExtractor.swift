/// Finds localizable strings in C and Objective-C source: Foundation's
/// `NSLocalizedString*` macros, Core Foundation's `CFCopyLocalizedString*`,
/// and the C client's lookups (`lprojd_localizer_lookup` and its kin).
///
/// A lexer, not a preprocessor: it skips comments (`//`, `/* */`),
/// character literals and preprocessor lines' continuation as C does,
/// reads string literals with their escapes (`\n`, `\"`, octal, `\x`,
/// `\u`), joins adjacent literals (`"a" "b"`, `@"a"`), and splits a call's
/// arguments at top-level commas. An argument that is not a literal (a
/// variable, a macro) is not extracted, with a warning for the key, unless
/// the call is in a preprocessor directive (a macro passing its parameter
/// on). The app's own routines (``Routine``) are read as the built-in calls.
public struct CExtractor: Sendable {
    /// Foundation's, Core Foundation's and the C client's calls, by name.
    static let forms: [String: ArgumentForm] = [
        "NSLocalizedString": ArgumentForm(key: 0, table: nil, value: nil, comment: 1),
        "NSLocalizedStringFromTable": ArgumentForm(key: 0, table: 1, value: nil, comment: 2),
        "NSLocalizedStringFromTableInBundle": ArgumentForm(key: 0, table: 1, value: nil, comment: 3),
        "NSLocalizedStringWithDefaultValue": ArgumentForm(key: 0, table: 1, value: 3, comment: 4),
        "CFCopyLocalizedString": ArgumentForm(key: 0, table: nil, value: nil, comment: 1),
        "CFCopyLocalizedStringFromTable": ArgumentForm(key: 0, table: 1, value: nil, comment: 2),
        "CFCopyLocalizedStringFromTableInBundle": ArgumentForm(key: 0, table: 1, value: nil, comment: 3),
        "CFCopyLocalizedStringWithDefaultValue": ArgumentForm(key: 0, table: 1, value: 3, comment: 4),
        // The C client: (localizer, key, table, default_value, …).
        "lprojd_localizer_lookup": ArgumentForm(key: 1, table: 2, value: 3, comment: nil),
        "lprojd_localizer_dup_lookup": ArgumentForm(key: 1, table: 2, value: 3, comment: nil),
        "lprojd_localizer_lookup_with_placeholders": ArgumentForm(key: 1, table: 2, value: 3, comment: nil),
        "lprojd_localizer_format": ArgumentForm(key: 1, table: 2, value: nil, comment: nil),
    ]

    /// The calls this extractor reads: the built-in ones and the app's own
    /// routines (which win over a built-in of the same name).
    let calls: [String: ArgumentForm]

    public init(routines: [Routine] = []) {
        calls = Self.forms.merging(Routine.forms(routines)) { $1 }
    }

    public func extract(source: String, file: String) -> ExtractionResult {
        var lexer = CLexer(Array(source.utf8))
        let tokens = lexer.tokens()
        var result = ExtractionResult()
        var index = 0
        while index < tokens.count {
            defer { index += 1 }
            guard case .identifier(let name) = tokens[index].kind, let form = calls[name], index + 1 < tokens.count,
                tokens[index + 1].kind == .punctuation("(")
            else { continue }
            let place = Location(file: file, line: tokens[index].line, column: tokens[index].column)
            let (arguments, end) = Self.arguments(tokens, openingAt: index + 1)
            index = end
            guard form.key < arguments.count, let key = Self.literal(arguments[form.key]) else {
                // A macro that passes its own parameter on (`#define L(key)
                // NSLocalizedString(key, nil)`) is a routine, not a call.
                if tokens[index].inDirective { continue }
                let at = arguments.indices.contains(form.key) ? arguments[form.key].first : nil
                result.warnings.append(
                    ExtractionWarning(
                        location: at.map { Location(file: file, line: $0.line, column: $0.column) } ?? place,
                        message: "\(name): the key is not a string literal, so it cannot be extracted; add it to the table by hand"))
                continue
            }
            // An empty literal is no key, as in Swift.
            if key.isEmpty { continue }
            func text(_ position: Int?) -> String? {
                guard let position, position < arguments.count else { return nil }
                return Self.literal(arguments[position])
            }
            let first = arguments[form.key].first!
            result.strings.append(
                ExtractedString(
                    key: key, table: text(form.table).flatMap { $0.isEmpty ? nil : $0 } ?? "Localizable", defaultValue: text(form.value),
                    comment: text(form.comment).flatMap { $0.isEmpty ? nil : $0 },
                    location: Location(file: file, line: first.line, column: first.column)))
        }
        return result
    }

    /// The arguments of the call whose `(` is at `open`, as token lists, and
    /// the index of its `)` (or the last token, unclosed).
    static func arguments(_ tokens: [CToken], openingAt open: Int) -> ([[CToken]], Int) {
        var arguments: [[CToken]] = [[]]
        var depth = 0
        var index = open + 1
        while index < tokens.count {
            let token = tokens[index]
            switch token.kind {
            case .punctuation("("), .punctuation("["), .punctuation("{"):
                depth += 1
            case .punctuation(")"), .punctuation("]"), .punctuation("}"):
                if depth == 0 { return (arguments.last!.isEmpty && arguments.count == 1 ? [] : arguments, index) }
                depth -= 1
            case .punctuation(","):
                if depth == 0 {
                    arguments.append([])
                    index += 1
                    continue
                }
            default:
                break
            }
            arguments[arguments.count - 1].append(token)
            index += 1
        }
        return (arguments, tokens.count - 1)
    }

    /// An argument that is only string literals (adjacent ones joined, `@`
    /// allowed before each, `CFSTR("…")` and `nil`/`NULL` for none).
    static func literal(_ argument: [CToken]) -> String? {
        var tokens = argument[...]
        if tokens.count >= 3, case .identifier("CFSTR") = tokens.first?.kind, tokens.dropFirst().first?.kind == .punctuation("("),
            tokens.last?.kind == .punctuation(")")
        {
            tokens = tokens.dropFirst(2).dropLast()
        }
        var text = ""
        var sawString = false
        for token in tokens {
            switch token.kind {
            case .string(let value):
                text += value
                sawString = true
            case .punctuation("@"):
                continue
            default:
                return nil
            }
        }
        return sawString ? text : nil
    }
}

/// A token of C source: what the extractor needs of it.
struct CToken: Sendable {
    enum Kind: Sendable, Equatable {
        case identifier(String)
        case string(String)
        case punctuation(Character)
        case other
    }

    let kind: Kind
    let line: Int
    let column: Int
    /// In a preprocessor directive (`#define …`, continued lines too).
    var inDirective = false
}

/// Splits C and Objective-C source into tokens, skipping comments and
/// character literals.
struct CLexer {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func tokens() -> [CToken] {
        var tokens: [CToken] = []
        // A `#` first on its line starts a directive, which ends with the
        // line (not with a backslash-continued one).
        var inDirective = false
        var lineHasToken = false
        while index < bytes.count {
            let byte = bytes[index]
            let column = index - lineStart + 1
            let count = tokens.count
            defer {
                if tokens.count > count {
                    tokens[tokens.count - 1].inDirective = inDirective
                    lineHasToken = true
                }
            }
            switch byte {
            case UInt8(ascii: "\n"):
                advance()
                inDirective = false
                lineHasToken = false
            case UInt8(ascii: "\\") where peek(1) == UInt8(ascii: "\n") || (peek(1) == UInt8(ascii: "\r") && peek(2) == UInt8(ascii: "\n")):
                advance(peek(1) == UInt8(ascii: "\n") ? 2 : 3)
            case UInt8(ascii: "#") where !lineHasToken:
                inDirective = true
                tokens.append(CToken(kind: .punctuation("#"), line: line, column: column))
                advance()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
                    // A backslash at the end continues a // comment, as in C.
                    if bytes[index] == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "\n") { advance() }
                    advance()
                }
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                advance(2)
                while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/")) { advance() }
                advance(2)
            case UInt8(ascii: "\""):
                let startLine = line
                tokens.append(CToken(kind: .string(readString()), line: startLine, column: column))
            case UInt8(ascii: "'"):
                advance()
                while index < bytes.count, bytes[index] != UInt8(ascii: "'"), bytes[index] != UInt8(ascii: "\n") {
                    if bytes[index] == UInt8(ascii: "\\") { advance() }
                    advance()
                }
                advance()
                tokens.append(CToken(kind: .other, line: line, column: column))
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
                let start = index
                while index < bytes.count, Self.isIdentifier(bytes[index]) { advance() }
                let name = String(decoding: bytes[start..<index], as: UTF8.self)
                // An encoding prefix belongs to the literal: u8"…", L"…".
                if index < bytes.count, bytes[index] == UInt8(ascii: "\""), ["L", "u", "U", "u8"].contains(name) { continue }
                tokens.append(CToken(kind: .identifier(name), line: line, column: column))
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                advance()
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                while index < bytes.count, Self.isIdentifier(bytes[index]) || bytes[index] == UInt8(ascii: ".") { advance() }
                tokens.append(CToken(kind: .other, line: line, column: column))
            default:
                tokens.append(CToken(kind: .punctuation(Character(Unicode.Scalar(byte))), line: line, column: column))
                advance()
            }
        }
        return tokens
    }

    static func isIdentifier(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
    }

    /// A string literal's value, its escapes decoded; `index` is at its `"`.
    mutating func readString() -> String {
        advance()
        var value: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") { break }  // unterminated: C stops here too
            guard byte == UInt8(ascii: "\\"), let next = peek(1) else {
                value.append(byte)
                advance()
                continue
            }
            advance(2)
            switch next {
            case UInt8(ascii: "n"): value.append(0x0A)
            case UInt8(ascii: "t"): value.append(0x09)
            case UInt8(ascii: "r"): value.append(0x0D)
            case UInt8(ascii: "a"): value.append(0x07)
            case UInt8(ascii: "b"): value.append(0x08)
            case UInt8(ascii: "f"): value.append(0x0C)
            case UInt8(ascii: "v"): value.append(0x0B)
            case UInt8(ascii: "\n"): break  // a line continuation
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var code = UInt32(next - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, let digit = peek(0), (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit) {
                    code = code * 8 + UInt32(digit - UInt8(ascii: "0"))
                    digits += 1
                    advance()
                }
                value.append(UInt8(truncatingIfNeeded: code))
            case UInt8(ascii: "x"):
                var code: UInt32 = 0
                while let digit = peek(0), let hex = Self.hexValue(digit) {
                    code = (code << 4 | hex) & 0xFF
                    advance()
                }
                value.append(UInt8(truncatingIfNeeded: code))
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                var code: UInt32 = 0
                for _ in 0..<(next == UInt8(ascii: "u") ? 4 : 8) {
                    guard let digit = peek(0), let hex = Self.hexValue(digit) else { break }
                    code = code << 4 | hex
                    advance()
                }
                if let scalar = Unicode.Scalar(code) { value += Array(String(Character(scalar)).utf8) }
            default:
                value.append(next)  // \" \\ \' \?
            }
        }
        advance()
        return String(decoding: value, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
