import FuzzSupport
import LprojFormatStrings
@testable import LprojLocales

/// Format strings as CFString parses them, rendered with random typed
/// arguments and placeholders, in the C locale and in ICU's: never a crash,
/// and never more output than the limit, however the format repeats. And
/// their pseudo-localized forms take exactly the same arguments.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzInput(start, count) { bytes in
        var choices = Choices(bytes)
        let limit = 1 + choices.below(8192)
        var arguments: [FormatArgument] = []
        for _ in 0..<choices.below(8) {
            switch choices.below(3) {
            case 0: arguments.append(.integer(Int64(bitPattern: UInt64(choices.byte()) << 56 | UInt64(choices.below(65536)))))
            case 1:
                arguments.append(
                    .float(Double(choices.below(100_000)) / Double(1 + choices.below(1000)) - 50, fractionDigits: choices.below(4)))
            default: arguments.append(.string(choices.text(maximum: 64)))
            }
        }
        let placeholders = choices.below(2) == 0 ? [:] : ["a": choices.text(maximum: 32), "name": choices.text(maximum: 8)]
        let other = PluralVariable.fuzzed(&choices)
        let format = FormatString(String(decoding: choices.rest(), as: UTF8.self))
        let numbers: any NumberRendering = count % 2 == 0 ? POSIXNumberRenderer() : ICUNumberRenderer(locale: try! LocaleIdentifier("de"))
        let renderer = FormatRenderer(numbers: numbers, plurals: PluralRules.forLocale(try! LocaleIdentifier("ru")) ?? RootPluralRules())
        if let text = timed(
            count,
            {
                try? renderer.render(
                    format, arguments: arguments, variables: other.map { ["v": $0] } ?? [:], placeholders: placeholders, maximumBytes: limit
                )
            })
        {
            precondition(text.utf8.count <= limit, "rendered \(text.utf8.count) bytes past the limit of \(limit)")
        }
        if let filled = timed(count, { Placeholders.substitute(in: format.text, values: placeholders, maximumBytes: limit) }) {
            precondition(filled.utf8.count <= limit)
        }
        // A pseudo-locale keeps every conversion, reference and placeholder.
        for pseudo in PseudoLocalization.allCases {
            let transformed = FormatString(pseudo.transform(format.text))
            precondition(transformed.specifiers.map(\.text) == format.specifiers.map(\.text), "\(pseudo) changed a conversion")
            precondition(
                transformed.variableReferences.map(\.text) == format.variableReferences.map(\.text), "\(pseudo) changed a reference")
            precondition(Placeholders.names(in: transformed.text) == Placeholders.names(in: format.text), "\(pseudo) changed a placeholder")
        }
    }
}

extension PluralVariable {
    /// A variable `v` whose forms may refer to it again (`%#@v@`).
    static func fuzzed(_ choices: inout Choices) -> PluralVariable? {
        guard choices.below(2) == 1 else { return nil }
        let forms: [PluralCategory: String] = [
            .one: choices.text(maximum: 24), .few: choices.text(maximum: 24), .other: choices.text(maximum: 24) + "%#@v@",
        ]
        return PluralVariable(valueTypeText: "d", forms: forms)
    }
}
