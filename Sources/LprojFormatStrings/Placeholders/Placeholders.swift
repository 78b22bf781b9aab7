/// Named placeholders: `{name}` in a string is replaced by the value given
/// for `name` (SDLocalizationManager's placeholder dictionary).
///
/// The syntax: a name of ASCII letters, digits, `_`, `.` and `-`, starting
/// with a letter or `_`, between braces. A placeholder with no value given
/// stays as it is written, so braces in ordinary text need no escaping.
/// Replacement is a single pass: a value that itself contains `{other}` is
/// not expanded again.
///
/// Both functions work on the UTF-8 bytes in one linear pass: every byte is
/// looked at a bounded number of times, whatever the text, and the output
/// is checked against a limit before each piece is added, so that a short
/// text with many placeholders cannot be made to produce an unbounded one.
public enum Placeholders {
    /// The longest placeholder name: longer ones are left as written.
    public static let maximumNameLength = 64

    /// Replaces every `{name}` for which `values` has an entry; nil when the
    /// result would be longer than `maximumBytes` UTF-8 bytes.
    public static func substitute(in text: String, values: [String: String], maximumBytes: Int = .max) -> String? {
        guard !values.isEmpty, text.utf8.contains(UInt8(ascii: "{")) else {
            return text.utf8.count <= maximumBytes ? text : nil
        }
        var output: [UInt8] = []
        output.reserveCapacity(min(text.utf8.count, maximumBytes))
        let bytes = Array(text.utf8)
        var runStart = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "{"), let end = nameEnd(in: bytes, from: index + 1),
                let value = values[String(decoding: bytes[(index + 1)..<end], as: UTF8.self)]
            else {
                index += 1
                continue
            }
            let literal = index - runStart
            guard output.count + literal + value.utf8.count <= maximumBytes else { return nil }
            output.append(contentsOf: bytes[runStart..<index])
            output.append(contentsOf: value.utf8)
            index = end + 1
            runStart = index
        }
        guard output.count + (bytes.count - runStart) <= maximumBytes else { return nil }
        output.append(contentsOf: bytes[runStart...])
        return String(decoding: output, as: UTF8.self)
    }

    /// The placeholder names a text uses, in order.
    public static func names(in text: String) -> [String] {
        let bytes = Array(text.utf8)
        var names: [String] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "{"), let end = nameEnd(in: bytes, from: index + 1) {
                names.append(String(decoding: bytes[(index + 1)..<end], as: UTF8.self))
                index = end + 1
            } else {
                index += 1
            }
        }
        return names
    }

    /// The index of the `}` closing a name that starts at `start`, or nil
    /// when no well-formed name of at most ``maximumNameLength`` bytes does.
    /// Stops at the first byte that cannot be in a name, so a scan never
    /// passes the next `{`.
    static func nameEnd(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count, index - start <= maximumNameLength {
            switch bytes[index] {
            case UInt8(ascii: "}"):
                return index > start ? index : nil
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
                index += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"):
                guard index > start else { return nil }
                index += 1
            default:
                return nil
            }
        }
        return nil
    }
}
