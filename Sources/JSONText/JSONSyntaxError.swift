/// A JSON text that is not well formed (or past a limit), and where reading stopped.
package struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The byte offset in the text.
    package let offset: Int
    /// What was wrong there.
    package let reason: Reason

    /// An error at a byte offset.
    package init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    /// What was wrong, in words (the String Catalog parser shows them).
    package var message: String { reason.description }

    /// Where and why: `at byte 12: expected ':' after a member name`.
    package var description: String { "at byte \(offset): \(message)" }

    /// Why a text is not JSON; each case's words are its ``description``.
    package enum Reason: Equatable, Sendable, CustomStringConvertible {
        case endWhereValueExpected
        case cannotStartValue(UInt8)
        case endInsideObject
        case endInsideArray
        case expectedMemberName
        case expectedColon
        case expectedCommaOrObjectEnd
        case expectedCommaOrArrayEnd
        case contentAfterDocument
        case nestedTooDeep(Int)
        /// More values than the tokenizer was allowed.
        case tooManyValues(Int)
        /// `true`, `false` or `null` misspelt.
        case expectedLiteral(String)
        case expectedDigit
        case expectedFractionDigit
        case expectedExponentDigit
        /// Too large for a `Double` (Foundation's reader refuses it too).
        case numberOutOfRange
        case unclosedString
        case invalidUTF8
        case unescapedControlCharacter(UInt8)
        case endInsideEscape
        case unknownEscape(UInt8)
        case expectedHexDigits
        case missingLowSurrogate(UInt32)
        case notLowSurrogate(UInt32, UInt32)
        case loneLowSurrogate(UInt32)
        /// A caller asked for one kind of value and the text has another.
        case unexpectedKind(expected: JSONValueKind, found: JSONValueKind)

        /// The reason in words, as the String Catalog parser shows it.
        package var description: String {
            switch self {
            case .endWhereValueExpected: "the document ends where a value was expected"
            case .cannotStartValue(let byte): "'\(Self.describe(byte))' cannot start a value"
            case .endInsideObject: "the document ends inside an object"
            case .endInsideArray: "the document ends inside an array"
            case .expectedMemberName: "expected a member name in double quotes"
            case .expectedColon: "expected ':' after a member name"
            case .expectedCommaOrObjectEnd: "expected ',' or '}' after a member of an object"
            case .expectedCommaOrArrayEnd: "expected ',' or ']' after an element of an array"
            case .contentAfterDocument: "unexpected content after the end of the document"
            case .nestedTooDeep(let limit): "values are nested more than \(limit) deep"
            case .tooManyValues(let limit): "more than \(limit) values"
            case .expectedLiteral(let literal): "expected '\(literal)'"
            case .expectedDigit: "expected a digit"
            case .expectedFractionDigit: "expected a digit after '.'"
            case .expectedExponentDigit: "expected a digit in the exponent"
            case .numberOutOfRange: "a number out of range"
            case .unclosedString: "the string is not closed"
            case .invalidUTF8: "the string is not valid UTF-8"
            case .unescapedControlCharacter(let byte):
                "a control character (U+\(Hexadecimal.uppercase(UInt32(byte), minimumWidth: 4))) must be escaped inside a string"
            case .endInsideEscape: "the document ends inside an escape"
            case .unknownEscape(let byte): "'\\\(Self.describe(byte))' is not an escape JSON knows"
            case .expectedHexDigits: "expected four hexadecimal digits after \\u"
            case .missingLowSurrogate(let high):
                "\\u\(Self.quad(high)) is half of a surrogate pair; the other half is missing"
            case .notLowSurrogate(let high, let other):
                "\\u\(Self.quad(high)) must be followed by a low surrogate, not \\u\(Self.quad(other))"
            case .loneLowSurrogate(let low): "\\u\(Self.quad(low)) is the second half of a surrogate pair without a first"
            case .unexpectedKind(let expected, let found): "expected \(Self.article(expected)), found \(Self.article(found))"
            }
        }

        private static func quad(_ unit: UInt32) -> String {
            Hexadecimal.uppercase(unit, minimumWidth: 4)
        }

        /// A byte as a message shows it: itself if printable ASCII, else `\xHH`.
        private static func describe(_ byte: UInt8) -> String {
            byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + Hexadecimal.uppercase(UInt32(byte), minimumWidth: 2)
        }

        private static func article(_ kind: JSONValueKind) -> String {
            switch kind {
            case .object, .array: "an \(kind.rawValue)"
            case .null: "null"
            default: "a \(kind.rawValue)"
            }
        }
    }
}
