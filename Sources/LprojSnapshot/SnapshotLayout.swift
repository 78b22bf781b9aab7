/// Where each part of a snapshot is: the numbers of `docs/snapshot-format.md`,
/// written once, for the writer and the reader.
enum SnapshotLayout {
    static let magic: [UInt8] = Array("LPROJSNP".utf8)
    /// Readers refuse another major version; a higher minor version only
    /// adds what they may ignore.
    static let majorVersion: UInt16 = 1
    static let minorVersion: UInt16 = 0
    static let headerSize = 96
    static let entrySize = 32
    static let pluralHeaderSize = 20
    static let variableSize = 64
    /// A reference's length that says "absent" (an optional text).
    static let absent = UInt32.max

    // Header fields, by offset.
    static let versionMajor = 8, versionMinor = 10, headerSizeField = 12, generation = 16, fileSize = 24, checksumField = 28
    static let bundle = 32, locale = 40, pluralRulesLocale = 48
    static let tableCount = 56, tablesOffset = 60
    static let sourceCount = 64, sourcesOffset = 68
    static let entryCount = 72, entriesOffset = 76
    static let bucketCount = 80, indexOffset = 84
    static let developmentLocale = 88

    // An entry's fields, from its start.
    static let entryKey = 0, entryValue = 8, entryTable = 16, entrySource = 18, entryPlural = 20, entrySignature = 24

    /// The plural categories in the order a variable lists its forms.
    static let categoryOrder = ["zero", "one", "two", "few", "many", "other"]

    /// FNV-1a (32 bits) of a table's name, a zero byte and a key, as UTF-8:
    /// where an entry's search starts in the index.
    static func hash(table: some Sequence<UInt8>, key: some Sequence<UInt8>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in table { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        hash = (hash ^ 0) &* 16_777_619
        for byte in key { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }

    /// CRC-32 (ISO-HDLC, as zlib computes it) of the whole file but the
    /// checksum's own four bytes.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for (position, byte) in bytes.enumerated() where !(checksumField..<checksumField + 4).contains(position) {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }
}
