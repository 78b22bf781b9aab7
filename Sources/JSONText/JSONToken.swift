/// One token of a JSON text, as ``JSONTokenizer/next()`` gives them.
///
/// Commas and colons are not tokens: the tokenizer checks them. Within an
/// object, tokens come as `key` then the member's value, until `objectEnd`.
package enum JSONToken: Equatable, Sendable {
    /// `{`
    case objectStart
    /// `}`
    case objectEnd
    /// `[`
    case arrayStart
    /// `]`
    case arrayEnd
    /// A member's name; the member's value follows.
    case key(String)
    /// A string value, its escapes decoded.
    case string(String)
    /// A number value, as written.
    case number(JSONNumberLiteral)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// Nothing but white space follows the top-level value.
    case end
}

/// A number as written: where its text is, and what the text says of it.
package struct JSONNumberLiteral: Equatable, Sendable {
    /// Its bytes in the text.
    package let range: Range<Int>
    /// Written without a fraction or an exponent.
    package let isInteger: Bool
    /// Digits after the decimal point, less the exponent, never below 0:
    /// "1.50" has 2, "1e-3" has 3, "15e-1" has 1, "1.5e3" has 0.
    package let fractionDigits: Int

    /// A literal's description (the tokenizer makes them; tests compare them).
    package init(range: Range<Int>, isInteger: Bool, fractionDigits: Int) {
        self.range = range
        self.isInteger = isInteger
        self.fractionDigits = fractionDigits
    }
}

/// The kinds of JSON value, named as messages name them.
package enum JSONValueKind: String, Sendable {
    case object, array, string, number, boolean, null
}
