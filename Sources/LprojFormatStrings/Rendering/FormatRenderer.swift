internal import Foundation

/// Fills a format string with typed arguments, as `localizedStringWithFormat`
/// does with a stringsdict entry.
///
/// Arguments are numbered the way Core Foundation numbers them: each
/// conversion without `n$` takes the next argument (a `*` width or precision
/// first); a plural variable `%#@name@` takes one, picks the form its number
/// calls for, and formats that form with its own unnumbered conversions
/// starting at the variable's argument. So the form "%d files" shows the
/// variable's number, and `%2$#@accounts@` inside a form picks argument 2.
///
/// Localizable conversions (`%d %i %u %f %e %g` and their variants) go
/// through ``NumberRendering`` in the requested locale, with its digits and
/// separators; `%x %X %o %a` stay as C writes them, as in Foundation.
/// Mismatches are errors that name the argument, never a crash.
///
/// The text a client gets back is bounded: the output's size is checked
/// before each piece is added (a literal, a conversion, a padded field), so
/// rendering stops with ``FormatError/tooLong(maximumBytes:)`` as soon as it
/// would pass `maximumBytes`, after work proportional to that limit, however
/// often the format repeats a long argument.
///
/// So is the work, which the output's size does not show: `%.4096g` writes
/// a few digits after computing four thousand. Each number conversion, and
/// each plural form chosen, is charged ``conversionWork`` (plus the digits
/// a conversion's precision and width ask for), and every segment one unit,
/// before it is done; a rendering that would pass ``maximumWork``
/// stops with ``FormatError/tooMuchWork(maximumWork:)``, having spent at
/// most that: about a millisecond of one core, which bounds what any call
/// costs the loop or worker that answers it. Nine hundred conversions, or
/// seven of 4,096 digits, fit.
public struct FormatRenderer: Sendable {
    /// Writes numbers in the requested locale.
    public let numbers: any NumberRendering
    /// Chooses plural forms, in the language of the text being formatted.
    public let plurals: any PluralRuleSet

    /// How deeply plural variables may nest inside each other's forms.
    static let maximumDepth = 16
    /// How many segments one rendering may go through, forms included.
    public static let maximumSteps = 100_000
    /// The work units one rendering may spend (about 30 ns each).
    public static let maximumWork = 1 << 15
    /// What one number conversion costs besides its digits: a call into
    /// the number formatter, about a microsecond.
    static let conversionWork = 32

    /// Creates a renderer.
    public init(numbers: any NumberRendering, plurals: any PluralRuleSet) {
        self.numbers = numbers
        self.plurals = plurals
    }

    /// Formats `format` with `arguments`; `variables` are the entry's plural
    /// variables and `placeholders` fill `{name}` in the format's own text
    /// (never in argument values).
    public func render(
        _ format: FormatString, arguments: [FormatArgument],
        variables: [String: PluralVariable] = [:], placeholders: [String: String] = [:], maximumBytes: Int = .max
    ) throws(FormatError) -> String {
        var output = ""
        var context = Context(arguments: arguments, variables: variables, placeholders: placeholders, maximumBytes: maximumBytes)
        try append(format, to: &output, startingAt: 0, depth: 0, context: &context)
        return output
    }

    private struct Context {
        let arguments: [FormatArgument]
        let variables: [String: PluralVariable]
        let placeholders: [String: String]
        let maximumBytes: Int
        /// Segments rendered so far, plural forms' included: nested
        /// variables that each refer to others many times would otherwise
        /// multiply the work without adding output.
        var steps = 0
        /// Work units spent on conversions so far.
        var work = 0

        /// Charges a conversion's work before it is done.
        mutating func charge(_ units: Int) throws(FormatError) {
            work += units
            guard work <= FormatRenderer.maximumWork else { throw .tooMuchWork(maximumWork: FormatRenderer.maximumWork) }
        }

        /// Appends a piece if the output stays within the limit.
        func add(_ piece: String, to output: inout String) throws(FormatError) {
            guard output.utf8.count + piece.utf8.count <= maximumBytes else { throw .tooLong(maximumBytes: maximumBytes) }
            output += piece
        }

        /// What the output may still grow by.
        func room(after output: String) -> Int { maximumBytes - output.utf8.count }
    }

    private func append(_ format: FormatString, to output: inout String, startingAt firstArgument: Int, depth: Int, context: inout Context)
        throws(FormatError)
    {
        var next = firstArgument
        for segment in format.segments {
            context.steps += 1
            guard context.steps <= Self.maximumSteps else { throw .tooComplex(maximumSteps: Self.maximumSteps) }
            try context.charge(1)
            switch segment {
            case .literal(let text):
                if context.placeholders.isEmpty {
                    try context.add(text, to: &output)
                } else {
                    guard
                        let filled = Placeholders.substitute(
                            in: text, values: context.placeholders, maximumBytes: context.room(after: output))
                    else {
                        throw .tooLong(maximumBytes: context.maximumBytes)
                    }
                    output += filled
                }
            case .unknown(_, let printed):
                try context.add(printed, to: &output)
            case .incomplete:
                break
            case .malformedVariable(let text):
                throw .malformedVariable(text: text)
            case .specifier(let specifier):
                try render(specifier, next: &next, arguments: context.arguments, into: &output, context: &context)
            case .variable(let reference):
                let index = reference.position.map { $0 - 1 } ?? takeNext(&next)
                guard let variable = context.variables[reference.name] else { throw .unknownVariable(name: reference.name) }
                guard depth < Self.maximumDepth else { throw .nestingTooDeep(variable: reference.name) }
                // Choosing a form reads the number and applies the plural rules.
                try context.charge(Self.conversionWork)
                let argument = try argument(at: index, for: reference.text, kind: .pluralNumber, in: context.arguments)
                if let valueType = variable.valueType, !argument.fits(valueType.conversion.argumentKind) {
                    throw .argumentMismatch(
                        position: index + 1, specifier: reference.text, expected: valueType.conversion.argumentKind,
                        actual: argument.typeName)
                }
                let form = variable.form(for: operand(argument, valueType: variable.valueType), rules: plurals).format
                try append(form, to: &output, startingAt: index, depth: depth + 1, context: &context)
            }
        }
    }

    private func takeNext(_ next: inout Int) -> Int {
        defer { next += 1 }
        return next
    }

    private func argument(at index: Int, for specifier: String, kind: ArgumentKind, in arguments: [FormatArgument]) throws(FormatError)
        -> FormatArgument
    {
        guard index >= 0, index < arguments.count else {
            throw .missingArgument(position: index + 1, specifier: specifier, given: arguments.count)
        }
        let argument = arguments[index]
        guard argument.fits(kind) else {
            throw .argumentMismatch(position: index + 1, specifier: specifier, expected: kind, actual: argument.typeName)
        }
        return argument
    }

    /// The number a plural variable selects by. A float's visible fraction
    /// digits are the precision the value type spells (`.1f`), else the digits
    /// the caller wrote, else those of its shortest form.
    private func operand(_ argument: FormatArgument, valueType: FormatSpecifier?) -> PluralOperand {
        switch argument {
        case .integer(let value):
            return .integer(value)
        case .float(let value, let written):
            if case .fixed(let digits)? = valueType?.precision {
                return .decimal(value, fractionDigits: digits)
            }
            return .decimal(value, fractionDigits: written ?? Self.shortestFractionDigits(value))
        case .string:
            return .integer(0)  // unreachable: strings do not fit a plural number
        }
    }

    /// Fraction digits of the shortest decimal that reproduces `value`
    /// (1.5 has 1, 2.0 has 0, 1.5e-05 has 6).
    static func shortestFractionDigits(_ value: Double) -> Int {
        guard value.isFinite else { return 0 }
        let text = String(value.magnitude)
        let parts = text.split(separator: "e", maxSplits: 1)
        let mantissa = parts[0]
        var fraction = mantissa.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        if fraction == "0" { fraction = "" }
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        return max(0, fraction.count - exponent)
    }

    // MARK: - Conversions

    private func render(
        _ specifier: FormatSpecifier, next: inout Int, arguments: [FormatArgument], into output: inout String, context: inout Context
    ) throws(FormatError) {
        var width: Int?
        var leftJustified = specifier.leftJustified
        if case .argument(let position)? = specifier.width {
            let index = position.map { $0 - 1 } ?? takeNext(&next)
            guard case .integer(let value) = try argument(at: index, for: specifier.text, kind: .integer, in: arguments) else { return }
            if value < 0 { leftJustified = true }
            width = Int(clamping: value.magnitude)
        } else if case .fixed(let value)? = specifier.width {
            width = value
        }
        var precision: Int?
        if case .argument(let position)? = specifier.precision {
            let index = position.map { $0 - 1 } ?? takeNext(&next)
            guard case .integer(let value) = try argument(at: index, for: specifier.text, kind: .integer, in: arguments) else { return }
            precision = value < 0 ? nil : Int(clamping: value)
        } else if case .fixed(let value)? = specifier.precision {
            precision = value
        }
        // A field wider than any real UI needs is a mistake or an attack.
        width = width.map { min($0, 4096) }
        precision = precision.map { min($0, 4096) }

        let index = specifier.position.map { $0 - 1 } ?? takeNext(&next)
        let kind = specifier.conversion.argumentKind
        if kind == .pointer { throw .unsupportedConversion(specifier: specifier.text) }
        let value = try argument(at: index, for: specifier.text, kind: kind, in: arguments)
        // A number costs a call into the formatter; text only its copy,
        // which the output's limit already bounds.
        let base = kind == .integer || kind == .floatingPoint || kind == .object ? Self.conversionWork : 1
        try context.charge(base + (precision ?? 0) + (width ?? 0))
        let body = try renderBody(specifier, value: value, width: width, precision: precision, leftJustified: leftJustified)
        // The body's size is known before it is padded or copied: a field is
        // at most its body plus its width.
        guard body.utf8.count <= context.room(after: output) else { throw .tooLong(maximumBytes: context.maximumBytes) }
        try context.add(pad(body, to: width, leftJustified: leftJustified), to: &output)
    }

    private func renderBody(_ specifier: FormatSpecifier, value: FormatArgument, width: Int?, precision: Int?, leftJustified: Bool)
        throws(FormatError) -> String
    {
        let zeroPadWidth = specifier.zeroPadded && !leftJustified ? width : nil
        switch specifier.conversion {
        case .signedDecimal, .integer, .unsignedDecimal, .longDecimal, .longUnsigned:
            guard case .integer(let integer) = value else { return "" }
            // Foundation pads to the precision with zeros, or to the width
            // when the 0 flag is given; the zeros are the locale's digits.
            let minimumDigits = precision ?? zeroPadWidth ?? 1
            return numbers.format(
                integer,
                style: NumberStyle(notation: .integer, alwaysSign: specifier.alwaysSign, minimumIntegerDigits: max(1, minimumDigits)))
        case .octal, .hex, .upperHex, .longOctal:
            guard case .integer(let integer) = value else { return "" }
            return cInteger(integer, specifier, precision: precision, zeroPadWidth: zeroPadWidth)
        case .fixed, .upperFixed:
            let double = doubleValue(value)
            let digits = precision ?? 6
            var style = NumberStyle(notation: .fraction(digits: digits), alwaysSign: specifier.alwaysSign)
            if let zeroPadWidth {
                let signWidth = double < 0 || specifier.alwaysSign ? 1 : 0
                style.minimumIntegerDigits = max(1, zeroPadWidth - signWidth - (digits > 0 ? digits + 1 : 0))
            }
            return numbers.format(double, style: style)
        case .exponent, .upperExponent:
            let digits = (precision ?? 6) + 1
            return numbers.format(
                doubleValue(value),
                style: NumberStyle(
                    notation: .significant(minimum: digits, maximum: digits, scientific: true), alwaysSign: specifier.alwaysSign))
        case .general, .upperGeneral:
            let double = doubleValue(value)
            let digits = max(1, precision ?? 6)
            // C's rule: the exponent X of the value once rounded to `digits`
            // significant digits picks the notation (fixed when -4 <= X < digits),
            // so 999999.5 rounds to 1e+06 and is written in scientific notation.
            let exponent = Self.decimalExponent(double, significantDigits: digits)
            let scientific = double.isFinite && double != 0 && !(exponent >= -4 && exponent < digits)
            return numbers.format(
                double,
                style: NumberStyle(
                    notation: .significant(minimum: 1, maximum: digits, scientific: scientific), alwaysSign: specifier.alwaysSign))
        case .hexFloat, .upperHexFloat:
            return String(
                format: "%\(specifier.alwaysSign ? "+" : "")\(precision.map { ".\($0)" } ?? "")\(specifier.conversion.rawValue)",
                doubleValue(value))
        case .character, .unicharacter:
            switch value {
            case .integer(let code):
                guard let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: code)) else { return "\u{FFFD}" }
                return String(Character(scalar))
            case .string(let string):
                return string
            case .float:
                return ""
            }
        case .cString, .unicharString:
            guard case .string(let string) = value else { return "" }
            return precision.map { String(string.prefix($0)) } ?? string
        case .object:
            switch value {
            case .string(let string): return string
            case .integer(let integer): return String(integer)
            case .float(let double, _): return numbers.format(double, style: NumberStyle(notation: .shortest))
            }
        case .pointer, .count:
            throw .unsupportedConversion(specifier: specifier.text)
        }
    }

    /// The power of ten of a value rounded to some significant digits, as
    /// `%e` would print it (0 for zero, infinities and NaN).
    ///
    /// Past 17 digits the answer no longer depends on them: no double below
    /// a power of ten lies within half a unit of its 17th digit of it, so
    /// rounding to 17 or more digits never carries into a new power. Asking
    /// for 17 at most spares writing thousands of digits to read one exponent.
    static func decimalExponent(_ value: Double, significantDigits: Int) -> Int {
        guard value.isFinite, value != 0 else { return 0 }
        let written = String(format: "%.\(min(significantDigits, 17) - 1)e", value.magnitude)
        guard let marker = written.lastIndex(of: "e") else { return 0 }
        return Int(written[written.index(after: marker)...]) ?? 0
    }

    private func doubleValue(_ value: FormatArgument) -> Double {
        switch value {
        case .float(let double, _): double
        case .integer(let integer): Double(integer)
        case .string: 0
        }
    }

    /// `%o %x %X` as C prints them: the argument truncated to the size its
    /// length modifier names, in base 8 or 16.
    private func cInteger(_ value: Int64, _ specifier: FormatSpecifier, precision: Int?, zeroPadWidth: Int?) -> String {
        let bits: UInt64
        switch specifier.length {
        case .char: bits = UInt64(UInt8(truncatingIfNeeded: value))
        case .short: bits = UInt64(UInt16(truncatingIfNeeded: value))
        case .none where specifier.conversion != .longOctal: bits = UInt64(UInt32(truncatingIfNeeded: value))
        default: bits = UInt64(bitPattern: value)
        }
        let radix = specifier.conversion == .octal || specifier.conversion == .longOctal ? 8 : 16
        var digits = precision == 0 && bits == 0 ? "" : String(bits, radix: radix, uppercase: specifier.conversion == .upperHex)
        if let precision, digits.count < precision {
            digits = String(repeating: "0", count: precision - digits.count) + digits
        }
        var prefix = ""
        if specifier.alternate {
            if radix == 16, bits != 0 { prefix = specifier.conversion == .upperHex ? "0X" : "0x" }
            if radix == 8, !digits.hasPrefix("0") { digits = "0" + digits }
        }
        if precision == nil, let zeroPadWidth, prefix.count + digits.count < zeroPadWidth {
            digits = String(repeating: "0", count: zeroPadWidth - prefix.count - digits.count) + digits
        }
        return prefix + digits
    }

    /// Pads to `width` characters; counts at most `width` of them, so the
    /// cost is bounded by the width, not by the text.
    private func pad(_ text: String, to width: Int?, leftJustified: Bool) -> String {
        guard let width, width > 0 else { return text }
        var length = 0
        var index = text.startIndex
        while index < text.endIndex, length < width {
            text.formIndex(after: &index)
            length += 1
        }
        guard length < width else { return text }
        let padding = String(repeating: " ", count: width - length)
        return leftJustified ? text + padding : padding + text
    }
}
