package import LprojTables

/// Why an XML document was refused, and where: the first thing wrong, at
/// its line and column (Unicode scalars from the start of the line, as
/// every table diagnostic counts them).
package struct XMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where reading stopped.
    package let location: SourceLocation
    /// What was wrong there, as one sentence.
    package let message: String

    /// Creates an error.
    package init(location: SourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    /// `line:column: message`.
    package var description: String { "\(location): \(message)" }
}
