/// Checks date patterns before ICU sees them. ICU formats any pattern: it
/// prints nothing for a letter it does not define ("J", "p") and runs an
/// unterminated quote to the end. A client's saved format is better refused
/// with a reason than written out wrong for ever after.
enum DatePattern {
    /// ICU 72's pattern letters (UDateFormatField); other ASCII letters are
    /// reserved and must be quoted to appear as text.
    static let letters = Set("GyMdkHmsSEDFwWahKzYeugAZvcLQqVUOXxrbB")

    /// Why `pattern` is not a date pattern, or nil when it is one.
    static func problem(in pattern: String) -> String? {
        guard !pattern.isEmpty else { return "a pattern is not empty" }
        var characters = pattern.makeIterator()
        var position = 0
        while let character = characters.next() {
            position += 1
            if character == "'" {
                // '' is a quote; otherwise text runs to the next lone quote.
                var closed = false
                while let quoted = characters.next() {
                    position += 1
                    if quoted == "'" {
                        closed = true
                        break
                    }
                }
                if !closed { return "the quote at character \(position) is never closed" }
            } else if character.isASCII, character.isLetter, !letters.contains(character) {
                return "'\(character)' (character \(position)) is not a pattern letter; quote it ('\(character)') to write it as text"
            } else if character == "\0" || character.isNewline {
                return "a pattern is one line of text"
            }
        }
        return nil
    }
}
