/// A typed value for a format string: what a client passes to `Lookup`.
public enum FormatArgument: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case integer(Int64)
    /// A floating-point number. `fractionDigits` is how many fraction digits
    /// the caller wrote ("1.50" has 2), which decides its plural category;
    /// `nil` means the shortest form that reproduces the value.
    case float(Double, fractionDigits: Int? = nil)

    /// A short name of the argument's type, for error messages.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .float: "float"
        }
    }

    public var description: String {
        switch self {
        case .string(let string): string.debugDescription
        case .integer(let integer): String(integer)
        case .float(let value, _): String(value)
        }
    }

    /// Whether the argument can stand for `kind`.
    ///
    /// Integers may fill floating-point conversions (a JSON client cannot
    /// always tell 2 from 2.0); a float never fills an integer conversion,
    /// because truncating it would print a different number than was meant.
    public func fits(_ kind: ArgumentKind) -> Bool {
        switch (kind, self) {
        case (.integer, .integer): true
        case (.floatingPoint, .integer), (.floatingPoint, .float): true
        case (.pluralNumber, .integer), (.pluralNumber, .float): true
        case (.character, .integer): true
        case (.character, .string(let string)): string.unicodeScalars.count == 1
        case (.string, .string): true
        case (.object, _): true
        default: false
        }
    }
}
