internal import LprojFormatStrings
internal import LprojLocales
internal import LprojTables

/// Plural entries against the plural rules of their language.
enum PluralChecks {
    static func check(_ file: StringsdictFile, locale: LocaleIdentifier?) -> [Diagnostic] {
        check(file.entries, locations: file.keyLocations, locale: locale)
    }

    static func check(_ entries: [String: PluralFormat], locations: [String: SourceLocation], locale: LocaleIdentifier?) -> [Diagnostic] {
        let rules = locale.flatMap(PluralRules.forLocale)
        var diagnostics: [Diagnostic] = []
        for key in entries.keys.sorted() {
            let entry = entries[key]!
            let location = locations[key]
            let used = usedVariables(entry)
            for name in entry.variables.keys.sorted() where !used.contains(name) {
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, location: location, code: "unused-variable",
                        message: "\(key)/\(name): the variable is defined but the format never uses it", keyPath: "\(key)/\(name)"))
            }
            guard let rules, let locale else { continue }
            for name in used.sorted() {
                guard let variable = entry.variables[name] else { continue }
                let missing = rules.categories.subtracting(variable.forms.keys).sorted()
                guard !missing.isEmpty else { continue }
                let list = missing.map { "'\($0)'" }.joined(separator: ", ")
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, location: location, code: "missing-plural-category",
                        message:
                            "\(key)/\(name): \(locale.tag) uses the plural \(missing.count == 1 ? "category" : "categories") \(list), which the entry lacks; 'other' is shown instead",
                        keyPath: "\(key)/\(name)"))
            }
        }
        return diagnostics
    }

    /// The variables reachable from the format key.
    static func usedVariables(_ entry: PluralFormat) -> Set<String> {
        var used: Set<String> = []
        var pending = entry.format.variableReferences.map(\.name)
        while let name = pending.popLast() {
            guard used.insert(name).inserted, let variable = entry.variables[name] else { continue }
            for form in variable.parsedForms.values { pending += form.variableReferences.map(\.name) }
        }
        return used
    }
}
