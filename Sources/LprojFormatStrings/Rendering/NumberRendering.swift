/// How a number should look, independent of any locale.
public struct NumberStyle: Sendable, Hashable {
    /// How many digits to show, and whether in scientific notation.
    public enum Notation: Sendable, Hashable {
        /// An integer (rounded if the value is not one).
        case integer
        /// Exactly this many fraction digits (`%.2f`).
        case fraction(digits: Int)
        /// Between `minimum` and `maximum` significant digits (`%e`, `%g`).
        case significant(minimum: Int, maximum: Int, scientific: Bool)
        /// The shortest form that reproduces the value, without grouping
        /// (how `%@` shows a number).
        case shortest
    }

    /// The digits.
    public var notation: Notation
    /// Show `+` for non-negative numbers.
    public var alwaysSign = false
    /// Pad the integer part with zeros to at least this many digits.
    public var minimumIntegerDigits = 1

    /// Creates a style.
    public init(notation: Notation, alwaysSign: Bool = false, minimumIntegerDigits: Int = 1) {
        self.notation = notation
        self.alwaysSign = alwaysSign
        self.minimumIntegerDigits = minimumIntegerDigits
    }
}

/// Formats numbers the way a locale writes them (digits, separators).
///
/// lprojd's implementation sits on ICU (`LprojLocales.ICUNumberRenderer`);
/// ``POSIXNumberRenderer`` writes them as the C locale does.
public protocol NumberRendering: Sendable {
    /// Formats an integer.
    func format(_ value: Int64, style: NumberStyle) -> String
    /// Formats a floating-point number.
    func format(_ value: Double, style: NumberStyle) -> String
}
