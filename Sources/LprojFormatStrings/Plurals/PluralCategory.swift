/// CLDR's plural categories, in CLDR's order.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    case zero, one, two, few, many, other

    public var description: String { rawValue }

    public static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A number as plural rules see it: an integer, or a decimal with a given
/// number of visible fraction digits (CLDR's operands `v` and `f`).
public enum PluralOperand: Sendable, Hashable {
    case integer(Int64)
    case decimal(Double, fractionDigits: Int)

    /// Whether the number is exactly zero (Apple's `zero` rule).
    public var isZero: Bool {
        switch self {
        case .integer(let value): value == 0
        case .decimal(let value, _): value == 0
        }
    }
}

/// The plural rules of one language.
public protocol PluralRuleSet: Sendable {
    /// The category CLDR assigns to the number.
    func category(for operand: PluralOperand) -> PluralCategory
    /// The categories the language distinguishes.
    var categories: Set<PluralCategory> { get }
}

/// CLDR's root rules: every number is "other". What applies when a
/// language's own rules cannot be had.
public struct RootPluralRules: PluralRuleSet {
    public init() {}
    public func category(for operand: PluralOperand) -> PluralCategory { .other }
    public var categories: Set<PluralCategory> { [.other] }
}
