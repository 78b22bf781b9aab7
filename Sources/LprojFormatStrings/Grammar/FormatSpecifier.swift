/// One `%` conversion in a format string, as Core Foundation parses it.
public struct FormatSpecifier: Sendable, Hashable {
    /// How a width or precision is given.
    public enum Amount: Sendable, Hashable {
        /// Written in the format (`%5d`, `%.2f`).
        case fixed(Int)
        /// Taken from an integer argument (`%*d`, `%.*f`, `%*3$d`); the
        /// 1-based position when written with `n$`.
        case argument(position: Int?)
    }

    /// The length modifier (`hh h l ll q L z t j`), which only says how big
    /// the C argument is; lprojd's typed arguments make it irrelevant except
    /// for checking.
    public enum Length: String, Sendable, Hashable {
        case none = "", char = "hh", short = "h", long = "l", longLong = "ll", quad = "q", longDouble = "L", size = "z", pointerDifference =
            "t", maximum = "j"
    }

    /// The conversion character.
    public enum Conversion: Character, Sendable, Hashable, CaseIterable {
        case signedDecimal = "d", integer = "i", unsignedDecimal = "u", octal = "o", hex = "x", upperHex = "X"
        case longDecimal = "D", longUnsigned = "U", longOctal = "O"
        case fixed = "f", upperFixed = "F", exponent = "e", upperExponent = "E", general = "g", upperGeneral = "G"
        case hexFloat = "a", upperHexFloat = "A"
        case character = "c", unicharacter = "C"
        case cString = "s", unicharString = "S"
        case object = "@"
        case pointer = "p", count = "n"

        /// What kind of argument the conversion consumes.
        public var argumentKind: ArgumentKind {
            switch self {
            case .signedDecimal, .integer, .unsignedDecimal, .octal, .hex, .upperHex, .longDecimal, .longUnsigned, .longOctal: .integer
            case .fixed, .upperFixed, .exponent, .upperExponent, .general, .upperGeneral, .hexFloat, .upperHexFloat: .floatingPoint
            case .character, .unicharacter: .character
            case .cString, .unicharString: .string
            case .object: .object
            case .pointer, .count: .pointer
            }
        }
    }

    /// The 1-based argument position when written as `%n$...`.
    public var position: Int?
    /// `-`: left-justify.
    public var leftJustified = false
    /// `+`: always show a sign.
    public var alwaysSign = false
    /// ` `: a space where a plus sign would go.
    public var spaceForSign = false
    /// `0`: pad with zeros.
    public var zeroPadded = false
    /// `#`: the alternate form.
    public var alternate = false
    /// The minimum field width.
    public var width: Amount?
    /// The precision.
    public var precision: Amount?
    /// The length modifier.
    public var length: Length = .none
    /// The conversion.
    public var conversion: Conversion
    /// The specifier as written, from `%` to the conversion character.
    public var text: String

    /// Creates a specifier; parsing is the usual way to get one.
    public init(conversion: Conversion, text: String) {
        self.conversion = conversion
        self.text = text
    }
}

/// The kinds of argument a format can consume.
public enum ArgumentKind: String, Sendable, Hashable, CustomStringConvertible {
    case integer
    case floatingPoint = "floating-point number"
    case character
    case string
    case object
    case pointer
    /// The number that selects a plural form (`%#@name@`).
    case pluralNumber = "number"

    public var description: String { rawValue }
}

/// A plural variable reference, `%#@name@` (also `%1$#@name@` and the
/// tolerated `%1#@name@`).
public struct VariableReference: Sendable, Hashable {
    /// The variable's name.
    public var name: String
    /// The 1-based argument position when written as `%n$#@name@`.
    public var position: Int?
    /// The reference as written.
    public var text: String
    /// Whether the position was written without a `$` (`%1#@name@`).
    /// lprojd reads the digits as the position, as authors intend; Foundation
    /// reads them as a width. The linter warns about it.
    public var hasPositionWithoutDollar: Bool
}
