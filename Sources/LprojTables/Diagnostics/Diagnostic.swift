/// Something a parser or the linter has to say about a table file.
///
/// Diagnostics never stop a table from loading; a table that cannot load at
/// all throws a ``TableParseError`` instead.
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        case warning
        case error

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .warning && rhs == .error
        }
    }

    /// Whether this is an error or a warning.
    public let severity: Severity
    /// Where it applies, when the file format can tell.
    public let location: SourceLocation?
    /// A stable, machine-readable name (`duplicate-key`, `ignored-content`, ...).
    public let code: String
    /// One sentence for a person.
    public let message: String
    /// The key (or stringsdict key path) the diagnostic is about, if any.
    public let keyPath: String?
    /// For a file of many languages (a String Catalog), the language it is
    /// about, as the file spells it.
    public let language: String?

    /// Creates a diagnostic.
    public init(
        severity: Severity, location: SourceLocation?, code: String, message: String, keyPath: String? = nil, language: String? = nil
    ) {
        self.severity = severity
        self.location = location
        self.code = code
        self.message = message
        self.keyPath = keyPath
        self.language = language
    }

    /// `line:column: severity: message`, without a file name.
    public var description: String {
        let place = location.map { "\($0): " } ?? ""
        return "\(place)\(severity.rawValue): \(message)"
    }

    /// `file:line:column: severity: message`, as compilers print it.
    public func formatted(file: String) -> String {
        let place = location.map { ":\($0)" } ?? ""
        return "\(file)\(place): \(severity.rawValue): \(message)"
    }
}
