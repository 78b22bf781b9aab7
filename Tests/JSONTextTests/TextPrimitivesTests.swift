import JSONText
import Testing

@Suite struct TextPrimitivesTests {
    @Test func everyByteHasTheHexValueTheStandardLibraryGivesIt() {
        for byte in UInt8.min...UInt8.max {
            let expected = byte < 0x80 ? UInt8(String(UnicodeScalar(byte)), radix: 16) : nil
            #expect(Hexadecimal.value(of: byte) == expected, "byte \(byte)")
        }
    }

    @Test func hexIsWrittenUpperCaseAndPadded() {
        #expect(Hexadecimal.uppercase(0xA, minimumWidth: 4) == "000A")
        #expect(Hexadecimal.uppercase(0xD83D, minimumWidth: 4) == "D83D")
        #expect(Hexadecimal.uppercase(0x10FFFF, minimumWidth: 4) == "10FFFF")
        #expect(Hexadecimal.uppercase(0, minimumWidth: 1) == "0")
    }

    @Test func scalarsBecomeTheirUTF8() {
        for value: UInt32 in [0, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x20AC, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF] {
            var bytes: [UInt8] = [0x2A]
            UnicodeBytes.appendUTF8(value, to: &bytes)
            #expect(bytes == [0x2A] + Array(String(Unicode.Scalar(value)!).utf8), "U+\(Hexadecimal.uppercase(value, minimumWidth: 4))")
        }
        // What is not a scalar becomes U+FFFD.
        for value: UInt32 in [0xD800, 0xDFFF, 0x110000] {
            var bytes: [UInt8] = []
            UnicodeBytes.appendUTF8(value, to: &bytes)
            #expect(bytes == [0xEF, 0xBF, 0xBD])
        }
    }

    @Test func surrogatePairsGiveTheScalarUTF16Decodes() {
        for (high, low): (UInt16, UInt16) in [(0xD800, 0xDC00), (0xD83D, 0xDE00), (0xDBFF, 0xDFFF), (0xD834, 0xDD1E)] {
            let decoded = String(decoding: [high, low], as: UTF16.self).unicodeScalars.first!.value
            #expect(UnicodeBytes.scalar(high: UInt32(high), low: UInt32(low)) == decoded)
        }
    }
}
