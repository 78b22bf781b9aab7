import Foundation
import Testing
@testable import VarlinkProtocol

@Suite struct JSONTests {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func anObjectBuiltFromAMapIsSearchedAndExtendedLikeAParsedOne() {
        let keys = (0..<40).map { "k\($0)" }
        var object = JSONObject(uniqueKeys: keys, values: keys.indices.map { .int($0) })
        #expect(object["k7"] == .int(7))
        #expect(object["k39"] == .int(39))
        #expect(object["missing"] == nil)
        object["k40"] = .int(40)
        object["k7"] = .int(-7)
        #expect(object.count == 41)
        #expect(object["k7"] == .int(-7))
        #expect(object["k40"] == .int(40))
        object["k0"] = nil
        #expect(object["k0"] == nil && object["k1"] == .int(1) && object.count == 40)
    }

    @Test func valuesRoundTrip() throws {
        let text = #"{"a":[1,-2.5,true,false,null,"x\ny\"\\\u0001é😀"],"b":{},"c":[],"d":1.5e3}"#
        let value = try parse(text)
        let again = try JSONParser.parse(JSONWriter.encode(value))
        #expect(value == again)
        guard case .object(let object) = value else {
            Issue.record("not an object")
            return
        }
        #expect(object["a"] == [1, -2.5, true, false, nil, .string("x\ny\"\\\u{1}é😀")])
        #expect(object["d"] == .number(JSONNumber(1500, fractionDigits: 0)))
    }

    @Test func numbersKeepTheirWrittenFractionDigits() throws {
        guard case .number(let a) = try parse("1.50") else {
            Issue.record()
            return
        }
        #expect(a.fractionDigits == 2 && a.integer == nil && a.double == 1.5)
        guard case .number(let b) = try parse("42") else {
            Issue.record()
            return
        }
        #expect(b.integer == 42)
        guard case .number(let c) = try parse("1e-3") else {
            Issue.record()
            return
        }
        #expect(c.fractionDigits == 3)
        guard case .number(let d) = try parse("-0") else {
            Issue.record()
            return
        }
        #expect(d.integer == 0)
        guard case .number(let e) = try parse("9223372036854775808") else {
            Issue.record()
            return
        }
        #expect(e.integer == nil && e.double == 9223372036854775808)
    }

    @Test(arguments: [
        "", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "'x'", "01", "1.", "-", "1e", "tru", "nul",
        "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"a", "\"\u{1}\"", "[1] 2", "{\"a\":1,\"a\":2}", "1e999", "NaN",
    ])
    func malformedTextIsRejected(_ text: String) {
        #expect(throws: JSONParser.Error.self) { try parse(text) }
    }

    @Test func invalidUTF8IsRejected() {
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse([0x22, 0xC3, 0x22]) }
    }

    @Test func deepNestingIsRejectedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParser.Error.self) { try parse(deep) }
        let fine = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(throws: Never.self) { try parse(fine) }
    }

    @Test func writerEscapesWhatJSONRequires() throws {
        let bytes = JSONWriter.encode(.string("a\"b\\c\n\u{0}\u{1F}é"))
        #expect(String(decoding: bytes, as: UTF8.self) == #""a\"b\\c\n\u0000\u001fé""#)
        // Foundation reads what we write.
        let foundation = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? String
        #expect(foundation == "a\"b\\c\n\u{0}\u{1F}é")
    }

    /// The parser agrees with Foundation on random documents.
    @Test func agreesWithFoundation() throws {
        var seed: UInt64 = 7
        func next() -> UInt64 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return seed >> 33
        }
        func randomValue(_ depth: Int) -> Any {
            switch next() % (depth > 3 ? 4 : 6) {
            case 0: return Int(next() % 2000) - 1000
            case 1: return Double(next() % 10000) / 100
            case 2: return ["", "a", "é\n\"", "😀\\", "\u{7}"][Int(next() % 5)]
            case 3: return next() % 2 == 0
            case 4: return (0..<Int(next() % 4)).map { _ in randomValue(depth + 1) }
            default:
                var object: [String: Any] = [:]
                for index in 0..<Int(next() % 4) { object["k\(index)"] = randomValue(depth + 1) }
                return object
            }
        }
        for _ in 0..<500 {
            let document: [String: Any] = ["v": randomValue(0)]
            let data = try JSONSerialization.data(withJSONObject: document)
            let ours = try JSONParser.parse([UInt8](data))
            let back = try JSONSerialization.jsonObject(with: Data(JSONWriter.encode(ours)))
            #expect(NSDictionary(dictionary: back as! [String: Any]) == NSDictionary(dictionary: document))
        }
    }
}
