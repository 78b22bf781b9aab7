/// Why a format string could not be filled with the arguments given.
///
/// Each case names what was expected, so that a client can fix its call.
public enum FormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The format needs an argument at `position` (1-based) that was not given.
    case missingArgument(position: Int, specifier: String, given: Int)
    /// The argument at `position` has the wrong type for its conversion.
    case argumentMismatch(position: Int, specifier: String, expected: ArgumentKind, actual: String)
    /// A plural variable is referenced that the entry does not define.
    case unknownVariable(name: String)
    /// A conversion lprojd cannot fill with typed arguments (`%p`, `%n`).
    case unsupportedConversion(specifier: String)
    /// A malformed plural variable reference such as `%# @sites @`.
    case malformedVariable(text: String)
    /// Plural variables nest too deeply (or refer to each other in a cycle).
    case nestingTooDeep(variable: String)
    /// The formatted text would be longer than the limit, in UTF-8 bytes.
    case tooLong(maximumBytes: Int)
    /// Rendering would take more than this many steps (plural forms that
    /// refer to other variables many times over).
    case tooComplex(maximumSteps: Int)
    /// Rendering would ask for more digits than this many work units
    /// (``FormatRenderer/maximumWork``): `%.4096g` a thousand times over
    /// is small text but seconds of work.
    case tooMuchWork(maximumWork: Int)

    public var description: String {
        switch self {
        case let .missingArgument(position, specifier, given):
            "\(specifier) needs argument \(position), but \(given == 1 ? "1 argument was" : "\(given) arguments were") given"
        case let .argumentMismatch(position, specifier, expected, actual):
            "argument \(position) is \(actual == "integer" ? "an" : "a") \(actual), but \(specifier) needs \(expected == .integer ? "an" : "a") \(expected)"
        case let .unknownVariable(name):
            "the format refers to the plural variable '\(name)', which the entry does not define"
        case let .unsupportedConversion(specifier):
            "\(specifier) cannot be filled with a typed argument"
        case let .malformedVariable(text):
            "'\(text)' is not a valid plural variable reference; write %#@name@"
        case let .nestingTooDeep(variable):
            "plural variables nest too deeply at '\(variable)' (a variable may refer to itself)"
        case let .tooLong(maximumBytes):
            "the formatted text would be longer than \(maximumBytes) bytes"
        case let .tooComplex(maximumSteps):
            "the format's plural variables refer to each other more than \(maximumSteps) times"
        case let .tooMuchWork(maximumWork):
            "the format's conversions would take more than \(maximumWork) units of work (digits, widths and precisions)"
        }
    }
}
