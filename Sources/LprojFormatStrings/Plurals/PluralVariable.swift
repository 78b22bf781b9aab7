/// One variable of a stringsdict entry: a text per plural category.
public struct PluralVariable: Sendable, Hashable {
    /// `NSStringFormatValueTypeKey` ("d", "ld", "%ld", ".1f"), parsed;
    /// `nil` when the entry does not give one.
    public let valueType: FormatSpecifier?
    /// `NSStringFormatValueTypeKey` as written.
    public let valueTypeText: String?
    /// The text for each category the entry gives.
    public let forms: [PluralCategory: String]
    /// The same texts, parsed.
    public let parsedForms: [PluralCategory: FormatString]

    /// Creates a variable; ``PluralFormat`` validates it.
    public init(valueTypeText: String?, forms: [PluralCategory: String]) {
        self.valueTypeText = valueTypeText
        self.valueType = valueTypeText.flatMap(Self.parseValueType)
        self.forms = forms
        self.parsedForms = forms.mapValues(FormatString.init)
    }

    /// The form to use for a number: Apple's rule first (an explicit `zero`
    /// form wins for the value 0 in every language), then the category the
    /// language's rules assign, then `other`.
    public func form(for operand: PluralOperand, rules: any PluralRuleSet) -> (category: PluralCategory, format: FormatString) {
        if operand.isZero, let zero = parsedForms[.zero] { return (.zero, zero) }
        let category = rules.category(for: operand)
        if let format = parsedForms[category] { return (category, format) }
        return (.other, parsedForms[.other] ?? FormatString(""))
    }

    /// Creates a variable from forms already parsed.
    public init(valueTypeText: String?, parsedForms: [PluralCategory: FormatString]) {
        self.valueTypeText = valueTypeText
        self.valueType = valueTypeText.flatMap(Self.parseValueType)
        self.forms = parsedForms.mapValues(\.text)
        self.parsedForms = parsedForms
    }

    /// Parses `NSStringFormatValueTypeKey`, accepting both "ld" and "%ld".
    public static func parseValueType(_ text: String) -> FormatSpecifier? {
        let spelled = text.hasPrefix("%") ? text : "%" + text
        let parsed = FormatString(spelled)
        guard parsed.segments.count == 1, case .specifier(let specifier) = parsed.segments[0] else { return nil }
        return specifier
    }
}
