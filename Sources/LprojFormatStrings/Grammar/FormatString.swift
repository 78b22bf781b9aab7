/// A format string split into literal text, conversions and plural variables.
///
/// Parsing follows `__CFParseFormatSpec` in CFString.c, which is what
/// `String(format:)` and `localizedStringWithFormat` use: flags, width,
/// precision, length modifiers, positional `n$` arguments, `*` widths, and
/// the stringsdict extension `%#@name@`. It never fails: anything Foundation
/// would print oddly is kept as a segment that says what it is, so that the
/// renderer can reproduce Foundation and the linter can complain.
public struct FormatString: Sendable, Hashable {
    /// A piece of a format string.
    public enum Segment: Sendable, Hashable {
        /// Text printed as it is.
        case literal(String)
        /// A conversion that consumes an argument.
        case specifier(FormatSpecifier)
        /// A plural variable.
        case variable(VariableReference)
        /// `%` followed by a character that is no conversion. Foundation
        /// prints only `printed`: the character right after the `%`
        /// (so `%%` prints "%").
        case unknown(text: String, printed: String)
        /// `%#@` not followed by a well-formed `name@` (such as `%# @sites @`).
        case malformedVariable(text: String)
        /// A `%` at the very end; Foundation prints nothing for it.
        case incomplete(text: String)
    }

    /// The segments in order.
    public let segments: [Segment]
    /// The text it was parsed from.
    public let text: String

    /// Parses a format string.
    public init(_ text: String) {
        self.text = text
        var parser = FormatStringParser(text)
        self.segments = parser.parse()
    }

    /// Whether the string contains anything but literal text (and `%%`).
    public var hasArguments: Bool {
        segments.contains { segment in
            switch segment {
            case .specifier, .variable, .malformedVariable: true
            case .literal, .unknown, .incomplete: false
            }
        }
    }

    /// The plural variables referenced, in order of appearance.
    public var variableReferences: [VariableReference] {
        segments.compactMap { if case .variable(let reference) = $0 { reference } else { nil } }
    }

    /// The conversions, in order of appearance.
    public var specifiers: [FormatSpecifier] {
        segments.compactMap { if case .specifier(let specifier) = $0 { specifier } else { nil } }
    }
}

/// The character-level parser behind ``FormatString``.
private struct FormatStringParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var segments: [FormatString.Segment] = []
    private var literal = String.UnicodeScalarView()

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    mutating func parse() -> [FormatString.Segment] {
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "%" {
                flushLiteral()
                parseSpecifier()
            } else {
                literal.append(scalar)
                index += 1
            }
        }
        flushLiteral()
        return segments
    }

    private mutating func flushLiteral() {
        if !literal.isEmpty {
            segments.append(.literal(String(literal)))
            literal = String.UnicodeScalarView()
        }
    }

    private func text(from start: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<min(index, scalars.count)])
        return String(view)
    }

    /// Reads one conversion; `index` is at the `%`.
    private mutating func parseSpecifier() {
        let start = index
        index += 1
        var specifier = FormatSpecifier(conversion: .object, text: "")
        var seenDot = false
        var seenSharp = false
        var pendingStarForWidth = false
        var pendingStarForPrecision = false
        var digitsWithoutDollar = false

        func finish(_ conversion: FormatSpecifier.Conversion) {
            specifier.conversion = conversion
            specifier.text = text(from: start)
            segments.append(.specifier(specifier))
        }

        while true {
            guard index < scalars.count else {
                segments.append(.incomplete(text: text(from: start)))
                return
            }
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "#":
                // The alternate form for conversions; before '@' it marks a
                // plural variable instead.
                seenSharp = true
                specifier.alternate = true
            case " ":
                if !specifier.alwaysSign { specifier.spaceForSign = true }
            case "-":
                specifier.leftJustified = true
                specifier.zeroPadded = false
            case "+":
                specifier.alwaysSign = true
                specifier.spaceForSign = false
            case "0" where !seenDot:
                if !specifier.leftJustified { specifier.zeroPadded = true }
            case "0":
                specifier.precision = .fixed(0)
            case "1"..."9":
                var number = Int(scalar.value - 48)
                while index < scalars.count, let digit = asciiDigit(scalars[index]) {
                    number = number > 100_000_000 ? number : number * 10 + digit
                    index += 1
                }
                if index < scalars.count, scalars[index] == "$" {
                    index += 1
                    if pendingStarForPrecision {
                        specifier.precision = .argument(position: number)
                        pendingStarForPrecision = false
                    } else if pendingStarForWidth {
                        specifier.width = .argument(position: number)
                        pendingStarForWidth = false
                    } else {
                        specifier.position = number
                    }
                } else if seenDot {
                    specifier.precision = .fixed(number)
                } else {
                    specifier.width = .fixed(number)
                    digitsWithoutDollar = true
                }
            case "*":
                if seenDot {
                    specifier.precision = .argument(position: nil)
                    pendingStarForPrecision = true
                } else {
                    specifier.width = .argument(position: nil)
                    pendingStarForWidth = true
                }
            case ".":
                seenDot = true
                if specifier.precision == nil { specifier.precision = .fixed(0) }
            case "h":
                if index < scalars.count, scalars[index] == "h" {
                    index += 1
                    specifier.length = .char
                } else {
                    specifier.length = .short
                }
            case "l":
                if index < scalars.count, scalars[index] == "l" {
                    index += 1
                    specifier.length = .longLong
                } else {
                    specifier.length = .long
                }
            case "L": specifier.length = .longDouble
            case "q": specifier.length = .quad
            case "z": specifier.length = .size
            case "t": specifier.length = .pointerDifference
            case "j": specifier.length = .maximum
            case "@" where seenSharp:
                // `%1#@name@` is tolerated: its digits are read as the position
                // its authors meant, where Foundation would read a width.
                var position = specifier.position
                let tolerated = digitsWithoutDollar && position == nil
                if tolerated, case .fixed(let digits) = specifier.width { position = digits }
                parseVariable(start: start, position: position, digitsWithoutDollar: tolerated)
                return
            default:
                if let conversion = FormatSpecifier.Conversion(rawValue: Character(scalar)) {
                    finish(conversion)
                } else {
                    // Foundation prints the character right after the '%'.
                    let printed = start + 1 < scalars.count ? String(Character(scalars[start + 1])) : ""
                    segments.append(.unknown(text: text(from: start), printed: printed))
                }
                return
            }
        }
    }

    /// Reads `name@` after `%...#@`.
    private mutating func parseVariable(start: Int, position: Int?, digitsWithoutDollar: Bool) {
        let nameStart = index
        while index < scalars.count, isVariableNameScalar(scalars[index]) { index += 1 }
        guard index > nameStart, index < scalars.count, scalars[index] == "@" else {
            if index < scalars.count { index += 1 }
            segments.append(.malformedVariable(text: text(from: start)))
            return
        }
        var name = String.UnicodeScalarView()
        name.append(contentsOf: scalars[nameStart..<index])
        index += 1
        segments.append(
            .variable(
                VariableReference(
                    name: String(name), position: position, text: text(from: start),
                    hasPositionWithoutDollar: digitsWithoutDollar)))
    }

    private func asciiDigit(_ scalar: Unicode.Scalar) -> Int? {
        ("0"..."9").contains(scalar) ? Int(scalar.value - 48) : nil
    }

    /// Variable names are `[A-Za-z0-9_]+`, as Core Foundation reads them.
    private func isVariableNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_": true
        default: false
        }
    }
}
