/// A localizable string found in code: its key, the table it goes to, and
/// what the code says about it.
public struct ExtractedString: Sendable, Hashable {
    /// The key, as the table writes it (interpolations made specifiers).
    public var key: String
    /// The table (`Localizable` unless the code names another).
    public var table: String
    /// The value the code gives for the development language, if any
    /// (`value:`, `defaultValue:`); else the key is its own value.
    public var defaultValue: String?
    /// The comment for translators, if any.
    public var comment: String?
    /// Where it was found.
    public var location: Location

    public init(key: String, table: String = "Localizable", defaultValue: String? = nil, comment: String? = nil, location: Location) {
        self.key = key
        self.table = table
        self.defaultValue = defaultValue
        self.comment = comment
        self.location = location
    }
}

/// A place in a source file.
public struct Location: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: Location, rhs: Location) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

/// Something the extractor could not take, and why: a key that is not a
/// literal, an interpolation whose type it cannot tell.
public struct ExtractionWarning: Sendable, Hashable, CustomStringConvertible {
    public var location: Location
    public var message: String

    public init(location: Location, message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): warning: \(message)" }
}

/// What one file gave.
public struct ExtractionResult: Sendable {
    public var strings: [ExtractedString] = []
    public var warnings: [ExtractionWarning] = []

    public init(strings: [ExtractedString] = [], warnings: [ExtractionWarning] = []) {
        self.strings = strings
        self.warnings = warnings
    }

    public mutating func append(_ other: ExtractionResult) {
        strings += other.strings
        warnings += other.warnings
    }
}
