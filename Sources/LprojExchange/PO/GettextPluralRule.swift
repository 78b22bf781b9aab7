/// A gettext `Plural-Forms` header (`nplurals=3; plural=(n%10==1 ? 0 : …);`),
/// parsed and evaluated as gettext evaluates it: C's integer arithmetic on
/// `n`, with `?:`, `||`, `&&`, comparisons, `+ - * / %` and `!`.
package struct GettextPluralRule: Sendable, Hashable {
    package let count: Int
    package let text: String
    private let expression: Expression

    indirect enum Expression: Sendable, Hashable {
        case n
        case number(UInt64)
        case not(Expression)
        case binary(String, Expression, Expression)
        case conditional(Expression, Expression, Expression)
    }

    /// The longest header read, and the most operators and operands in its
    /// expression: gettext's longest real formula (Arabic's) has about 40,
    /// and every node is evaluated, and freed, by recursion.
    static let maximumLength = 4096
    static let maximumNodes = 512

    /// Parses a header's value; nil when it is not one (or past the bounds:
    /// `plural=n+n+…` of 400 KB once overflowed the stack).
    package init?(_ header: String) {
        guard header.utf8.count <= Self.maximumLength else { return nil }
        var count: Int?
        var plural: String?
        for part in header.split(separator: ";") {
            let field = part.trimmingSpaces
            if field.hasPrefix("nplurals=") { count = Int(field.dropFirst(9).trimmingSpaces) }
            if field.hasPrefix("plural=") { plural = String(field.dropFirst(7)) }
        }
        guard let count, (1...6).contains(count), let plural else { return nil }
        var parser = Parser(text: Array(plural.utf8))
        guard let expression = parser.parseConditional(), parser.atEnd else { return nil }
        self.count = count
        self.text = header.trimmingSpaces
        self.expression = expression
    }

    /// The form gettext picks for `n` (clamped to the forms there are, as gettext does not: an out-of-range index is reported).
    package func index(for n: UInt64) -> Int {
        Int(clamping: Self.evaluate(expression, n))
    }

    static func evaluate(_ expression: Expression, _ n: UInt64) -> UInt64 {
        switch expression {
        case .n: return n
        case .number(let value): return value
        case .not(let inner): return evaluate(inner, n) == 0 ? 1 : 0
        case .conditional(let condition, let then, let otherwise):
            return evaluate(condition, n) != 0 ? evaluate(then, n) : evaluate(otherwise, n)
        case .binary(let operation, let left, let right):
            let a = evaluate(left, n)
            if operation == "&&" { return a != 0 && evaluate(right, n) != 0 ? 1 : 0 }
            if operation == "||" { return a != 0 || evaluate(right, n) != 0 ? 1 : 0 }
            let b = evaluate(right, n)
            switch operation {
            case "==": return a == b ? 1 : 0
            case "!=": return a != b ? 1 : 0
            case "<": return a < b ? 1 : 0
            case ">": return a > b ? 1 : 0
            case "<=": return a <= b ? 1 : 0
            case ">=": return a >= b ? 1 : 0
            case "+": return a &+ b
            case "-": return a &- b
            case "*": return a &* b
            case "/": return b == 0 ? 0 : a / b
            case "%": return b == 0 ? 0 : a % b
            default: return 0
            }
        }
    }

    /// A recursive-descent parser of gettext's grammar (bounded depth).
    struct Parser {
        let text: [UInt8]
        var position = 0
        var depth = 0
        /// Nodes made so far: a long chain of `+` makes a deep tree
        /// without any parenthesis.
        var nodes = 0

        /// Counts a node; false past the bound.
        mutating func made() -> Bool {
            nodes += 1
            return nodes <= GettextPluralRule.maximumNodes
        }

        var atEnd: Bool {
            mutating get {
                skipSpaces()
                return position == text.count
            }
        }

        mutating func skipSpaces() {
            while position < text.count, text[position] == 0x20 || text[position] == 0x09 { position += 1 }
        }

        mutating func take(_ token: String) -> Bool {
            skipSpaces()
            let bytes = Array(token.utf8)
            guard position + bytes.count <= text.count, Array(text[position..<(position + bytes.count)]) == bytes else { return false }
            // `=` alone is not `==`; `<` must not eat `<=`.
            if bytes.count == 1, position + 1 < text.count, text[position + 1] == UInt8(ascii: "="), token != "!" && token != "=" {
                if token == "<" || token == ">" { return false }
            }
            position += bytes.count
            return true
        }

        mutating func parseConditional() -> Expression? {
            depth += 1
            defer { depth -= 1 }
            guard depth < 64, let condition = parseBinary(level: 0) else { return nil }
            guard take("?") else { return condition }
            guard let then = parseConditional(), take(":"), let otherwise = parseConditional(), made() else { return nil }
            return .conditional(condition, then, otherwise)
        }

        static let levels: [[String]] = [["||"], ["&&"], ["==", "!="], ["<=", ">=", "<", ">"], ["+", "-"], ["*", "/", "%"]]

        mutating func parseBinary(level: Int) -> Expression? {
            guard level < Self.levels.count else { return parseUnary() }
            guard var left = parseBinary(level: level + 1) else { return nil }
            outer: while true {
                for operation in Self.levels[level] where take(operation) {
                    guard let right = parseBinary(level: level + 1), made() else { return nil }
                    left = .binary(operation, left, right)
                    continue outer
                }
                return left
            }
        }

        mutating func parseUnary() -> Expression? {
            depth += 1
            defer { depth -= 1 }
            guard depth < 64 else { return nil }
            if take("!") {
                guard made() else { return nil }
                return parseUnary().map { .not($0) }
            }
            if take("(") {
                guard let inner = parseConditional(), take(")") else { return nil }
                return inner
            }
            skipSpaces()
            guard made() else { return nil }
            if position < text.count, text[position] == UInt8(ascii: "n") {
                position += 1
                return .n
            }
            var value: UInt64 = 0
            let start = position
            while position < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[position]), position - start < 18 {
                value = value * 10 + UInt64(text[position] - UInt8(ascii: "0"))
                position += 1
            }
            return position > start ? .number(value) : nil
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line ends.
    var trimmingSpaces: String {
        let scalars = Array(unicodeScalars)
        var start = 0, end = scalars.count
        while start < end, scalars[start] == " " || scalars[start] == "\t" || scalars[start] == "\n" { start += 1 }
        while end > start, scalars[end - 1] == " " || scalars[end - 1] == "\t" || scalars[end - 1] == "\n" { end -= 1 }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }
}
