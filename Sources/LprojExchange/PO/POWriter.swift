/// Writes PO files as gettext's tools do: the header entry first, then each
/// message with its comments and flags, strings escaped (`\\`, `\"`, `\n`,
/// `\t`, other control characters in octal) and split after each `\n`.
package enum POWriter {
    package static func write(_ document: PODocument) -> [UInt8] {
        var output = "msgid \"\"\nmsgstr \"\"\n"
        for (name, value) in document.header { output += quoted("\(name): \(value)\n") + "\n" }
        for message in document.messages {
            output += "\n"
            for comment in message.extractedComments {
                for line in comment.split(separator: "\n", omittingEmptySubsequences: false) { output += "#. \(line)\n" }
            }
            output += referenceLines(message.references)
            if !message.flags.isEmpty { output += "#, \(message.flags.joined(separator: ", "))\n" }
            if let context = message.context { output += "msgctxt " + string(context) }
            output += "msgid " + string(message.id)
            if let plural = message.idPlural {
                output += "msgid_plural " + string(plural)
                for (index, text) in message.strings.enumerated() { output += "msgstr[\(index)] " + string(text) }
            } else {
                output += "msgstr " + string(message.strings.first ?? "")
            }
        }
        return Array(output.utf8)
    }

    /// `#:` lines as xgettext writes them: places separated by spaces, a
    /// new line before one that would pass column 79.
    static func referenceLines(_ references: [String]) -> String {
        var output = "", line = "#:"
        for reference in references {
            if line != "#:" && line.count + 1 + reference.count > 79 {
                output += line + "\n"
                line = "#:"
            }
            line += " " + reference
        }
        return line == "#:" ? output : output + line + "\n"
    }

    /// A string after its keyword: on one line, or (with line ends inside)
    /// `""` and then one line per `\n`, as msgmerge writes it.
    static func string(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 1 else { return quoted(text) + "\n" }
        var result = "\"\"\n"
        for (index, line) in lines.enumerated() {
            let piece = index < lines.count - 1 ? line + "\n" : String(line)
            if !piece.isEmpty { result += quoted(String(piece)) + "\n" }
        }
        return result
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let octal = String(scalar.value, radix: 8)
                result += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
