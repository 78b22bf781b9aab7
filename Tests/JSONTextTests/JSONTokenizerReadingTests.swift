import Foundation
import JSONText
import Testing

/// Reading what one expects, going back, lines and columns: what the String
/// Catalog reader does with the tokenizer.
@Suite struct JSONTokenizerReadingTests {
    @Test func aReaderAsksForWhatItExpectsAndSkipsTheRest() throws {
        let text = #"{"skip":{"x":[1,{"y":[true,null,"\u00e9"]}],"z":{}},"n":-1.5e2,"list":[ "a" , false , null ],"s":"v"}"#
        try Array(text.utf8).withUnsafeBufferPointer { buffer throws in
            var tokenizer = JSONTokenizer(buffer)
            #expect(try tokenizer.peekKind() == .object)
            try tokenizer.beginObject()
            #expect(try tokenizer.nextKey() == "skip")
            #expect(try tokenizer.peekKind() == .object)
            try tokenizer.skipValue()
            #expect(try tokenizer.nextKey() == "n")
            #expect(try tokenizer.peekKind() == .number)
            #expect(try tokenizer.readNumberText() == "-1.5e2")
            #expect(try tokenizer.nextKey() == "list")
            try tokenizer.beginArray()
            #expect(try tokenizer.nextElement())
            #expect(try tokenizer.peekKind() == .string)
            #expect(try tokenizer.readString() == "a")
            #expect(try tokenizer.nextElement())
            #expect(try tokenizer.peekKind() == .boolean)
            #expect(try tokenizer.readBoolean() == false)
            #expect(try tokenizer.nextElement())
            #expect(try tokenizer.peekKind() == .null)
            try tokenizer.readNull()
            #expect(try tokenizer.nextElement() == false)
            #expect(try tokenizer.nextKey() == "s")
            try tokenizer.skipValue()
            #expect(try tokenizer.nextKey() == nil)
            try tokenizer.finish()
        }
    }

    @Test func askingForTheWrongKindIsAnErrorThatSaysSo() throws {
        try Array(#"["a"]"#.utf8).withUnsafeBufferPointer { buffer throws in
            var tokenizer = JSONTokenizer(buffer)
            try tokenizer.beginArray()
            #expect(try tokenizer.nextElement())
            #expect(throws: JSONSyntaxError(offset: 1, reason: .unexpectedKind(expected: .object, found: .string))) {
                try tokenizer.beginObject()
            }
            // Nothing was read: the string is still there.
            #expect(try tokenizer.readString() == "a")
        }
        try Array("[]".utf8).withUnsafeBufferPointer { buffer throws in
            var tokenizer = JSONTokenizer(buffer)
            try tokenizer.beginArray()
            // Where an element may be, the end of the array cannot start a value.
            #expect(throws: JSONSyntaxError(offset: 1, reason: .cannotStartValue(UInt8(ascii: "]")))) { try tokenizer.peekKind() }
            #expect(try tokenizer.nextElement() == false)
        }
    }

    @Test func skippingAValueLeavesTheReaderJustAfterIt() throws {
        try Array(#"[{"a":[1,{"b":"\n"}]},[[]],"s",3]"#.utf8).withUnsafeBufferPointer { buffer throws in
            var tokenizer = JSONTokenizer(buffer)
            try tokenizer.beginArray()
            for _ in 0..<3 {
                #expect(try tokenizer.nextElement())
                try tokenizer.skipValue()
            }
            #expect(try tokenizer.nextElement())
            #expect(try tokenizer.readNumberText() == "3")
            #expect(try tokenizer.nextElement() == false)
            #expect(try tokenizer.next() == .end)
        }
        // A skipped value's syntax is checked all the same.
        try Array(#"[{"a":[1,}]"#.utf8).withUnsafeBufferPointer { buffer throws in
            var tokenizer = JSONTokenizer(buffer)
            try tokenizer.beginArray()
            #expect(throws: JSONSyntaxError(offset: 9, reason: .cannotStartValue(UInt8(ascii: "}")))) { try tokenizer.skipValue() }
        }
    }

    @Test func rewindingToAMarkReadsTheSameTokensAgain() throws {
        let text = "{\n  \"a\" : {\n    \"b\" : [ 1, \"x\\ty\" ]\n  },\n  \"c\" : true\n}"
        try Array(text.utf8).withUnsafeBufferPointer { buffer throws in
            var tokenizer = JSONTokenizer(buffer, recordsLines: true)
            try tokenizer.beginObject()
            #expect(try tokenizer.nextKey() == "a")
            let mark = tokenizer.mark()
            var first: [JSONToken] = []
            for _ in 0..<7 { first.append(try tokenizer.next()) }
            let where1 = tokenizer.lineAndColumn()
            tokenizer.rewind(to: mark)
            var again: [JSONToken] = []
            for _ in 0..<7 { again.append(try tokenizer.next()) }
            #expect(first == again)
            #expect(tokenizer.lineAndColumn() == where1)
            #expect(try tokenizer.nextKey() == "c")
            #expect(tokenizer.lineAndColumn() == (5, 9))
        }
    }

    @Test func linesAndColumnsCountScalarsAndEveryKindOfLineBreak() throws {
        // Line 1: the BOM is not a column. \r\n, \r and \n each end a line.
        let text: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{\"é😀\" :\r\n [ 1,\r \"ü\",\n\t\"x\" ] }".utf8)
        try text.withUnsafeBufferPointer { buffer throws in
            var tokenizer = JSONTokenizer(buffer, skipsByteOrderMark: true, recordsLines: true)
            #expect(tokenizer.lineAndColumn() == (1, 1))
            try tokenizer.beginObject()
            #expect(tokenizer.lineAndColumn() == (1, 2))
            #expect(try tokenizer.nextKey() == "é😀")
            #expect(tokenizer.lineAndColumn() == (2, 2))
            try tokenizer.beginArray()
            #expect(try tokenizer.nextElement())
            #expect(tokenizer.lineAndColumn() == (2, 4))
            _ = try tokenizer.readNumber()
            #expect(try tokenizer.nextElement())
            #expect(tokenizer.lineAndColumn() == (3, 2))
            let stringStart = tokenizer.offset
            #expect(try tokenizer.readString() == "ü")
            #expect(try tokenizer.nextElement())
            #expect(tokenizer.lineAndColumn() == (4, 2))
            // Offsets already passed: a search, not a rescan.
            #expect(tokenizer.lineAndColumn(of: stringStart) == (3, 2))
            #expect(tokenizer.lineAndColumn(of: 4) == (1, 2))
            #expect(tokenizer.lineAndColumn(of: 5) == (1, 3))
            #expect(tokenizer.lineAndColumn(of: 7) == (1, 4))
            #expect(tokenizer.lineAndColumn(of: 11) == (1, 5))
        }
    }

    @Test func aLongLineIsCountedOnceNotOncePerToken() throws {
        // 200k members on one line: columns asked at every key stay linear.
        var text = "{"
        for index in 0..<200_000 { text += (index == 0 ? "" : ",") + "\"k\(index)\":\(index)" }
        text += "}"
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            try Array(text.utf8).withUnsafeBufferPointer { buffer throws in
                var tokenizer = JSONTokenizer(buffer, recordsLines: true)
                try tokenizer.beginObject()
                var last = (line: 0, column: 0)
                while true {
                    last = tokenizer.lineAndColumn()
                    guard try tokenizer.nextKey() != nil else { break }
                    try tokenizer.skipValue()
                }
                #expect(last == (1, text.utf8.count))
            }
        }
        #expect(elapsed < .seconds(5))
    }

    /// The token stream, rebuilt as Foundation values, is what
    /// `JSONSerialization` reads from the same random documents.
    @Test func agreesWithFoundation() throws {
        var seed: UInt64 = 11
        func next() -> UInt64 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return seed >> 33
        }
        func randomValue(_ depth: Int) -> Any {
            switch next() % (depth > 3 ? 4 : 6) {
            case 0: return Int(next() % 2000) - 1000
            case 1: return Double(next() % 10000) / 100
            case 2: return ["", "a", "é\n\"", "😀\\/", "\u{7}\u{1F}", "\u{2028}\t"][Int(next() % 6)]
            case 3: return next() % 2 == 0
            case 4: return (0..<Int(next() % 4)).map { _ in randomValue(depth + 1) }
            default:
                var object: [String: Any] = [:]
                for index in 0..<Int(next() % 4) { object["k\(index)\u{1}"] = randomValue(depth + 1) }
                return object
            }
        }
        func build(_ token: JSONToken, _ tokenizer: inout JSONTokenizer) throws -> Any {
            switch token {
            case .string(let string): return string
            case .number(let number): return Double(tokenizer.text(of: number))!
            case .bool(let flag): return flag
            case .null: return NSNull()
            case .arrayStart:
                var array: [Any] = []
                while true {
                    let next = try tokenizer.next()
                    if next == .arrayEnd { return array }
                    array.append(try build(next, &tokenizer))
                }
            case .objectStart:
                var object: [String: Any] = [:]
                while case .key(let key) = try tokenizer.next() { object[key] = try build(try tokenizer.next(), &tokenizer) }
                return object
            default:
                Issue.record("\(token) where a value starts")
                return NSNull()
            }
        }
        for _ in 0..<500 {
            let document: [String: Any] = ["v": randomValue(0)]
            let data = try JSONSerialization.data(withJSONObject: document)
            let ours = try [UInt8](data).withUnsafeBufferPointer { buffer throws in
                var tokenizer = JSONTokenizer(buffer)
                let value = try build(try tokenizer.next(), &tokenizer)
                #expect(try tokenizer.next() == .end)
                return value
            }
            #expect(NSDictionary(dictionary: ours as! [String: Any]) == NSDictionary(dictionary: document))
        }
    }
}
