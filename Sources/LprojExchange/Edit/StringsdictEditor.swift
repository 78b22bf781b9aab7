internal import LprojFormatStrings
internal import LprojTables

/// Writes translations into a `.stringsdict` file (an XML property list in
/// UTF-8) and keeps every other byte: a form's `<string>` is replaced where
/// it is written, a form, variable or entry the file lacks is inserted
/// before its dictionary's end, indented like its neighbours. A new file
/// is written as Foundation writes one. The result is read again and must
/// mean the old property list with exactly these strings changed.
enum StringsdictEditor {
    struct Edit {
        let key: String
        /// nil: the entry's format (`NSStringLocalizedFormatKey`).
        let variable: String?
        let category: PluralCategory?
        let value: String
        /// The development language's entry, for what a new entry or variable needs.
        let development: PluralFormat
        let developmentVariable: String?
    }

    static let formatKey = "NSStringLocalizedFormatKey"

    static func apply(_ edits: [Edit], to bytes: [UInt8]?) throws(ExchangeError) -> [UInt8] {
        guard let bytes, !bytes.isEmpty else {
            var root: [String: PropertyListValue] = [:]
            for key in Set(edits.map(\.key)) {
                root[key] = .dictionary(newEntry(edits.filter { $0.key == key }))
            }
            let written = PropertyListXMLWriter.document(.dictionary(root))
            try verify(written, old: [:], edits: edits)
            return written
        }
        let old: [String: PropertyListValue]
        do {
            old = try StringsdictParser().parse(bytes).propertyList
        } catch {
            throw ExchangeError("it does not parse: \(error)")
        }
        let plist: XMLElement
        do {
            plist = try XMLReader(doctype: .allowExternalIdentifier).read(bytes)
        } catch {
            throw ExchangeError("it is not an XML property list in UTF-8 that can be edited in place (\(error))")
        }
        guard plist.localName == "plist", let root = plist.elements.first, root.localName == "dict" else {
            throw ExchangeError("its top level is not a dictionary")
        }
        var insertions: [(offset: Int, text: String)] = []
        var replacements: [(range: Range<Int>, text: String)] = []
        let rootPairs = try pairs(root)
        var newEntries: [String: [Edit]] = [:]
        for edit in edits {
            guard let entry = rootPairs.first(where: { $0.key == edit.key })?.value else {
                newEntries[edit.key, default: []].append(edit)
                continue
            }
            guard entry.localName == "dict" else { throw ExchangeError("the entry \"\(edit.key)\" is not a dictionary") }
            let entryPairs = try pairs(entry)
            if edit.variable == nil {
                guard let format = entryPairs.first(where: { $0.key == formatKey })?.value, format.localName == "string" else {
                    throw ExchangeError("the entry \"\(edit.key)\" has no \(formatKey) string")
                }
                replacements.append(replacement(format, edit.value))
                continue
            }
            let variableName = edit.variable!
            guard let variable = entryPairs.first(where: { $0.key == variableName })?.value else {
                let pending = edits.filter { $0.key == edit.key && $0.variable == variableName }
                guard pending.first?.category == edit.category else { continue }
                insertions.append(
                    (
                        insertionPoint(entry, bytes),
                        member(variableName, .dictionary(newVariable(pending, name: variableName)), in: entry, bytes)
                    ))
                continue
            }
            guard variable.localName == "dict" else { throw ExchangeError("\(edit.key)/\(variableName) is not a dictionary") }
            let category = edit.category!.rawValue
            if let form = try pairs(variable).first(where: { $0.key == category })?.value {
                guard form.localName == "string" else { throw ExchangeError("\(edit.key)/\(variableName)/\(category) is not a string") }
                replacements.append(replacement(form, edit.value))
            } else {
                insertions.append((insertionPoint(variable, bytes), member(category, .string(edit.value), in: variable, bytes)))
            }
        }
        for key in newEntries.keys.sorted() {
            insertions.append((insertionPoint(root, bytes), member(key, .dictionary(newEntry(newEntries[key]!)), in: root, bytes)))
        }
        var written = bytes
        var changes = replacements.map { (range: $0.range, text: $0.text) }
        changes += insertions.map { (range: $0.offset..<$0.offset, text: $0.text) }
        // From the end, so that earlier offsets stay right; insertions at one
        // offset keep their order.
        for change in changes.enumerated().sorted(by: {
            ($0.element.range.lowerBound, $0.offset) > ($1.element.range.lowerBound, $1.offset)
        }) {
            written.replaceSubrange(change.element.range, with: Array(change.element.text.utf8))
        }
        try verify(written, old: old, edits: edits)
        return written
    }

    /// An entry made of the edits given for it, with what the development
    /// entry has for the rest (its format, the variables' types).
    static func newEntry(_ edits: [Edit]) -> [String: PropertyListValue] {
        let development = edits[0].development
        var entry: [String: PropertyListValue] = [formatKey: .string(edits.first { $0.variable == nil }?.value ?? development.formatKey)]
        for name in Set(edits.compactMap(\.variable)) {
            entry[name] = .dictionary(newVariable(edits.filter { $0.variable == name }, name: name))
        }
        return entry
    }

    static func newVariable(_ edits: [Edit], name: String) -> [String: PropertyListValue] {
        let development = edits[0].development.variables[edits[0].developmentVariable ?? name]
        var variable: [String: PropertyListValue] = ["NSStringFormatSpecTypeKey": .string("NSStringPluralRuleType")]
        if let type = development?.valueTypeText { variable["NSStringFormatValueTypeKey"] = .string(type) }
        for edit in edits { if let category = edit.category { variable[category.rawValue] = .string(edit.value) } }
        return variable
    }

    /// A dictionary's keys and value elements.
    static func pairs(_ dictionary: XMLElement) throws(ExchangeError) -> [(key: String, value: XMLElement)] {
        let elements = dictionary.elements
        var result: [(key: String, value: XMLElement)] = []
        var index = 0
        while index < elements.count {
            guard elements[index].localName == "key", index + 1 < elements.count else {
                throw ExchangeError("a dictionary at line \(elements[index].location.line) is not keys and values in turn")
            }
            result.append((elements[index].text, elements[index + 1]))
            index += 2
        }
        return result
    }

    static func replacement(_ element: XMLElement, _ value: String) -> (range: Range<Int>, text: String) {
        if element.contentStart == element.contentEnd && element.endOffset == element.contentEnd {
            // `<string/>`
            return (element.startOffset..<element.endOffset, "<string>\(escaped(value))</string>")
        }
        return (element.contentStart..<element.contentEnd, escaped(value))
    }

    /// Where a member goes in a dictionary: at the start of the line of its
    /// end tag (or just before the end tag, in a file without line breaks).
    static func insertionPoint(_ dictionary: XMLElement, _ bytes: [UInt8]) -> Int {
        var index = dictionary.contentEnd
        while index > dictionary.contentStart, bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09 { index -= 1 }
        if index > dictionary.contentStart, bytes[index - 1] == 0x0A { return index }
        return dictionary.contentEnd
    }

    /// A key and its value, indented as the dictionary's other members.
    static func member(_ key: String, _ value: PropertyListValue, in dictionary: XMLElement, _ bytes: [UInt8]) -> String {
        let atLineStart = insertionPoint(dictionary, bytes) != dictionary.contentEnd || dictionary.contentEnd == dictionary.contentStart
        let closing = indentation(before: dictionary.contentEnd, bytes)
        var inner = dictionary.elements.first.map { indentation(before: $0.startOffset, bytes) } ?? closing + "\t"
        if inner.count <= closing.count { inner = closing + "\t" }
        let step = String(inner.dropFirst(closing.count))
        var lines = ["<key>\(escaped(key))</key>"]
        lines += write(value, step: step)
        guard atLineStart else { return lines.joined() }
        return lines.map { inner + $0 + "\n" }.joined()
    }

    static func write(_ value: PropertyListValue, step: String) -> [String] {
        switch value {
        case .dictionary(let members):
            var lines = ["<dict>"]
            for (key, member) in members.sorted(by: { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }) {
                lines.append(step + "<key>\(escaped(key))</key>")
                lines += write(member, step: step).map { step + $0 }
            }
            return lines + ["</dict>"]
        case .string(let text):
            return ["<string>\(escaped(text))</string>"]
        default:
            return []
        }
    }

    /// The spaces and tabs before an offset on its line.
    static func indentation(before offset: Int, _ bytes: [UInt8]) -> String {
        var start = offset
        while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// Text as Foundation writes it in a property list: the same escapes as
    /// XLIFF's element text.
    static func escaped(_ text: String) -> String {
        XLIFFWriter.text(text)
    }

    /// The written file means the old property list with the edits, and nothing else.
    static func verify(_ written: [UInt8], old: [String: PropertyListValue], edits: [Edit]) throws(ExchangeError) {
        let new: [String: PropertyListValue]
        do {
            new = try StringsdictParser().parse(written).propertyList
        } catch {
            throw ExchangeError("the edited file would not parse (\(error)); nothing is written")
        }
        var expected = old
        for edit in edits {
            var entry: [String: PropertyListValue]
            if case .dictionary(let existing)? = expected[edit.key] {
                entry = existing
            } else {
                entry = newEntry(edits.filter { $0.key == edit.key })
            }
            if let variable = edit.variable, let category = edit.category {
                var members: [String: PropertyListValue]
                if case .dictionary(let existing)? = entry[variable] {
                    members = existing
                } else {
                    members = newVariable(edits.filter { $0.key == edit.key && $0.variable == variable }, name: variable)
                }
                members[category.rawValue] = .string(edit.value)
                entry[variable] = .dictionary(members)
            } else {
                entry[formatKey] = .string(edit.value)
            }
            expected[edit.key] = .dictionary(entry)
        }
        guard new == expected else {
            let differing = Set(new.keys).union(expected.keys).filter { new[$0] != expected[$0] }.sorted().prefix(3)
            throw ExchangeError(
                "the edited file would not read back as intended (\(differing.joined(separator: ", "))); nothing is written")
        }
    }
}
