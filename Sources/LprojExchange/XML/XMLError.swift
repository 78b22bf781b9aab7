public import LprojTables

/// Why an XML document was refused, and where: the first thing wrong, at
/// its line and column (Unicode scalars from the start of the line, as
/// every table diagnostic counts them).
public struct XMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where reading stopped.
    public let location: SourceLocation
    /// What was wrong there, as one sentence.
    public let message: String

    /// Creates an error.
    public init(location: SourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    /// `line:column: message`.
    public var description: String { "\(location): \(message)" }
}
