/// What `export-localizations` writes: an `.xcloc` folder as Xcode writes
/// it, each file by its path inside the folder.
package struct XclocExport: Sendable {
    /// `contents.json`, `Localized Contents/LANG.xliff` and `Source Contents/…`.
    package var files: [(path: String, bytes: [UInt8])]
    /// The document written to `Localized Contents/`.
    package var document: XLIFFDocument
    /// Tables or units that could not be exported, and why.
    package var problems: [String]
}

extension LocalizationExchange {
    /// The XLIFF document of every table, units with no text XML can carry
    /// left out (and reported).
    package func xliffDocument(tool: XLIFFDocument.Tool) -> (XLIFFDocument, [String]) {
        var problems: [String] = []
        var files: [XLIFFDocument.File] = []
        for table in tables() {
            problems += table.problems
            guard !table.units.isEmpty else { continue }
            var units: [XLIFFDocument.Unit] = []
            for unit in table.units {
                let xliff = XLIFFDocument.Unit(
                    id: unit.id, source: unit.source, target: unit.target, state: unit.state, stateQualifier: unit.stateQualifier,
                    note: unit.note, noteFrom: unit.noteFrom)
                if let scalar = XLIFFWriter.unwritable(xliff) {
                    problems.append(
                        "\(table.original): \"\(unit.id)\" holds U+\(String(scalar.value, radix: 16, uppercase: true)), which XML 1.0 cannot carry; it is left out"
                    )
                    continue
                }
                units.append(xliff)
            }
            files.append(
                XLIFFDocument.File(
                    original: table.original, sourceLanguage: table.sourceLanguage, targetLanguage: language, tool: tool, units: units))
        }
        return (XLIFFDocument(files: files), problems)
    }

    /// The `.xcloc` folder's files.
    package func xcloc(tool: XLIFFDocument.Tool, project: String) -> XclocExport {
        let (document, problems) = xliffDocument(tool: tool)
        var files: [(path: String, bytes: [UInt8])] = []
        files.append(("contents.json", contentsJSON(tool: tool, project: project)))
        files.append(("Localized Contents/\(language).xliff", XLIFFWriter.write(document)))
        for original in document.files.map(\.original) {
            if let bytes = bundle.files[original] { files.append(("Source Contents/\(original)", bytes)) }
        }
        return XclocExport(files: files, document: document, problems: problems)
    }

    /// `contents.json` as Xcode writes it.
    func contentsJSON(tool: XLIFFDocument.Tool, project: String) -> [UInt8] {
        var text = "{\n"
        text += "  \"developmentRegion\" : \(Self.json(bundle.developmentFolder)),\n"
        text += "  \"project\" : \(Self.json(project)),\n"
        text += "  \"targetLocale\" : \(Self.json(language)),\n"
        text += "  \"toolInfo\" : {\n"
        if let build = tool.buildNumber { text += "    \"toolBuildNumber\" : \(Self.json(build)),\n" }
        text += "    \"toolID\" : \(Self.json(tool.id)),\n"
        text += "    \"toolName\" : \(Self.json(tool.name)),\n"
        text += "    \"toolVersion\" : \(Self.json(tool.version))\n"
        text += "  },\n"
        text += "  \"version\" : \"1.0\"\n}"
        return Array(text.utf8)
    }

    static func json(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case _ where scalar.value < 0x20: result += String(format: scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension String {
    /// `\u00XX` for a control character in JSON.
    fileprivate init(format value: UInt32) {
        let digits = String(value, radix: 16)
        self = "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
