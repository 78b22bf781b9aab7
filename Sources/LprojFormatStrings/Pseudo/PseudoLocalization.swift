/// The text transforms of CLDR's pseudo-locales, as Android's resource
/// compiler applies them: `en-XA` (accented, longer, bracketed) and `ar-XB`
/// (right to left). They show, without a translator, the strings an app
/// never localized, the layouts that clip longer text, and the ones that do
/// not mirror.
///
/// Only literal text changes. Every conversion (`%@`, `%1$lld`, `%.2f`),
/// plural reference (`%#@files@`), `%%`, malformed or incomplete `%`
/// sequence and `{name}` placeholder is kept byte for byte, so a value
/// takes the same arguments before and after. Values arrive unescaped (as a
/// table's parser decoded them), so escapes never reach a transform; line
/// breaks and other whitespace stay where they are.
public enum PseudoLocalization: Sendable, Hashable, CaseIterable {
    /// `en-XA`: every ASCII letter accented (`Ĥéļļö`), about 40% more text,
    /// and the value between brackets, so that clipping shows.
    case accented
    /// `ar-XB`: every word and argument forced right to left (RLM RLO …
    /// PDF RLM), so that the text reads mirrored as Arabic would lay out.
    case bidirectional

    /// A value transformed. An empty value stays empty: it is blank on
    /// purpose, and brackets would make it look translated.
    public func transform(_ text: String) -> String {
        transformed(text, bracketed: true)
    }

    /// A value and the plural entry it is the format key of, if any.
    public func transform(_ value: String, plural: PluralFormat?) -> (value: String, plural: PluralFormat?) {
        guard let plural else { return (transform(value), nil) }
        let transformed = transform(plural)
        return (transformed.formatKey, transformed)
    }

    /// A plural entry transformed: its format key as a value, and every
    /// form of every variable as text inside it (accents and length, with
    /// the brackets once, around the whole). Categories, variable names and
    /// value types are kept.
    public func transform(_ plural: PluralFormat) -> PluralFormat {
        var variables: [String: PluralVariable] = [:]
        for (name, variable) in plural.variables {
            let forms = variable.forms.mapValues { transformed($0, bracketed: false) }
            variables[name] = PluralVariable(valueTypeText: variable.valueTypeText, forms: forms)
        }
        // Only literal text changed, so the entry is exactly as valid as it was.
        return (try? PluralFormat(formatKey: transform(plural.formatKey), variables: variables)) ?? plural
    }

    /// A text transformed, bracketed or not (a plural form is inside its
    /// entry's brackets). An unfinished conversion at the end (`100%`,
    /// `100% `, `%5`) prints nothing, and anything written after it would
    /// complete it (`% o…` is an octal conversion), so it stays last.
    private func transformed(_ text: String, bracketed: Bool) -> String {
        var body = String.UnicodeScalarView()
        let trailing: Substring
        switch self {
        case .accented:
            let letters: Int
            (letters, trailing) = appendAccented(text, to: &body)
            guard !body.isEmpty else { return text }
            let padded = String(body) + Self.padding(forLetters: letters)
            return (bracketed ? "[" + padded + "]" : padded) + trailing
        case .bidirectional:
            trailing = appendBidirectional(text, to: &body)
            guard !body.isEmpty else { return text }
            return String(body) + trailing
        }
    }

    // MARK: Splitting text from what must not change

    /// Calls `literal` for each run of plain text and `kept` for each run
    /// that must not change, in order, and returns the unfinished
    /// conversion that ends the text (`%`, `% `, `%5`, `%-`…; empty if
    /// none), which the caller writes last: together they are the whole
    /// text. What must not change is every segment of the format that is
    /// no literal text (conversions, references, `%%`, malformed ones) and
    /// every `{name}` placeholder, found as the placeholder filler finds
    /// them (so a `{` right after a `%` still opens one).
    static func split(_ text: String, literal: (Substring) -> Void, kept: (Substring) -> Void) -> Substring {
        let bytes = Array(text.utf8)
        var protected = [Bool](repeating: false, count: bytes.count)
        var offset = 0
        let segments = FormatString(text).segments
        for segment in segments {
            let length: Int
            switch segment {
            case .literal(let run):
                offset += run.utf8.count
                continue
            case .specifier(let specifier): length = specifier.text.utf8.count
            case .variable(let reference): length = reference.text.utf8.count
            case .unknown(let text, _), .malformedVariable(let text), .incomplete(let text): length = text.utf8.count
            }
            for index in offset..<min(offset + length, bytes.count) { protected[index] = true }
            offset += length
        }
        // The segments are the text; if they ever were not, change nothing.
        guard offset == bytes.count else {
            kept(text[...])
            return ""
        }
        var trailing: Substring = ""
        if case .incomplete(let unfinished)? = segments.last { trailing = Substring(unfinished) }
        let count = bytes.count - trailing.utf8.count
        var index = 0
        while index < count {
            if bytes[index] == UInt8(ascii: "{"), let end = Placeholders.nameEnd(in: bytes, from: index + 1), end < count {
                for position in index...end { protected[position] = true }
                index = end + 1
            } else {
                index += 1
            }
        }
        var start = 0
        while start < count {
            let isKept = protected[start]
            var end = start
            while end < count, protected[end] == isKept { end += 1 }
            // Runs end on scalar boundaries (at ASCII bytes or segment ends),
            // not always on character ones: made from the bytes themselves.
            let piece = Substring(String(decoding: bytes[start..<end], as: UTF8.self))
            if isKept { kept(piece) } else { literal(piece) }
            start = end
        }
        return trailing
    }

    // MARK: en-XA

    /// Appends the text with its letters accented; returns how many
    /// characters of plain text it had (what the padding follows) and the
    /// unfinished conversion that ends it, not appended.
    private func appendAccented(_ text: String, to output: inout String.UnicodeScalarView) -> (letters: Int, trailing: Substring) {
        var letters = 0
        let trailing = Self.split(text) { run in
            for scalar in run.unicodeScalars {
                if scalar.isASCII, let accented = Self.accents[Int(scalar.value)] {
                    output.append(accented)
                } else {
                    output.append(scalar)
                }
            }
            letters += run.count
        } kept: { token in
            output.append(contentsOf: token.unicodeScalars)
        }
        return (letters, trailing)
    }

    /// About 40% of the text's length (at least one character when there
    /// is text), as words a reader can tell from the value.
    static func padding(forLetters letters: Int) -> String {
        guard letters > 0 else { return "" }
        let wanted = (letters * 2 + 4) / 5
        // The words are ASCII: bytes are characters, counted as they go.
        var padding: [UInt8] = []
        padding.reserveCapacity(wanted + 8)
        var words = paddingWords.makeIterator()
        while padding.count <= wanted {
            guard let word = words.next() else {
                words = paddingWords.makeIterator()
                continue
            }
            padding.append(UInt8(ascii: " "))
            padding.append(contentsOf: word.utf8)
        }
        return String(decoding: padding.prefix(wanted + 1), as: UTF8.self)
    }

    private static let paddingWords = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    /// ASCII letters to accented ones (each a single precomposed scalar),
    /// indexed by the ASCII value.
    private static let accents: [Unicode.Scalar?] = {
        var table = [Unicode.Scalar?](repeating: nil, count: 128)
        let upper = Array("ÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ".unicodeScalars)
        let lower = Array("åƀçðéƒĝĥîĵķļṁñöþǫŕšţûṽŵẋýž".unicodeScalars)
        for offset in 0..<26 {
            table[Int(UInt8(ascii: "A")) + offset] = upper[offset]
            table[Int(UInt8(ascii: "a")) + offset] = lower[offset]
        }
        return table
    }()

    // MARK: ar-XB

    private static let rightToLeftMark: Unicode.Scalar = "\u{200F}"
    private static let rightToLeftOverride: Unicode.Scalar = "\u{202E}"
    private static let popDirectionalFormatting: Unicode.Scalar = "\u{202C}"

    /// Appends the text with each word and each kept token between
    /// RLM RLO and PDF RLM, whitespace between them as it was; returns the
    /// unfinished conversion that ends it, not appended.
    private func appendBidirectional(_ text: String, to output: inout String.UnicodeScalarView) -> Substring {
        func open() { output.append(contentsOf: [Self.rightToLeftMark, Self.rightToLeftOverride]) }
        func close() { output.append(contentsOf: [Self.popDirectionalFormatting, Self.rightToLeftMark]) }
        return Self.split(text) { run in
            var inWord = false
            for scalar in run.unicodeScalars {
                let isSpace = scalar.properties.isWhitespace
                if !isSpace && !inWord { open() }
                if isSpace && inWord { close() }
                inWord = !isSpace
                output.append(scalar)
            }
            if inWord { close() }
        } kept: { token in
            open()
            output.append(contentsOf: token.unicodeScalars)
            close()
        }
    }
}
