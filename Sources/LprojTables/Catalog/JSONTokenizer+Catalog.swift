internal import JSONText

/// The shared tokenizer as the catalog reader uses it: a file may start
/// with a byte order mark, and diagnostics say line and column.
extension JSONTokenizer {
    /// A tokenizer over a catalog file's bytes.
    init(catalog bytes: UnsafeBufferPointer<UInt8>) {
        self.init(bytes, skipsByteOrderMark: true, recordsLines: true)
    }

    /// The offset where the next token starts: cheap to take for every
    /// value, turned into a line and column by ``location(of:)`` only when
    /// a message needs it.
    mutating func valueStart() -> Int {
        offsetOfNextToken()
    }

    /// The line and column (in Unicode scalars) of the next token.
    mutating func location() -> SourceLocation {
        let (line, column) = lineAndColumn()
        return SourceLocation(line: line, column: column)
    }

    /// The line and column of an offset already read.
    func location(of offset: Int) -> SourceLocation {
        let (line, column) = lineAndColumn(of: offset)
        return SourceLocation(line: line, column: column)
    }
}
