internal import Foundation

/// Numbers as the C locale writes them: ASCII digits, '.' as the decimal
/// separator, no grouping. Used where no locale applies, and in tests of
/// the format grammar.
public struct POSIXNumberRenderer: NumberRendering {
    /// Creates the renderer.
    public init() {}

    public func format(_ value: Int64, style: NumberStyle) -> String {
        var digits = String(value.magnitude)
        if digits.count < style.minimumIntegerDigits {
            digits = String(repeating: "0", count: style.minimumIntegerDigits - digits.count) + digits
        }
        return sign(negative: value < 0, style) + digits
    }

    public func format(_ value: Double, style: NumberStyle) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        switch style.notation {
        case .integer:
            return format(Int64(exactly: value.rounded(.toNearestOrEven)) ?? 0, style: style)
        case .fraction(let digits):
            return String(
                format:
                    "%\(style.alwaysSign ? "+" : "")0\(style.minimumIntegerDigits + (digits > 0 ? digits + 1 : 0) + (value < 0 || style.alwaysSign ? 1 : 0)).\(digits)f",
                value)
        case .significant(let minimum, let maximum, let scientific):
            if scientific {
                return String(format: "%\(style.alwaysSign ? "+" : "").\(max(0, minimum - 1))E", value)
            }
            return String(format: "%\(style.alwaysSign ? "+" : "").\(maximum)g", value)
        case .shortest:
            let text = String(value)
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
    }

    private func sign(negative: Bool, _ style: NumberStyle) -> String {
        negative ? "-" : (style.alwaysSign ? "+" : "")
    }
}
