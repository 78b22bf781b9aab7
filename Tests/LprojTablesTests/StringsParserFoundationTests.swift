import Foundation
import LprojTablesOracle
import Testing
@testable import LprojTables

/// The parser must give every `.strings` file the meaning Foundation gives it.
@Suite struct StringsParserFoundationTests {
    @Test func everyCorpusFileMatchesPropertyListSerialization() throws {
        let files = Corpus.files(withExtension: "strings")
        #expect(files.count > 900, "the shared corpus was not found at \(Corpus.root.path)")
        var compared = 0
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            let ours = FoundationReference.ours(bytes)
            if FoundationReference.isDocumentedDeviation(bytes) {
                #expect(ours == .table(strings: [:], others: [:]), "\(file.path): an empty file is an empty table")
                continue
            }
            let reference = FoundationReference.meaning(of: bytes)
            #expect(!reference.isFailure, "\(file.path): Foundation failed: \(reference)")
            #expect(ours == reference, "\(file.path)")
            compared += 1
        }
        #expect(compared > 900)
    }

    /// Hand-picked inputs for each quirk of Core Foundation's grammar.
    @Test(arguments: QuirkCases.all)
    func quirkMatchesFoundation(_ quirk: QuirkCase) {
        let ours = FoundationReference.ours(quirk.bytes)
        let reference = FoundationReference.meaning(of: quirk.bytes)
        #expect(ours == reference, "\(quirk.name): ours \(ours), Foundation \(reference)")
    }

    /// Random soup of the grammar's tokens: whatever Foundation makes of it,
    /// the parser must make the same, and never crash or hang.
    @Test func randomTokenSoupMatchesFoundation() {
        var generator = SplitMix(seed: FuzzSettings.seed ^ 0x5EED_1234)
        for round in 0..<FuzzSettings.rounds(3000) {
            let bytes = TokenSoup.make(using: &generator)
            if FoundationReference.isDocumentedDeviation(bytes) { continue }
            let ours = FoundationReference.ours(bytes)
            let reference = FoundationReference.meaning(of: bytes)
            #expect(
                ours == reference,
                "round \(round): \(String(decoding: bytes, as: UTF8.self).debugDescription)\nours \(ours)\nFoundation \(reference)")
            if ours != reference { return }
        }
    }

    /// Mostly well-formed entries with odd keys, values, escapes, comments
    /// and separators: exercises the paths where Foundation succeeds.
    @Test func structuredEntriesMatchFoundation() {
        var generator = SplitMix(seed: FuzzSettings.seed ^ 0xABCD)
        var successes = 0
        for round in 0..<FuzzSettings.rounds(3000) {
            let bytes = TokenSoup.makeStructured(using: &generator)
            if FoundationReference.isDocumentedDeviation(bytes) { continue }
            let ours = FoundationReference.ours(bytes)
            let reference = FoundationReference.meaning(of: bytes)
            if !reference.isFailure { successes += 1 }
            #expect(ours == reference, "round \(round): \(bytes)\nours \(ours)\nFoundation \(reference)")
            if ours != reference { return }
        }
        #expect(successes > FuzzSettings.rounds(3000) / 4, "the generator should mostly produce valid tables")
    }

    /// Corpus files with random bytes changed, inserted or removed.
    @Test func mutatedCorpusFilesMatchFoundation() throws {
        var generator = SplitMix(seed: FuzzSettings.seed ^ 42)
        let files = Corpus.files(withExtension: "strings").filter { (try? Data(contentsOf: $0).count) ?? 0 < 20_000 }
        try #require(!files.isEmpty)
        for round in 0..<FuzzSettings.rounds(400) {
            var bytes = try [UInt8](Data(contentsOf: files[Int(generator.next() % UInt64(files.count))]))
            for _ in 0..<(1 + Int(generator.next() % 4)) where !bytes.isEmpty {
                let index = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[index] = UInt8(truncatingIfNeeded: generator.next())
                case 1:
                    bytes.insert(TokenSoup.interestingBytes[Int(generator.next() % UInt64(TokenSoup.interestingBytes.count))], at: index)
                default: bytes.remove(at: index)
                }
            }
            if FoundationReference.isDocumentedDeviation(bytes) { continue }
            let ours = FoundationReference.ours(bytes)
            let reference = FoundationReference.meaning(of: bytes)
            #expect(ours == reference, "round \(round)\nours \(ours)\nFoundation \(reference)")
            if ours != reference { return }
        }
    }

    @Test func nextStepTableMatchesFoundation() {
        for byte in 0x80...0xFF {
            let text = "\"a\"=\"\\\(String(byte, radix: 8))\";"
            #expect(
                FoundationReference.ours(Array(text.utf8)) == FoundationReference.meaning(of: Array(text.utf8)),
                "octal \\\(String(byte, radix: 8))")
        }
    }
}

struct QuirkCase: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    var testDescription: String { name }

    init(_ name: String, _ text: String) {
        self.name = name
        self.bytes = Array(text.utf8)
    }

    init(_ name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

enum QuirkCases {
    static func utf16(_ text: String, bigEndian: Bool, bom: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = bom ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        return bytes
    }

    static let all: [QuirkCase] = [
        QuirkCase("plain", #""a" = "b";"#),
        QuirkCase("utf8 BOM", bytes: [0xEF, 0xBB, 0xBF] + Array(#""a"="b";"#.utf8)),
        QuirkCase("BOM in the middle stops the table", bytes: Array(#""a"="b";"#.utf8) + [0xEF, 0xBB, 0xBF] + Array(#""c"="d";"#.utf8)),
        QuirkCase("whitespace only", " \n\t "),
        QuirkCase("shorthand", #""a";"#),
        QuirkCase("junk after an entry is ignored", #""a"="b"; @@@ "c"="d";"#),
        QuirkCase("unterminated key is ignored", "\"a\"=\"b\";\n\"c = d;"),
        QuirkCase("single string", #""abc""#),
        QuirkCase("escapes", #""a"="\u203A \U203A \Uzz \U41x \' \\ \q \101\0 \377 \200 \a\b\f\v\t\r\n";"#),
        QuirkCase("surrogates", #""a"="\UD83D\UDE00 \UD83D \UDE00x \UD83D\UD83D";"#),
        QuirkCase("single quotes", "'a'='b';"),
        QuirkCase("unquoted", "a.b/c = d$e:f-g_h;"),
        QuirkCase("nested values", #""a" = { b = c; d; }; "e" = (x, "y"); "f" = <0a0B 1c>; "g" = ();"#),
        QuirkCase("nested value replaced by a string", #""a" = { b = c; }; "a" = "s";"#),
        QuirkCase("string replaced by nested value", #""a" = "s"; "a" = (x);"#),
        QuirkCase("duplicates", #""a"="1";"a"="2";"b"="3";"a"="4";"#),
        QuirkCase("braces", "{ a = b; }"),
        QuirkCase("braces with junk after", "{ a = b; } x"),
        QuirkCase("braces unclosed", "{ a = b; "),
        QuirkCase("backslash newline", "\"a\"=\"x\\\ny\";"),
        QuirkCase("backslash CRLF", "\"a\"=\"x\\\r\ny\";"),
        QuirkCase("missing semicolon", #""a"="b""#),
        QuirkCase("NUL in value", "\"a\"=\"b\u{0}c\";"),
        QuirkCase("invalid UTF-8", bytes: Array(#""a"=""#.utf8) + [0xFF] + Array(#"";"#.utf8)),
        QuirkCase("overlong UTF-8", bytes: Array(#""a"=""#.utf8) + [0xC0, 0xAF] + Array(#"";"#.utf8)),
        QuirkCase("UTF-8 surrogate", bytes: Array(#""a"=""#.utf8) + [0xED, 0xA0, 0x80] + Array(#"";"#.utf8)),
        QuirkCase("UTF-16LE", bytes: utf16(#""a"="b";"#, bigEndian: false)),
        QuirkCase("UTF-16BE", bytes: utf16("\"a\"=\"\u{1F600}\";\n/* é */", bigEndian: true)),
        QuirkCase("UTF-16LE without BOM", bytes: utf16(#""a"="b";"#, bigEndian: false, bom: false)),
        QuirkCase("UTF-16LE without BOM after a newline", bytes: utf16("\n\"a\"=\"b\";", bigEndian: false, bom: false)),
        QuirkCase("UTF-16BE without BOM", bytes: utf16(#""a"="b";"#, bigEndian: true, bom: false)),
        QuirkCase("UTF-16 odd length", bytes: utf16(#""a"="b";"#, bigEndian: false) + [0x41]),
        QuirkCase(
            "UTF-16 lone surrogate",
            bytes: [0xFF, 0xFE] + utf16(#""a"=""#, bigEndian: false, bom: false) + [0x00, 0xD8]
                + utf16(#"";"#, bigEndian: false, bom: false)),
        QuirkCase(
            "UTF-32LE",
            bytes: [0xFF, 0xFE, 0x00, 0x00]
                + Array(
                    #""a"="b";"#.unicodeScalars.flatMap { s -> [UInt8] in
                        let v = s.value
                        return [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), 0]
                    })),
        QuirkCase("line separator is space, NBSP is not", "\"a\"\u{2028}=\u{A0}\"b\";"),
        QuirkCase("comments", "// x\n\"a\"=/*c*/\"b\"; // y\n/* z */"),
        QuirkCase("unterminated comment at the end", #""a"="b"; /* x"#),
        QuirkCase("slash at the end", #""a"="b"; /"#),
        QuirkCase("key without value at the end", #""a"="b"; "c""#),
        QuirkCase("equals at the end", #""a"="#),
        QuirkCase("XML", #"  <?xml version="1.0"?><plist><dict><key>a</key><string>b</string></dict></plist>"#),
        QuirkCase("carriage returns", "\"a\"=\"b\";\r\"c\"=\"d\"\r;"),
        QuirkCase("array at the top", "(a, b)"),
        QuirkCase("data at the top", "<0a0b>"),
        QuirkCase("equals first", "= b;"),
        QuirkCase("unterminated escape at the end", "\"a\"=\"b\";\"c\\"),
        QuirkCase("unterminated value", "\"a\"=\"b;"),
        QuirkCase("array element failure is ignored", #""a" = ( { x = y ); "b" = c;"#),
        QuirkCase("array with unterminated string", #""a" = ( ")"#),
        QuirkCase("bad data", #""a" = <0g>;"#),
        QuirkCase("odd data", #""a" = <0a1>;"#),
        QuirkCase("unquoted value runs into a quote", #"a = b"c";"#),
        QuirkCase("key starting with slash", "/a = b;"),
        QuirkCase("comment right after a key", "a/*x*/=b;"),
        QuirkCase("bplist prefix that is text", "bplist = x;"),
        QuirkCase("closing brace at the top", #""a" = "b"; }"#),
    ]
}

/// A small, seedable random number generator, so failures reproduce.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum TokenSoup {
    static let tokens: [String] = [
        "\"", "'", "=", ";", "a", "key", " ", "\n", "\r", "\t", "/*", "*/", "//", "/", "\\", "\\U", "D83D", "DE00", "\\0", "12",
        "{", "}", "(", ")", ",", "<", ">", "0a", "é", "\u{2028}", "\u{A0}", "$", "@", "\"k\" = \"v\";", "x = y;", "\\n", "\"v\"",
        "\u{FEFF}", "\u{1F600}", "\\\"", "*", "\u{0}",
    ]
    static let interestingBytes: [UInt8] = [
        0x22, 0x27, 0x3D, 0x3B, 0x5C, 0x2F, 0x2A, 0x7B, 0x7D, 0x28, 0x29, 0x3C, 0x3E, 0x00, 0xFF, 0xC3, 0x0A,
    ]

    static let keys = [
        "\"k\"", "'k'", "k", "a.b", "\"\"", "\"k\\\"q\"", "\"é\"", "\"e\u{301}\"", "$x", "\"\\U00e9\"", "/p", "\"two\nlines\"",
    ]
    static let values = [
        "\"v\"", "'v'", "v", "\"\"", "\"%d %@ %1$@\"", "\"a\\nb\"", "\"\\UD83D\\UDE00\"", "\"\\UD83Dx\"", "\"\\101\\7\\400\"",
        "\"\\u00e9\"", "\"\\\n\"", "{ x = y; }", "(a, \"b\")", "<0a0b>", "\"\u{2028}\"", "\"tab\\tq\\'\"", "\"\\U\"", "\"\\U1\"",
    ]
    static let spaces = ["", " ", "\n", "\t", "/* c */", "// c\n", "\r\n", "\u{2028}", " /**/ "]

    static func makeStructured(using generator: inout SplitMix) -> [UInt8] {
        func pick(_ options: [String]) -> String { options[Int(generator.next() % UInt64(options.count))] }
        var text = pick(spaces)
        for _ in 0..<(1 + Int(generator.next() % 6)) {
            let key = pick(keys)
            if generator.next() % 8 == 0 {
                text += key + pick(spaces) + ";"
            } else {
                text += key + pick(spaces) + "=" + pick(spaces) + pick(values) + pick(spaces) + ";"
            }
            text += pick(spaces)
            if generator.next() % 25 == 0 { text += tokens[Int(generator.next() % UInt64(tokens.count))] }
        }
        return Array(text.utf8)
    }

    static func make(using generator: inout SplitMix) -> [UInt8] {
        let length = Int(generator.next() % 24)
        var text = ""
        for _ in 0..<length { text += tokens[Int(generator.next() % UInt64(tokens.count))] }
        return Array(text.utf8)
    }
}

/// Fuzz sizes: small in CI; `LPROJ_FUZZ_ROUNDS=100000 LPROJ_FUZZ_SEED=7 swift test`
/// runs a long hunt locally.
enum FuzzSettings {
    static func rounds(_ standard: Int) -> Int {
        ProcessInfo.processInfo.environment["LPROJ_FUZZ_ROUNDS"].flatMap(Int.init) ?? standard
    }

    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["LPROJ_FUZZ_SEED"].flatMap(UInt64.init) ?? 0
    }
}
