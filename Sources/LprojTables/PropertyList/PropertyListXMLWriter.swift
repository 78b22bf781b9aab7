public import LprojFormat

/// Writes tables as XML property lists, byte for byte as Core Foundation
/// writes them (and so as `xcstringstool compile --serialization-format
/// text` does): the standard header, tabs, dictionary keys sorted by UTF-16
/// code units, and only `&`, `<` and `>` escaped.
public enum PropertyListXMLWriter {
    /// A `.strings` table as an XML property list.
    public static func strings(_ table: StringTable) -> [UInt8] {
        var entries: [(String, Node)] = []
        entries.reserveCapacity(table.count)
        for index in 0..<table.count { entries.append((table.key(at: index), .string(table.value(at: index)))) }
        return document(.dictionary(entries))
    }

    /// `.stringsdict` entries as an XML property list.
    public static func stringsdict(_ entries: [String: PluralFormat]) -> [UInt8] {
        document(.dictionary(entries.map { ($0.key, node($0.value)) }))
    }

    /// An entry as the dictionary a `.stringsdict` file holds.
    static func node(_ format: PluralFormat) -> Node {
        var members: [(String, Node)] = [(StringsdictParser.formatKey, .string(format.formatKey))]
        for (name, variable) in format.variables {
            var fields: [(String, Node)] = [(StringsdictParser.specTypeKey, .string(StringsdictParser.pluralRuleType))]
            if let valueType = variable.valueTypeText { fields.append((StringsdictParser.valueTypeKey, .string(valueType))) }
            for (category, text) in variable.forms { fields.append((category.rawValue, .string(text))) }
            members.append((name, .dictionary(fields)))
        }
        return .dictionary(members)
    }

    /// The values these files hold.
    enum Node {
        case string(String)
        case dictionary([(String, Node)])
    }

    static func document(_ root: Node) -> [UInt8] {
        var output = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        write(root, depth: 0, into: &output)
        output += "</plist>\n"
        return Array(output.utf8)
    }

    private static func write(_ node: Node, depth: Int, into output: inout String) {
        let indent = String(repeating: "\t", count: depth)
        switch node {
        case .string(let text):
            output += "\(indent)<string>\(escaped(text))</string>\n"
        case .dictionary(let members) where members.isEmpty:
            output += "\(indent)<dict/>\n"
        case .dictionary(let members):
            output += "\(indent)<dict>\n"
            for (key, value) in members.sorted(by: { $0.0.utf16.lexicographicallyPrecedes($1.0.utf16) }) {
                output += "\(indent)\t<key>\(escaped(key))</key>\n"
                write(value, depth: depth + 1, into: &output)
            }
            output += "\(indent)</dict>\n"
        }
    }

    private static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else {
            return text
        }
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
