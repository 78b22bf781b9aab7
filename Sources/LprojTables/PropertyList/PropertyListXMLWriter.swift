public import LprojFormatStrings

/// Writes tables as XML property lists, byte for byte as Core Foundation
/// writes them (and so as `xcstringstool compile --serialization-format
/// text` does): the standard header, tabs, dictionary keys sorted by UTF-16
/// code units, and only `&`, `<` and `>` escaped.
public enum PropertyListXMLWriter {
    /// A `.strings` table as an XML property list.
    public static func strings(_ table: StringTable) -> [UInt8] {
        var entries: [String: PropertyListValue] = [:]
        entries.reserveCapacity(table.count)
        for index in 0..<table.count { entries[table.key(at: index)] = .string(table.value(at: index)) }
        return document(.dictionary(entries))
    }

    /// `.stringsdict` entries as an XML property list.
    public static func stringsdict(_ entries: [String: PluralFormat]) -> [UInt8] {
        document(.dictionary(entries.mapValues { .dictionary($0.propertyList) }))
    }

    /// A property list of strings and dictionaries as an XML document.
    public static func document(_ root: PropertyListValue) -> [UInt8] {
        var output = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        write(root, depth: 0, into: &output)
        output += "</plist>\n"
        return Array(output.utf8)
    }

    private static func write(_ node: PropertyListValue, depth: Int, into output: inout String) {
        let indent = String(repeating: "\t", count: depth)
        switch node {
        case .string(let text):
            output += "\(indent)<string>\(escaped(text))</string>\n"
        case .dictionary(let members) where members.isEmpty:
            output += "\(indent)<dict/>\n"
        case .dictionary(let members):
            output += "\(indent)<dict>\n"
            for (key, value) in members.sorted(by: { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }) {
                output += "\(indent)\t<key>\(escaped(key))</key>\n"
                write(value, depth: depth + 1, into: &output)
            }
            output += "\(indent)</dict>\n"
        case .array(let items) where items.isEmpty:
            output += "\(indent)<array/>\n"
        case .array(let items):
            output += "\(indent)<array>\n"
            for item in items { write(item, depth: depth + 1, into: &output) }
            output += "\(indent)</array>\n"
        case .integer(let value):
            output += "\(indent)<integer>\(value)</integer>\n"
        case .real(let value):
            output += "\(indent)<real>\(value)</real>\n"
        case .boolean(let value):
            output += "\(indent)<\(value ? "true" : "false")/>\n"
        case .date, .data:
            // Tables never hold these; written as Foundation's JSON view does.
            output += "\(indent)<string>\(escaped("\(node.jsonObject)"))</string>\n"
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
