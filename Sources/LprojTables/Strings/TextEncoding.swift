internal import JSONText

/// The text encodings a `.strings` file can arrive in.
public enum TextEncoding: String, Sendable, Hashable {
    case utf8 = "UTF-8"
    case utf8WithBOM = "UTF-8 with BOM"
    case utf16LittleEndian = "UTF-16LE"
    case utf16BigEndian = "UTF-16BE"
    /// UTF-16 without a byte order mark: Foundation skips the first two bytes
    /// as if they were one and reads the rest little-endian.
    case utf16WithoutBOM = "UTF-16 without BOM"
    case utf32LittleEndian = "UTF-32LE"
    case utf32BigEndian = "UTF-32BE"

    /// Detects the encoding the way Core Foundation's property-list reader
    /// does, and returns how many leading bytes are a byte order mark.
    ///
    /// The checks, their order and their length thresholds match
    /// `encodingForXMLData` in CFPropertyList.c, so a file means the same here
    /// as it does to `PropertyListSerialization`.
    static func detect(_ bytes: UnsafeRawBufferPointer) -> (encoding: TextEncoding, skip: Int) {
        let count = bytes.count
        func byte(_ index: Int) -> UInt8 { bytes[index] }
        if count > 4 {
            if byte(0) == 0x00, byte(1) == 0x00, byte(2) == 0xFE, byte(3) == 0xFF { return (.utf32BigEndian, 4) }
            if byte(0) == 0xFF, byte(1) == 0xFE, byte(2) == 0x00, byte(3) == 0x00 { return (.utf32LittleEndian, 4) }
        }
        if count > 3, byte(0) == 0xEF, byte(1) == 0xBB, byte(2) == 0xBF { return (.utf8WithBOM, 3) }
        if count > 2 {
            if byte(0) == 0xFF, byte(1) == 0xFE { return (.utf16LittleEndian, 2) }
            if byte(0) == 0xFE, byte(1) == 0xFF { return (.utf16BigEndian, 2) }
            if byte(0) == 0x00 || byte(1) == 0x00 { return (.utf16WithoutBOM, 2) }
        }
        if count == 3, byte(0) == 0xEF, byte(1) == 0xBB, byte(2) == 0xBF { return (.utf8WithBOM, 3) }
        return (.utf8, 0)
    }
}

/// Text decoded to UTF-8 for parsing.
enum DecodedText {
    /// The input itself is valid UTF-8 from `offset` on.
    case inPlace(offset: Int)
    /// The input was transcoded; these are its UTF-8 bytes.
    case transcoded([UInt8])
}

enum TextDecoding {
    /// Converts file bytes to UTF-8, validating as it goes.
    ///
    /// UTF-8 must be valid (Foundation rejects the whole file otherwise);
    /// unpaired UTF-16 surrogates become U+FFFD, as they do when Foundation's
    /// strings bridge to Swift; a trailing odd byte of UTF-16 is ignored, as
    /// Foundation ignores it.
    static func decode(_ bytes: UnsafeRawBufferPointer, encoding: TextEncoding, skip: Int) throws(TableParseError) -> DecodedText {
        let body = UnsafeRawBufferPointer(rebasing: bytes[skip...])
        switch encoding {
        case .utf8, .utf8WithBOM:
            switch scanUTF8(body) {
            case .valid:
                return .inPlace(offset: skip)
            case .validWithStrayA9:
                return .transcoded(replacingStrayA9(body))
            case .invalid(let offset):
                throw TableParseError(
                    location: UTF8Lines.location(of: offset, in: body),
                    message:
                        "invalid UTF-8 (byte 0x\(Hexadecimal.uppercase(UInt32(body[offset]), minimumWidth: 2))); save the file as UTF-8, or as UTF-16 with a byte order mark"
                )
            }
        case .utf16LittleEndian, .utf16WithoutBOM:
            return .transcoded(utf16ToUTF8(body, bigEndian: false))
        case .utf16BigEndian:
            return .transcoded(utf16ToUTF8(body, bigEndian: true))
        case .utf32LittleEndian, .utf32BigEndian:
            return .transcoded(try utf32ToUTF8(body, bigEndian: encoding == .utf32BigEndian))
        }
    }

    enum UTF8Scan: Equatable {
        case valid
        /// Valid except for stray 0xA9 bytes, which Foundation reads as U+FFFD.
        case validWithStrayA9
        /// Invalid from this offset on: Foundation rejects the whole file.
        case invalid(offset: Int)
    }

    /// Checks UTF-8 the way Core Foundation's decoder accepts it.
    ///
    /// Measured on Foundation for Linux: every malformed sequence fails the
    /// file except a stray 0xA9 byte, which decodes to U+FFFD (the corpus
    /// tests and the differential fuzz test hold this in place).
    static func scanUTF8(_ bytes: UnsafeRawBufferPointer) -> UTF8Scan {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return .valid }
        var index = 0
        var strayA9 = false
        while index < count {
            // ASCII fast path, eight bytes at a time.
            if index + 8 <= count, base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
                continue
            }
            let lead = base.load(fromByteOffset: index, as: UInt8.self)
            if lead < 0x80 {
                index += 1
                continue
            }
            guard let length = validSequenceLength(base, at: index, count: count) else {
                if lead == 0xA9 {
                    strayA9 = true
                    index += 1
                    continue
                }
                return .invalid(offset: index)
            }
            index += length
        }
        return strayA9 ? .validWithStrayA9 : .valid
    }

    /// The length of the well-formed UTF-8 sequence at `index`, if it is one.
    private static func validSequenceLength(_ base: UnsafeRawPointer, at index: Int, count: Int) -> Int? {
        let lead = base.load(fromByteOffset: index, as: UInt8.self)
        let length: Int
        let minimum: UInt32
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF:
            length = 2
            minimum = 0x80
            scalar = UInt32(lead & 0x1F)
        case 0xE0...0xEF:
            length = 3
            minimum = 0x800
            scalar = UInt32(lead & 0x0F)
        case 0xF0...0xF4:
            length = 4
            minimum = 0x10000
            scalar = UInt32(lead & 0x07)
        default: return nil
        }
        guard index + length <= count else { return nil }
        for offset in 1..<length {
            let next = base.load(fromByteOffset: index + offset, as: UInt8.self)
            guard next & 0xC0 == 0x80 else { return nil }
            scalar = scalar << 6 | UInt32(next & 0x3F)
        }
        if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return nil }
        return length
    }

    /// The bytes with each stray 0xA9 replaced by U+FFFD.
    static func replacingStrayA9(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var index = 0
        while index < bytes.count {
            if bytes[index] >= 0x80, let base = bytes.baseAddress {
                if let length = validSequenceLength(base, at: index, count: bytes.count) {
                    output.append(contentsOf: bytes[index..<index + length])
                    index += length
                } else {
                    UnicodeBytes.appendUTF8(0xFFFD, to: &output)
                    index += 1
                }
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    static func utf16ToUTF8(_ bytes: UnsafeRawBufferPointer, bigEndian: Bool) -> [UInt8] {
        let units = bytes.count / 2
        var output: [UInt8] = []
        output.reserveCapacity(units + units / 2)
        @inline(__always) func unit(_ index: Int) -> UInt16 {
            let first = UInt16(bytes[index * 2]), second = UInt16(bytes[index * 2 + 1])
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        var index = 0
        while index < units {
            let value = unit(index)
            index += 1
            if value < 0x80 {
                output.append(UInt8(value))
            } else if value < 0xD800 || value > 0xDFFF {
                UnicodeBytes.appendUTF8(UInt32(value), to: &output)
            } else if value <= 0xDBFF, index < units, (0xDC00...0xDFFF).contains(unit(index)) {
                let low = unit(index)
                index += 1
                UnicodeBytes.appendUTF8(UnicodeBytes.scalar(high: UInt32(value), low: UInt32(low)), to: &output)
            } else {
                UnicodeBytes.appendUTF8(0xFFFD, to: &output)
            }
        }
        return output
    }

    static func utf32ToUTF8(_ bytes: UnsafeRawBufferPointer, bigEndian: Bool) throws(TableParseError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count / 4)
        var index = 0
        while index + 4 <= bytes.count {
            let b = (UInt32(bytes[index]), UInt32(bytes[index + 1]), UInt32(bytes[index + 2]), UInt32(bytes[index + 3]))
            let scalar = bigEndian ? b.0 << 24 | b.1 << 16 | b.2 << 8 | b.3 : b.3 << 24 | b.2 << 16 | b.1 << 8 | b.0
            guard scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                throw TableParseError(
                    location: UTF8Lines.location(of: output.count, in: output),
                    message: "invalid UTF-32 code point 0x\(Hexadecimal.uppercase(scalar, minimumWidth: 1))")
            }
            UnicodeBytes.appendUTF8(scalar, to: &output)
            index += 4
        }
        return output
    }
}
