import LprojFormatStrings
internal import LprojLocales
package import LprojTables

/// Something an import has to say, at a place in the translator's file or
/// in the bundle.
package struct ImportFinding: Sendable, Hashable, CustomStringConvertible {
    package enum Severity: String, Sendable, Hashable {
        case error, warning
    }

    package let severity: Severity
    /// The file it is about, as the caller named it.
    package let file: String
    package let location: SourceLocation?
    package let message: String

    package init(severity: Severity, file: String, location: SourceLocation?, message: String) {
        self.severity = severity
        self.file = file
        self.location = location
        self.message = message
    }

    /// `file:line:column: severity: message`, as compilers print it.
    package var description: String {
        "\(file)\(location.map { ":\($0)" } ?? ""): \(severity.rawValue): \(message)"
    }
}

/// What an import would do: the files to write (none when anything is in
/// error), and what it found.
package struct ImportPlan: Sendable {
    /// New contents by bundle-relative path; empty unless the whole import is valid.
    package var writes: [(path: String, bytes: [UInt8])] = []
    package var findings: [ImportFinding] = []
    /// Units whose translation was taken.
    package var imported = 0
    /// Units whose translation was already there.
    package var unchanged = 0
    /// Units left out because their state says they are not finished (`new`, `needs-review-*`).
    package var unfinished = 0
    /// Units left out because their source changed since the export.
    package var sourceChanged = 0

    package var hasErrors: Bool { findings.contains { $0.severity == .error } }
}

/// A translation of one unit, to be written.
struct PendingEdit {
    let table: ExchangeTable
    let unit: ExchangeUnit
    let value: String
    let state: StringCatalog.State
}

extension LocalizationExchange {
    /// Checks a translated document against the bundle and works out the
    /// files it changes. Nothing is written here; the plan's writes are
    /// empty unless every file and unit is valid.
    package func importing(_ document: XLIFFDocument, from displayPath: String) -> ImportPlan {
        var plan = ImportPlan()
        func report(_ severity: ImportFinding.Severity, _ location: SourceLocation?, _ message: String) {
            plan.findings.append(ImportFinding(severity: severity, file: displayPath, location: location, message: message))
        }
        let tables = tables()
        let byOriginal = Dictionary(tables.map { ($0.original, $0) }, uniquingKeysWith: { first, _ in first })
        let wanted = try? LocaleIdentifier(language)
        var edits: [PendingEdit] = []
        var seenFiles: Set<String> = []
        for file in document.files {
            guard seenFiles.insert(file.original).inserted else {
                report(.error, file.location, "the file \"\(file.original)\" is given twice")
                continue
            }
            guard let table = byOriginal[file.original] else {
                report(.error, file.location, "the bundle has no table \"\(file.original)\" to translate")
                continue
            }
            guard let target = file.targetLanguage else {
                report(.error, file.location, "<file original=\"\(file.original)\"> has no target-language")
                continue
            }
            guard (try? LocaleIdentifier(target)) == wanted else {
                report(.error, file.location, "the file is in \(target), not \(language)")
                continue
            }
            if (try? LocaleIdentifier(file.sourceLanguage)) != (try? LocaleIdentifier(table.sourceLanguage)),
                file.sourceLanguage != table.sourceLanguage
            {
                report(
                    .error, file.location,
                    "its source language is \(file.sourceLanguage); \"\(file.original)\" is in \(table.sourceLanguage)")
                continue
            }
            let units = Dictionary(table.units.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var seenUnits: Set<String> = []
            for given in file.units {
                guard seenUnits.insert(given.id).inserted else {
                    report(.error, given.location, "the unit \"\(given.id)\" is given twice")
                    continue
                }
                guard let current = units[given.id] else {
                    report(.error, given.location, unknownUnitMessage(given.id, in: table))
                    continue
                }
                guard given.source == current.source else {
                    plan.sourceChanged += 1
                    report(
                        .warning, given.location,
                        "\"\(given.id)\": the source changed since the export (it was \"\(given.source)\", it is now \"\(current.source)\"); not imported"
                    )
                    continue
                }
                guard let text = given.target else { continue }
                if Self.isUnfinished(given.state) {
                    if text != current.target { plan.unfinished += 1 }
                    continue
                }
                let state = CatalogText.catalogState(qualifier: given.stateQualifier)
                let sameState =
                    table.kind != .catalog
                    || (given.state ?? "translated") == (current.state ?? "translated")
                        && given.stateQualifier == current.stateQualifier
                if text == current.target && sameState {
                    plan.unchanged += 1
                    continue
                }
                if let problem = FormatCheck.problem(source: current.source, target: text, isForm: current.category != nil) {
                    report(.error, given.targetLocation ?? given.location, "\"\(given.id)\": \(problem)")
                    continue
                }
                edits.append(PendingEdit(table: table, unit: current, value: text, state: state))
            }
        }
        guard !plan.hasErrors, !edits.isEmpty else { return plan }
        plan.imported = edits.count
        var files = bundle.files
        for table in tables {
            let tableEdits = edits.filter { $0.table.original == table.original }
            guard !tableEdits.isEmpty else { continue }
            do throws(ExchangeError) {
                files[table.targetPath] = try write(tableEdits, of: table, into: files[table.targetPath])
            } catch {
                plan.findings.append(
                    ImportFinding(
                        severity: .error, file: table.targetPath, location: nil, message: "cannot write the translations: \(error)"))
            }
        }
        guard !plan.hasErrors else { return plan }
        verify(edits, written: files, plan: &plan, displayPath: displayPath)
        guard !plan.hasErrors else { return plan }
        plan.writes = files.keys.sorted().compactMap { path in files[path] == bundle.files[path] ? nil : (path, files[path]!) }
        return plan
    }

    /// Xcode leaves these alone on import: the translation is not finished.
    static func isUnfinished(_ state: String?) -> Bool {
        guard let state else { return false }
        return state == "new" || state.hasPrefix("needs-")
    }

    func unknownUnitMessage(_ id: String, in table: ExchangeTable) -> String {
        let category: String?
        if id.hasSuffix(":dict/:string") {
            category = id.dropLast(":dict/:string".count).split(separator: "/").last.map(String.init)
        } else if let range = id.range(of: "|==|") {
            category = id[range.upperBound...].split(separator: ".").last.map(String.init)
        } else {
            category = nil
        }
        if let category, let plural = PluralCategory(rawValue: category), !languageCategories.contains(plural) {
            let known = languageCategories.sorted().map(\.rawValue).joined(separator: ", ")
            return "\"\(id)\": \(language) has no plural category '\(category)' (it has \(known)); not imported"
        }
        return "the bundle has no unit \"\(id)\" in \"\(table.original)\""
    }

    /// A table's new bytes, with its edits.
    func write(_ edits: [PendingEdit], of table: ExchangeTable, into bytes: [UInt8]?) throws(ExchangeError) -> [UInt8] {
        switch table.kind {
        case .strings:
            return try StringsEditor.apply(
                edits.map { StringsEditor.Edit(key: $0.unit.key, value: $0.value, comment: $0.unit.note) }, to: bytes)
        case .stringsdict:
            let development = (try? StringsdictParser().parse(bundle.files[table.original] ?? []))?.entries ?? [:]
            var stringsdictEdits: [StringsdictEditor.Edit] = []
            for edit in edits {
                guard let entry = development[edit.unit.key] else {
                    throw ExchangeError("the development entry \"\(edit.unit.key)\" is gone")
                }
                switch edit.unit.address {
                case .stringsdictFormat(let key):
                    stringsdictEdits.append(
                        .init(key: key, variable: nil, category: nil, value: edit.value, development: entry, developmentVariable: nil))
                case .stringsdictForm(let key, let variable, let targetVariable, let category):
                    stringsdictEdits.append(
                        .init(
                            key: key, variable: targetVariable, category: category, value: edit.value, development: entry,
                            developmentVariable: variable))
                default:
                    continue
                }
            }
            return try StringsdictEditor.apply(stringsdictEdits, to: bytes)
        case .catalog:
            let catalog: StringCatalog
            do {
                catalog = try StringCatalogParser().parse(bytes ?? []).catalog
            } catch {
                throw ExchangeError("it does not parse: \(error)")
            }
            let language = catalogLanguage(catalog)
            let entries = Dictionary(catalog.entries.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
            var catalogEdits: [CatalogEditor.Edit] = []
            for edit in edits {
                guard case .catalog(let key, let path) = edit.unit.address else { continue }
                let localization = entries[key]?.localizations[language]
                let source = entries[key]?.localizations[catalog.sourceLanguage]
                // The argument numbers the target will have: its own, else the source's.
                var substitutions = source?.substitutions ?? [:]
                for (name, substitution) in localization?.substitutions ?? [:] { substitutions[name] = substitution }
                var substitutionName: String?
                if case .substitution(let name, _) = path { substitutionName = name }
                let value = CatalogText.catalogForm(edit.value, substitutions: substitutions, of: substitutionName)
                catalogEdits.append(CatalogEditor.Edit(key: key, path: path, value: value, state: edit.state))
            }
            return try CatalogEditor.apply(catalogEdits, to: bytes ?? [], language: language, catalog: catalog)
        }
    }

    /// Reads the written bundle again: every imported unit must export as
    /// it was given, every other unit as it was; and says which plurals
    /// the import touched still lack a category the language needs.
    func verify(_ edits: [PendingEdit], written: [String: [UInt8]], plan: inout ImportPlan, displayPath: String) {
        guard
            let after = try? LocalizationExchange(
                bundle: ExchangeBundle(files: written, developmentFolder: bundle.developmentFolder), language: language,
                intoDevelopmentLanguage: true)
        else { return }
        let before = tables()
        var newUnits: [String: ExchangeUnit] = [:]
        for table in after.tables() { for unit in table.units { newUnits[table.original + "\u{0}" + unit.id] = unit } }
        var edited: Set<String> = []
        for edit in edits {
            let id = edit.table.original + "\u{0}" + edit.unit.id
            edited.insert(id)
            guard let unit = newUnits[id], unit.target.map({ CatalogText.sameText($0, edit.value) }) == true else {
                plan.findings.append(
                    ImportFinding(
                        severity: .error, file: edit.table.targetPath, location: nil,
                        message: "\"\(edit.unit.id)\" would not read back as imported; nothing is written"))
                return
            }
        }
        let editedKeys = Set(edits.map { $0.table.original + "\u{0}" + $0.unit.key })
        for table in before {
            for unit in table.units where !edited.contains(table.original + "\u{0}" + unit.id) {
                let now = newUnits[table.original + "\u{0}" + unit.id]
                // A new entry or substitution takes its format from the source,
                // as its translated forms need one: that unit may gain the source's text.
                if unit.target == nil, now?.target == unit.source, editedKeys.contains(table.original + "\u{0}" + unit.key) { continue }
                guard now?.target == unit.target, now?.source == unit.source else {
                    plan.findings.append(
                        ImportFinding(
                            severity: .error, file: table.targetPath, location: nil,
                            message: "\"\(unit.id)\" would change though it was not imported; nothing is written"))
                    return
                }
            }
        }
        // Plurals the import touched that still lack a category the language uses.
        var groups: [String: (table: ExchangeTable, key: String, prefix: String)] = [:]
        for edit in edits where edit.unit.category != nil {
            let prefix = String(
                edit.unit.id.dropLast(edit.unit.category!.rawValue.count + (edit.unit.id.hasSuffix(":dict/:string") ? 13 : 0)))
            groups[edit.table.original + "\u{0}" + prefix] = (edit.table, edit.unit.key, prefix)
        }
        for name in groups.keys.sorted() {
            let group = groups[name]!
            var missing: [PluralCategory] = []
            for category in languageCategories.sorted() {
                let suffix = group.prefix.hasSuffix("/") ? "\(category):dict/:string" : "\(category)"
                if newUnits[group.table.original + "\u{0}" + group.prefix + suffix]?.target == nil { missing.append(category) }
            }
            guard !missing.isEmpty else { continue }
            plan.findings.append(
                ImportFinding(
                    severity: .warning, file: group.table.targetPath, location: nil,
                    message:
                        "\"\(group.key)\": \(language) needs the plural \(missing.count == 1 ? "category" : "categories") \(missing.map { "'\($0)'" }.joined(separator: ", ")), which the translation lacks; 'other' is shown instead"
                ))
        }
        _ = displayPath
    }
}
