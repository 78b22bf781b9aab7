/// A configuration that cannot be used, with what is wrong and where:
/// `file:line:column: message`, as compilers say it, or `file: message`
/// when no place in the file is to blame (the file cannot be read).
package struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as it was named to lprojd.
    package let file: String
    /// Where in the file, counted from 1; nil when the whole file is to blame.
    package let line: Int?
    /// The column on that line, counted from 1 in Unicode scalars.
    package let column: Int?
    /// What is wrong, for a person.
    package let message: String

    /// An error at a place in a file (or in no place of it).
    package init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, or `file: message`.
    package var description: String {
        guard let line else { return "\(file): \(message)" }
        return "\(file):\(line):\(column ?? 1): \(message)"
    }
}
