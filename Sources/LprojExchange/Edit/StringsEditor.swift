internal import LprojTables

/// Writes translations into a `.strings` file and keeps every other byte:
/// a key's value is replaced where it is written (the winning definition,
/// when a key is defined twice), a key the file lacks is appended with its
/// comment, in the file's own encoding; a new file is UTF-8. The result is
/// read again and must mean the old table with exactly these values changed.
enum StringsEditor {
    struct Edit {
        let key: String
        let value: String
        let comment: String?
    }

    static func apply(_ edits: [Edit], to bytes: [UInt8]?) throws(ExchangeError) -> [UInt8] {
        guard let bytes, !bytes.isEmpty else {
            let text = edits.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map(entry).joined(separator: "\n")
            let written = Array(text.utf8)
            try verify(written, old: [:], edits: edits)
            return written
        }
        let file: StringsFile
        do {
            file = try StringsParser(recordsKeyLocations: true).parse(bytes)
        } catch {
            throw ExchangeError("it does not parse: \(error)")
        }
        guard !file.isPropertyList else { throw ExchangeError("it is a property list, not a .strings text file; it is not edited") }
        guard var text = StringsText(bytes: bytes, encoding: file.encoding) else {
            throw ExchangeError("its encoding (\(file.encoding.rawValue)) does not come back byte for byte; it is not edited")
        }
        let lineStarts = text.lineStarts()
        var replacements: [(range: Range<Int>, scalars: [Unicode.Scalar])] = []
        var appended: [Edit] = []
        for edit in edits {
            if file.otherValues.contains(where: { $0.key == edit.key }) {
                throw ExchangeError("the key \"\(edit.key)\" holds a \(file.propertyList[edit.key]?.typeName ?? "value"), not a string")
            }
            guard file.table.contains(edit.key) else {
                appended.append(edit)
                continue
            }
            guard let location = file.keyLocations?[edit.key], let offset = text.offset(of: location, lineStarts: lineStarts),
                let place = text.valuePlace(keyStart: offset)
            else { throw ExchangeError("the value of \"\(edit.key)\" could not be found in the file") }
            let literal = Array(StringsText.literal(edit.value).unicodeScalars)
            switch place {
            case .token(let range): replacements.append((range, literal))
            case .shorthand(let semicolon): replacements.append((semicolon..<semicolon, Array(" = ".unicodeScalars) + literal))
            }
        }
        for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            text.scalars.replaceSubrange(replacement.range, with: replacement.scalars)
        }
        if !appended.isEmpty {
            var tail = ""
            if let last = text.scalars.last, last != "\n" && last != "\r" { tail += "\n" }
            for edit in appended.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) { tail += "\n" + entry(edit) }
            text.scalars += tail.unicodeScalars
        }
        let written = text.bytes
        try verify(written, old: file.table.dictionary, edits: edits)
        return written
    }

    /// `/* comment */` and `"key" = "value";`, as Xcode writes an entry.
    static func entry(_ edit: Edit) -> String {
        var text = ""
        if let comment = edit.comment, !comment.isEmpty { text += "/* \(comment.replacingAll("*/", with: "* /")) */\n" }
        return text + StringsText.literal(edit.key) + " = " + StringsText.literal(edit.value) + ";\n"
    }

    /// The written file means the old table with the edits, and nothing else.
    static func verify(_ written: [UInt8], old: [String: String], edits: [Edit]) throws(ExchangeError) {
        let table: [String: String]
        do {
            table = try StringsParser().parse(written).table.dictionary
        } catch {
            throw ExchangeError("the edited file would not parse (\(error)); nothing is written")
        }
        var expected = old
        for edit in edits { expected[edit.key] = edit.value }
        guard table == expected else {
            let differing = Set(table.keys).union(expected.keys).filter { table[$0] != expected[$0] }.sorted().prefix(3)
            throw ExchangeError(
                "the edited file would not read back as intended (\(differing.joined(separator: ", "))); nothing is written")
        }
    }
}
