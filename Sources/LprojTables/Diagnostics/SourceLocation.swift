/// A position in a table file: 1-based line and column.
///
/// Columns count Unicode scalars from the start of the line, so a position
/// means the same thing whether the file was UTF-8 or UTF-16. Lines end at
/// `\n`, `\r` or `\r\n`, as Foundation counts them.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 1-based line number.
    public let line: Int
    /// The 1-based column, in Unicode scalars.
    public let column: Int

    /// Creates a location from a 1-based line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`, as compilers print it.
    public var description: String { "\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
