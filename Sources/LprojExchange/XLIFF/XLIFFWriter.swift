/// Writes XLIFF 1.2 byte for byte as Xcode's `-exportLocalizations` does:
/// two-space indents, `xml:space="preserve"` on every unit, `source`,
/// `target` (with its `state`), then `note` (`<note/>` when empty); in
/// text `&`, `<`, `>` and carriage returns escaped, in attributes also `"`
/// and tabs and line ends. Compared with Xcode 27's own export in the tests.
package enum XLIFFWriter {
    /// The document's bytes.
    package static func write(_ document: XLIFFDocument) -> [UInt8] {
        var output = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="1.2" xsi:schemaLocation="urn:oasis:names:tc:xliff:document:1.2 http://docs.oasis-open.org/xliff/v1.2/os/xliff-core-1.2-strict.xsd">

            """
        for file in document.files {
            output += "  <file original=\"\(attribute(file.original))\" source-language=\"\(attribute(file.sourceLanguage))\""
            if let target = file.targetLanguage { output += " target-language=\"\(attribute(target))\"" }
            output += " datatype=\"plaintext\">\n"
            if let tool = file.tool {
                output += "    <header>\n"
                output += "      <tool tool-id=\"\(attribute(tool.id))\" tool-name=\"\(attribute(tool.name))\""
                output += " tool-version=\"\(attribute(tool.version))\""
                if let build = tool.buildNumber { output += " build-num=\"\(attribute(build))\"" }
                output += "/>\n    </header>\n"
            }
            output += "    <body>\n"
            for unit in file.units {
                output += "      <trans-unit id=\"\(attribute(unit.id))\" xml:space=\"preserve\">\n"
                output += "        <source>\(text(unit.source))</source>\n"
                if let target = unit.target {
                    output += "        <target"
                    if let state = unit.state { output += " state=\"\(attribute(state))\"" }
                    if let qualifier = unit.stateQualifier { output += " state-qualifier=\"\(attribute(qualifier))\"" }
                    output += ">\(text(target))</target>\n"
                }
                let from = unit.noteFrom.map { " from=\"\(attribute($0))\"" } ?? ""
                if let note = unit.note, !note.isEmpty {
                    output += "        <note\(from)>\(text(note))</note>\n"
                } else {
                    output += "        <note\(from)/>\n"
                }
                output += "      </trans-unit>\n"
            }
            output += "    </body>\n  </file>\n"
        }
        output += "</xliff>\n"
        return Array(output.utf8)
    }

    /// The first character of a unit's texts that XML 1.0 cannot carry.
    package static func unwritable(_ unit: XLIFFDocument.Unit) -> Unicode.Scalar? {
        for text in [unit.id, unit.source, unit.target ?? "", unit.note ?? ""] {
            if let scalar = text.unicodeScalars.first(where: { !isXMLCharacter($0) }) { return scalar }
        }
        return nil
    }

    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Element text: `&`, `<`, `>` and CR escaped (a literal CR would be read back as LF).
    static func text(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\r": result += "&#13;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// An attribute value: also `"`, and tabs and line ends as references
    /// (literal ones would be read back as spaces).
    static func attribute(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t": result += "&#9;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
