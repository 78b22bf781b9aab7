internal import LprojFormatStrings
internal import LprojTables

extension LocalizationExchange {
    /// A `.strings` table: one unit per key of the development file, its
    /// comment as the note.
    func stringsTable(developmentPath: String) -> ExchangeTable {
        let target = targetPath(for: developmentPath)
        var table = ExchangeTable(
            kind: .strings, original: developmentPath, targetPath: target, sourceLanguage: bundle.developmentFolder, units: [],
            problems: [])
        let development: StringsFile
        do {
            development = try StringsParser(recordsKeyLocations: true).parse(bundle.files[developmentPath] ?? [])
        } catch {
            table.problems.append("\(developmentPath): \(error)")
            return table
        }
        var targetTable: StringTable?
        if let bytes = bundle.files[target] {
            do {
                targetTable = try StringsParser().parse(bytes).table
            } catch {
                table.problems.append("\(target): \(error)")
            }
        }
        let text = StringsText(bytes: bundle.files[developmentPath] ?? [], encoding: development.encoding)
        let lineStarts = text?.lineStarts() ?? []
        var units: [ExchangeUnit] = []
        for index in 0..<development.table.count {
            let key = development.table.key(at: index)
            var note: String?
            if let text, let location = development.keyLocations?[key], let offset = text.offset(of: location, lineStarts: lineStarts) {
                note = text.comment(before: offset)
                if note?.isEmpty == true { note = nil }
            }
            let value = targetTable?.value(forKey: key)
            units.append(
                ExchangeUnit(
                    id: key, source: development.table.value(at: index), target: value, state: value == nil ? nil : "translated",
                    note: note, address: .strings(key: key), key: key))
        }
        table = ExchangeTable(
            kind: .strings, original: developmentPath, targetPath: target, sourceLanguage: bundle.developmentFolder, units: units,
            problems: table.problems)
        return table
    }

    /// A `.stringsdict` table: each entry's format and each form of each
    /// variable, in the target language's categories.
    func stringsdictTable(developmentPath: String) -> ExchangeTable {
        let target = targetPath(for: developmentPath)
        var problems: [String] = []
        let development: StringsdictFile
        do {
            development = try StringsdictParser().parse(bundle.files[developmentPath] ?? [])
        } catch {
            return ExchangeTable(
                kind: .stringsdict, original: developmentPath, targetPath: target, sourceLanguage: bundle.developmentFolder, units: [],
                problems: ["\(developmentPath): \(error)"])
        }
        var targetEntries: [String: PluralFormat] = [:]
        if let bytes = bundle.files[target] {
            do {
                targetEntries = try StringsdictParser().parse(bytes).entries
            } catch {
                problems.append("\(target): \(error)")
            }
        }
        var units: [ExchangeUnit] = []
        for key in development.entries.keys.sorted() {
            let entry = development.entries[key]!
            let targetEntry = targetEntries[key]
            let format = targetEntry?.formatKey
            units.append(
                ExchangeUnit(
                    id: "/\(key):dict/NSStringLocalizedFormatKey:dict/:string", source: entry.formatKey, target: format,
                    state: format == nil ? nil : "translated", address: .stringsdictFormat(key: key), key: key))
            for name in entry.variables.keys.sorted() {
                let variable = entry.variables[name]!
                var targetName = name
                if let targetEntry, targetEntry.variables[name] == nil, targetEntry.variables.count == 1, entry.variables.count == 1 {
                    targetName = targetEntry.variables.keys.first!
                }
                let targetVariable = targetEntry?.variables[targetName]
                for category in categories(existing: targetVariable.map { Array($0.forms.keys) } ?? [], source: variable.forms.keys) {
                    let value = targetVariable?.forms[category]
                    units.append(
                        ExchangeUnit(
                            id: "/\(key):dict/\(name):dict/\(category):dict/:string",
                            source: variable.forms[category] ?? variable.forms[.other] ?? "", target: value,
                            state: value == nil ? nil : "translated",
                            address: .stringsdictForm(key: key, variable: name, targetVariable: targetName, category: category), key: key))
                }
            }
        }
        return ExchangeTable(
            kind: .stringsdict, original: developmentPath, targetPath: target, sourceLanguage: bundle.developmentFolder, units: units,
            problems: problems)
    }
}
