/// Named placeholders: `{name}` in a string is replaced by the value given
/// for `name` (SDLocalizationManager's placeholder dictionary).
///
/// The syntax: a name of letters, digits, `_`, `.` and `-`, starting with a
/// letter or `_`, between braces. A placeholder with no value given stays as
/// it is written, so braces in ordinary text need no escaping. Replacement is
/// a single pass: a value that itself contains `{other}` is not expanded again.
public enum Placeholders {
    /// Replaces every `{name}` for which `values` has an entry.
    public static func substitute(in text: String, values: [String: String]) -> String {
        guard !values.isEmpty, text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var output = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "{", let (name, end) = name(in: scalars, from: index + 1), let value = values[name] {
                output.append(contentsOf: value.unicodeScalars)
                index = end + 1
            } else {
                output.append(scalars[index])
                index += 1
            }
        }
        return String(output)
    }

    /// The placeholder names a text uses, in order.
    public static func names(in text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var names: [String] = []
        var index = 0
        while index < scalars.count {
            if scalars[index] == "{", let (name, end) = name(in: scalars, from: index + 1) {
                names.append(name)
                index = end + 1
            } else {
                index += 1
            }
        }
        return names
    }

    /// The name starting at `start` and the index of its closing brace.
    private static func name(in scalars: [Unicode.Scalar], from start: Int) -> (String, Int)? {
        var index = start
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "}":
                guard index > start else { return nil }
                var name = String.UnicodeScalarView()
                name.append(contentsOf: scalars[start..<index])
                return (String(name), index)
            case "a"..."z", "A"..."Z", "_":
                index += 1
            case "0"..."9", ".", "-":
                guard index > start else { return nil }
                index += 1
            default:
                return nil
            }
        }
        return nil
    }
}
