/// A stringsdict entry: `NSStringLocalizedFormatKey` and the variables it uses.
public struct PluralFormat: Sendable, Hashable {

    /// `NSStringLocalizedFormatKey` as written.
    public let formatKey: String
    /// The same, parsed.
    public let format: FormatString
    /// The variables by name.
    public let variables: [String: PluralVariable]

    /// Validates an entry: every referenced variable exists and has an
    /// `other` form, no reference is malformed, and no variable refers to
    /// itself through its forms. Throws the first problem found, so a broken
    /// entry is left out rather than rendered wrongly.
    public init(formatKey: String, variables: [String: PluralVariable]) throws(PluralFormatError) {
        self.formatKey = formatKey
        self.format = FormatString(formatKey)
        self.variables = variables
        try Self.check(format, path: "NSStringLocalizedFormatKey", variables: variables, trail: [])
    }

    private static func check(_ format: FormatString, path: String, variables: [String: PluralVariable], trail: [String])
        throws(PluralFormatError)
    {
        for segment in format.segments {
            switch segment {
            case .malformedVariable(let text):
                throw PluralFormatError(path: path, message: "'\(text)' is not a valid variable reference; write %#@name@")
            case .variable(let reference):
                guard let variable = variables[reference.name] else {
                    throw PluralFormatError(
                        path: path, message: "refers to the variable '\(reference.name)', which the entry does not define")
                }
                guard !trail.contains(reference.name) else {
                    throw PluralFormatError(path: path, message: "the variable '\(reference.name)' refers to itself")
                }
                guard variable.forms[.other] != nil else {
                    throw PluralFormatError(
                        path: reference.name, message: "the variable has no 'other' form, which every plural variable needs")
                }
                for category in PluralCategory.allCases {
                    guard let form = variable.parsedForms[category] else { continue }
                    try check(form, path: "\(reference.name)/\(category)", variables: variables, trail: trail + [reference.name])
                }
            case .literal, .specifier, .unknown, .incomplete:
                break
            }
        }
    }
}

/// What is wrong with an entry, with the path to the offending part
/// (`"files/other"`), relative to the entry.
public struct PluralFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path inside the entry ("NSStringLocalizedFormatKey", "files", "files/other").
    public let path: String
    /// What is wrong.
    public let message: String

    /// Creates a problem report.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
