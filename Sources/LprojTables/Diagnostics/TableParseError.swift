/// A table file that cannot be read at all.
///
/// It carries where reading stopped and what was expected there, so that an
/// editor or `lprojctl lint` can point at it.
public struct TableParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where reading stopped, when known.
    public let location: SourceLocation?
    /// What went wrong, as one sentence ("expected ';' after the value of key \"a\"").
    public let message: String

    /// Creates a parse error.
    public init(location: SourceLocation?, message: String) {
        self.location = location
        self.message = message
    }

    /// `line:column: message`.
    public var description: String {
        location.map { "\($0): \(message)" } ?? message
    }

    /// This error as an error-severity diagnostic.
    public var diagnostic: Diagnostic {
        Diagnostic(severity: .error, location: location, code: "syntax", message: message)
    }
}
