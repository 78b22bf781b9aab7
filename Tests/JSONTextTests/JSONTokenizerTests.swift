import Foundation
import JSONText
import Testing

/// The token stream, as short strings: `{`, `key:a`, `str:x`, `num:1.5`, `true`, `end`...
func tokens(_ bytes: [UInt8], maximumValues: Int = .max, skipsByteOrderMark: Bool = false) throws(JSONSyntaxError) -> [String] {
    try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
        var tokenizer = JSONTokenizer(buffer, maximumValues: maximumValues, skipsByteOrderMark: skipsByteOrderMark)
        var seen: [String] = []
        while true {
            let token = try tokenizer.next()
            switch token {
            case .objectStart: seen.append("{")
            case .objectEnd: seen.append("}")
            case .arrayStart: seen.append("[")
            case .arrayEnd: seen.append("]")
            case .key(let key): seen.append("key:\(key)")
            case .string(let string): seen.append("str:\(string)")
            case .number(let number): seen.append("num:\(tokenizer.text(of: number))")
            case .bool(let flag): seen.append("\(flag)")
            case .null: seen.append("null")
            case .end: return seen + ["end"]
            }
        }
    }
}

func tokens(_ text: String, maximumValues: Int = .max) throws(JSONSyntaxError) -> [String] {
    try tokens(Array(text.utf8), maximumValues: maximumValues)
}

/// The error reading every token of `bytes` stops with.
func failure(_ bytes: [UInt8], maximumValues: Int = .max) -> JSONSyntaxError? {
    do {
        _ = try tokens(bytes, maximumValues: maximumValues)
        return nil
    } catch {
        return error
    }
}

func failure(_ text: String, maximumValues: Int = .max) -> JSONSyntaxError? {
    failure(Array(text.utf8), maximumValues: maximumValues)
}

@Suite struct JSONTokenizerTests {
    @Test func tokensComeInOrderWithTheGrammarLeftOut() throws {
        #expect(
            try tokens(#" { "a" : [ 1 , -2.5e3 , true , false , null , "x" ] , "b" : { } , "c" : [ ] , "d" : { "e" : [ [ ] ] } } "#)
                == [
                    "{", "key:a", "[", "num:1", "num:-2.5e3", "true", "false", "null", "str:x", "]", "key:b", "{", "}", "key:c", "[", "]",
                    "key:d", "{", "key:e", "[", "[", "]", "]", "}", "}", "end",
                ])
        #expect(try tokens("\t\r\n 0 \r\n") == ["num:0", "end"])
        #expect(try tokens(#""""#) == ["str:", "end"])
        #expect(try tokens("[[],{},[{}]]") == ["[", "[", "]", "{", "}", "[", "{", "}", "]", "]", "end"])
    }

    @Test func theEndIsGivenAgainWhenAskedAgain() throws {
        try Array("7".utf8).withUnsafeBufferPointer { buffer throws in
            var tokenizer = JSONTokenizer(buffer)
            #expect(try tokenizer.next() != .end)
            #expect(try tokenizer.next() == .end)
            #expect(try tokenizer.next() == .end)
        }
    }

    @Test func escapesDecodeToTheCharactersTheyStandFor() throws {
        #expect(try tokens(#"["\"\\\/\b\f\n\r\t"]"#) == ["[", "str:\"\\/\u{8}\u{C}\n\r\t", "]", "end"])
        #expect(try tokens(#""\u0041\u00e9\u20AC\u0000""#) == ["str:Aé€\u{0}", "end"])
        // A surrogate pair in two escapes is one scalar.
        #expect(try tokens(#""\uD83D\uDE00 \ud83d\ude00""#) == ["str:😀 😀", "end"])
        // Raw UTF-8 around escapes stays as it is.
        #expect(try tokens(#""é\n😀\u00e9x""#) == ["str:é\n😀éx", "end"])
        // Strings with escapes one after another do not share their bytes.
        #expect(try tokens(#"{"a\tb":"c\nd","e":"\"f"}"#) == ["{", "key:a\tb", "str:c\nd", "key:e", "str:\"f", "}", "end"])
        let long = String(repeating: "ab\\n", count: 500)
        #expect(try tokens("[\"\(long)\",\"x\\ty\"]") == ["[", "str:" + String(repeating: "ab\n", count: 500), "str:x\ty", "]", "end"])
    }

    @Test func numbersSayHowTheyWereWritten() throws {
        func literal(_ text: String) throws -> JSONNumberLiteral {
            try Array(text.utf8).withUnsafeBufferPointer { buffer throws in
                var tokenizer = JSONTokenizer(buffer)
                guard case .number(let number) = try tokenizer.next() else { throw JSONSyntaxError(offset: 0, reason: .expectedDigit) }
                #expect(try tokenizer.next() == .end)
                return number
            }
        }
        #expect(try literal("42") == JSONNumberLiteral(range: 0..<2, isInteger: true, fractionDigits: 0))
        #expect(try literal("-0") == JSONNumberLiteral(range: 0..<2, isInteger: true, fractionDigits: 0))
        #expect(try literal("1.50") == JSONNumberLiteral(range: 0..<4, isInteger: false, fractionDigits: 2))
        #expect(try literal("1e-3") == JSONNumberLiteral(range: 0..<4, isInteger: false, fractionDigits: 3))
        #expect(try literal("15E-1") == JSONNumberLiteral(range: 0..<5, isInteger: false, fractionDigits: 1))
        #expect(try literal("1.5e+3") == JSONNumberLiteral(range: 0..<6, isInteger: false, fractionDigits: 0))
        #expect(try literal("0e99999999999999999999").fractionDigits == 0)
        #expect(try literal("1e-99999999999999999999").fractionDigits == 10_000)
        // Down to zero is a number; past a Double's largest is not (below).
        #expect(try literal("1e-400").fractionDigits == 400)
        #expect(try literal("1" + String(repeating: "0", count: 300)).isInteger)
        #expect(try literal("1" + String(repeating: "0", count: 400) + "e-100").fractionDigits == 100)
    }

    /// Every way a text fails, where it fails, and why.
    @Test(arguments: [
        ("", 0, JSONSyntaxError.Reason.endWhereValueExpected),
        ("  ", 2, .endWhereValueExpected),
        ("[1,]", 3, .cannotStartValue(UInt8(ascii: "]"))),
        ("'x'", 0, .cannotStartValue(UInt8(ascii: "'"))),
        ("NaN", 0, .cannotStartValue(UInt8(ascii: "N"))),
        ("[", 1, .endInsideArray),
        ("[1", 2, .endInsideArray),
        ("[1 2]", 3, .expectedCommaOrArrayEnd),
        ("{", 1, .endInsideObject),
        (#"{"a":1"#, 6, .endInsideObject),
        (#"{"a":1, "#, 8, .endInsideObject),
        (#"{"a":1,}"#, 7, .expectedMemberName),
        ("{a:1}", 1, .expectedMemberName),
        (#"{"a" 1}"#, 5, .expectedColon),
        (#"{"a"}"#, 4, .expectedColon),
        (#"{"a":1 "b":2}"#, 7, .expectedCommaOrObjectEnd),
        (#"{"a":}"#, 5, .cannotStartValue(UInt8(ascii: "}"))),
        ("01", 1, .contentAfterDocument),
        ("[1] 2", 4, .contentAfterDocument),
        ("-", 1, .expectedDigit),
        ("-x", 1, .expectedDigit),
        ("1.", 2, .expectedFractionDigit),
        ("1.e5", 2, .expectedFractionDigit),
        ("1e", 2, .expectedExponentDigit),
        ("1e+", 3, .expectedExponentDigit),
        ("1e400", 0, .numberOutOfRange),
        ("[0, -2.5E999]", 4, .numberOutOfRange),
        ("1" + String(repeating: "0", count: 309), 0, .numberOutOfRange),
        ("1" + String(repeating: "0", count: 400) + "e-50", 0, .numberOutOfRange),
        ("tru", 0, .expectedLiteral("true")),
        ("[nul]", 1, .expectedLiteral("null")),
        ("fals", 0, .expectedLiteral("false")),
        (#""a"#, 0, .unclosedString),
        (#"["a\"]"#, 1, .unclosedString),
        (#""\"#, 1, .endInsideEscape),
        (#""\x""#, 1, .unknownEscape(UInt8(ascii: "x"))),
        (#""ab\u12""#, 3, .expectedHexDigits),
        (#""\u12G4""#, 1, .expectedHexDigits),
        (#""\ud800""#, 1, .missingLowSurrogate(0xD800)),
        (#""\uD800x""#, 1, .missingLowSurrogate(0xD800)),
        (#""a\uDBFF\u0041""#, 2, .notLowSurrogate(0xDBFF, 0x41)),
        (#""\uD800\uD800""#, 1, .notLowSurrogate(0xD800, 0xD800)),
        (#""\uD800\u12""#, 1, .expectedHexDigits),
        (#""\udc00""#, 1, .loneLowSurrogate(0xDC00)),
        ("\"a\u{1}\"", 2, .unescapedControlCharacter(1)),
        ("\"a\\n\nb\"", 4, .unescapedControlCharacter(0x0A)),
    ])
    func malformedTextFailsWhereAndWhyItShould(_ text: String, _ offset: Int, _ reason: JSONSyntaxError.Reason) {
        #expect(failure(text) == JSONSyntaxError(offset: offset, reason: reason), "\(text)")
    }

    @Test func invalidUTF8IsReportedAtTheStringsFirstByte() {
        #expect(failure([0x22, 0xFF, 0x22]) == JSONSyntaxError(offset: 1, reason: .invalidUTF8))
        #expect(failure([0x5B, 0x22, 0x61, 0xC3, 0x22, 0x5D]) == JSONSyntaxError(offset: 2, reason: .invalidUTF8))
        // Also when the string has escapes, and the bytes are wrong before them.
        #expect(failure([0x22, 0xC3] + Array(#"\n""#.utf8)) == JSONSyntaxError(offset: 1, reason: .invalidUTF8))
        // An encoded surrogate is not UTF-8.
        #expect(failure([0x22, 0xED, 0xA0, 0x80, 0x22]) == JSONSyntaxError(offset: 1, reason: .invalidUTF8))
        // Outside a string, a byte that is not ASCII cannot start anything.
        #expect(failure([0xC3, 0xA9]) == JSONSyntaxError(offset: 0, reason: .cannotStartValue(0xC3)))
    }

    @Test func messagesSayWhatWasWrong() {
        #expect(failure(#""\q""#)?.message == #"'\q' is not an escape JSON knows"#)
        #expect(failure("\"\u{1F}\"")?.message == "a control character (U+001F) must be escaped inside a string")
        #expect(failure([0xC3])?.message == #"'\xC3' cannot start a value"#)
        #expect(failure(#""\ud83d""#)?.message == #"\uD83D is half of a surrogate pair; the other half is missing"#)
        #expect(failure(#""\ud83d\u0020""#)?.message == #"\uD83D must be followed by a low surrogate, not \u0020"#)
        #expect(failure(#""\ude00""#)?.message == #"\uDE00 is the second half of a surrogate pair without a first"#)
        #expect(failure(#"{"a":1 2}"#)?.message == "expected ',' or '}' after a member of an object")
        #expect(failure(#"{"a":1}x"#)?.description == "at byte 7: unexpected content after the end of the document")
    }

    @Test func nestingIsLimitedWhereTheOpeningBracketIsRead() {
        let limit = JSONTokenizer.maximumDepth
        let fine = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(failure(fine) == nil)
        let deep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(failure(deep) == JSONSyntaxError(offset: limit + 1, reason: .nestedTooDeep(limit)))
        let deepObjects = String(repeating: #"{"a":"#, count: 100_000)
        #expect(failure(deepObjects) == JSONSyntaxError(offset: 5 * limit + 1, reason: .nestedTooDeep(limit)))
    }

    @Test func objectsAndArraysAreToldApartAtEveryDepth() throws {
        // Containers alternate, 64 deep: each closer must match its opener.
        var text = ""
        for depth in 0..<JSONTokenizer.maximumDepth { text += depth % 2 == 0 ? #"{"k":"# : "[" }
        text += "0"
        for depth in (0..<JSONTokenizer.maximumDepth).reversed() { text += depth % 2 == 0 ? "}" : "]" }
        #expect(failure(text) == nil)
        var wrong = Array(text.utf8)
        wrong[wrong.count - 1] = UInt8(ascii: "]")
        #expect(failure(wrong) == JSONSyntaxError(offset: wrong.count - 1, reason: .expectedCommaOrObjectEnd))
    }

    @Test func valuesAreCountedBeforeEachIsRead() {
        // [, 1, 2, 3: four values.
        #expect(failure("[1,2,3]", maximumValues: 4) == nil)
        #expect(failure("[1,2,3]", maximumValues: 3) == JSONSyntaxError(offset: 5, reason: .tooManyValues(3)))
        // Members' names are not values; objects and their values are.
        #expect(failure(#"{"a":1,"b":2}"#, maximumValues: 3) == nil)
        #expect(failure(#"{"a":1,"b":2}"#, maximumValues: 2) == JSONSyntaxError(offset: 11, reason: .tooManyValues(2)))
        // The limit is met before the value past it is read, well formed or not.
        #expect(failure("[1,x", maximumValues: 2) == JSONSyntaxError(offset: 3, reason: .tooManyValues(2)))
    }

    @Test func aByteOrderMarkIsSkippedOnlyWhenAskedFor() throws {
        let text: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)
        #expect(try tokens(text, skipsByteOrderMark: true) == ["[", "num:1", "]", "end"])
        #expect(failure(text) == JSONSyntaxError(offset: 0, reason: .cannotStartValue(0xEF)))
    }

    @Test func tokensSayWhereTheyStart() throws {
        try Array(#"{ "ab" : [ 12 , "x" ] }"#.utf8).withUnsafeBufferPointer { buffer throws in
            var tokenizer = JSONTokenizer(buffer)
            var starts: [Int] = []
            while try tokenizer.next() != .end { starts.append(tokenizer.tokenStart) }
            #expect(starts == [0, 2, 9, 11, 16, 20, 22])
        }
    }
}
