/// Reads Apple's old-style `.strings` files with exactly the meaning Foundation gives them.
///
/// The grammar and its quirks follow `CFOldStylePList.c`, which
/// `PropertyListSerialization` uses on Linux, and the result is checked
/// against Foundation on every file of the shared corpus:
/// - `"key" = "value";`, unquoted keys and values (`[A-Za-z0-9_$/:.-]`),
///   `'single'` quotes, and the `"key";` shorthand (the value is the key);
/// - `/* */` and `//` comments between tokens; whitespace includes U+2028/29;
/// - escapes `\n \t \r \a \b \f \v \" \\`, up to three octal digits read as a
///   NeXTSTEP Latin byte, `\U` with up to four hex digits (UTF-16 code units,
///   so surrogate pairs combine); any other escaped character stands for
///   itself, so `\u203A` is the text "u203A";
/// - the last definition of a key wins;
/// - where a key should start but something else does, Foundation stops
///   reading and keeps what it has: the table is the same here, and a
///   diagnostic says what was ignored.
///
/// XML and binary property lists are handed to Foundation. Errors name the
/// line and column and say what was expected; any input gives a table or an
/// error, in time linear in its size.
public struct StringsParser: Sendable {
    /// Whether to record where each key is defined (the linter wants it; the
    /// daemon does not pay for it).
    public var recordsKeyLocations: Bool

    /// Creates a parser.
    public init(recordsKeyLocations: Bool = false) {
        self.recordsKeyLocations = recordsKeyLocations
    }

    /// Parses the bytes of a `.strings` file.
    public func parse(_ bytes: [UInt8]) throws(TableParseError) -> StringsFile {
        try bytes.withUnsafeBytes { buffer in Result { () throws(TableParseError) in try parse(buffer) } }.get()
    }

    /// Parses the bytes of a `.strings` file.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws(TableParseError) -> StringsFile {
        // Apple treats a zero-length file (or one holding only a byte order
        // mark) as an empty table; Foundation's parser alone would reject it.
        let (encoding, skip) = TextEncoding.detect(bytes)
        if bytes.count == skip {
            return StringsFile(
                table: .empty, otherValues: [], diagnostics: [], keyLocations: recordsKeyLocations ? [:] : nil, encoding: encoding,
                isPropertyList: false)
        }
        if bytes.starts(with: Self.binaryPropertyListMagic) {
            return try PropertyListStrings.read(bytes, encoding: encoding)
        }
        let decoded = try TextDecoding.decode(bytes, encoding: encoding, skip: skip)
        if case .transcoded(let utf8) = decoded, utf8.isEmpty {
            // Foundation rejects text that decodes to nothing (three bytes of
            // BOM-less UTF-16, say); only a truly empty file is an empty table.
            throw TableParseError(location: nil, message: "the file holds no text in \(encoding.rawValue)")
        }
        switch decoded {
        case .inPlace(let offset):
            return try parseUTF8(UnsafeRawBufferPointer(rebasing: bytes[offset...]), original: bytes, encoding: encoding)
        case .transcoded(let utf8):
            return try utf8.withUnsafeBytes { text in
                Result { () throws(TableParseError) in try parseUTF8(text, original: bytes, encoding: encoding) }
            }.get()
        }
    }

    private static let binaryPropertyListMagic: [UInt8] = Array("bplist".utf8)

    private func parseUTF8(_ text: UnsafeRawBufferPointer, original: UnsafeRawBufferPointer, encoding: TextEncoding) throws(TableParseError)
        -> StringsFile
    {
        var scanner = StringsScanner(text: text, recordsKeyLocations: recordsKeyLocations)
        switch try scanner.parseFile() {
        case .table:
            return scanner.finish(encoding: encoding)
        case .propertyList:
            // Foundation reads XML only when '<' comes first; hand it the
            // original bytes so its encoding handling applies unchanged.
            return try PropertyListStrings.read(original, encoding: encoding)
        }
    }
}
