/// Writing text as the body of a `.strings` literal, as Xcode's and
/// genstrings' output has it: backslash, quote, newline, tab and return
/// escaped, other control characters as `\U` and four hex digits. What the
/// extractor writes and what an import writes back are the same bytes.
public enum StringsLiteral {
    /// `text` escaped, without the quotes around it.
    public static func escaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case "\r": escaped += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\U" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
