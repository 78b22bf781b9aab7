internal import LprojEngine
internal import LprojFormatStrings
internal import LprojLocales
internal import LprojTables

/// Checks a String Catalog: what Xcode would refuse to compile, what it
/// would compile differently from what the translator meant, and what is
/// not finished.
enum CatalogChecks {
    static func check(_ file: StringCatalogFile, path: String, files: any FileTree) -> [Diagnostic] {
        let catalog = file.catalog
        var diagnostics = file.diagnostics
        // What the daemon reports when it compiles the catalog.
        diagnostics += StringCatalogCompiler().compile(catalog).diagnostics
        // Translators' mistakes are looked for in every unit, finished or not.
        let everything = StringCatalogCompiler(includesAllStates: true)
        let languages = catalog.languages
        var pluralEntries: [String: [String: PluralFormat]] = [:]
        var pluralLocations: [String: SourceLocation] = [:]
        for entry in catalog.entries {
            let key = CatalogPath.quoted(entry.key)
            if entry.extractionState == "stale" {
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, location: entry.location, code: "catalog-stale-key",
                        message: "\(key) is marked stale: the code no longer uses it", keyPath: entry.key))
            }
            var ignored: [Diagnostic] = []
            let source = everything.compile(entry, language: catalog.sourceLanguage, isSource: true, diagnostics: &ignored)
            for language in entry.localizations.keys.sorted() {
                let localization = entry.localizations[language]!
                let place = localization.location ?? entry.location
                diagnostics += unitStates(localization, key: key, language: language, location: place)
                if localization.stringUnit != nil && localization.variations != nil {
                    diagnostics.append(
                        Diagnostic(
                            severity: .warning, location: place, code: "catalog-unused-unit",
                            message: "\(key) in \(language): the stringUnit beside the variations is never shown", keyPath: entry.key))
                }
                if let devices = localization.variations?.device, !DesktopDevice.preference.contains(where: { devices[$0] != nil }) {
                    diagnostics.append(
                        Diagnostic(
                            severity: .warning, location: place, code: "catalog-no-desktop-variant",
                            message:
                                "\(key) in \(language) varies by device without a 'mac' or 'other' case, so a desktop falls back to another language or the key",
                            keyPath: entry.key))
                }
                if !entry.shouldTranslate && language != catalog.sourceLanguage {
                    diagnostics.append(
                        Diagnostic(
                            severity: .warning, location: place, code: "catalog-not-translated",
                            message: "\(key) is marked \"Don't Translate\"; its \(language) value is not served", keyPath: entry.key))
                }
                guard
                    let compiled = everything.compile(
                        entry, language: language, isSource: language == catalog.sourceLanguage, diagnostics: &ignored)
                else { continue }
                if case .plural(let format) = compiled {
                    pluralEntries[language, default: [:]][entry.key] = format
                    pluralLocations[entry.key] = entry.location
                }
                guard language != catalog.sourceLanguage, let source else { continue }
                let expected = source.format, actual = compiled.format
                diagnostics += ArgumentChecks.differences(
                    expected: ArgumentSignature(expected.format, variables: expected.variables),
                    actual: ArgumentSignature(actual.format, variables: actual.variables), key: entry.key, location: place,
                    developmentName: catalog.sourceLanguage, alsoPassed: ArgumentSignature(FormatString(entry.key))
                ).map { $0.inLanguage(language) }
            }
            if entry.shouldTranslate {
                let missing = languages.filter { $0 != catalog.sourceLanguage && entry.localizations[$0] == nil }
                if !missing.isEmpty {
                    diagnostics.append(
                        Diagnostic(
                            severity: .warning, location: entry.location, code: "catalog-missing-translation",
                            message: "\(key) has no translation in \(missing.joined(separator: ", ")) (the catalog's languages)",
                            keyPath: entry.key))
                }
            }
        }
        for (language, entries) in pluralEntries.sorted(by: { $0.key < $1.key }) {
            let locale = try? LocaleIdentifier(language)
            diagnostics += PluralChecks.check(entries, locations: pluralLocations, locale: locale).map { $0.inLanguage(language) }
        }
        diagnostics += conflicts(path: path, files: files)
        return diagnostics
    }

    private static func unitStates(
        _ localization: StringCatalog.Localization, key: String, language: String, location: SourceLocation?
    ) -> [Diagnostic] {
        var units: [StringCatalog.StringUnit] = []
        func collect(_ variations: StringCatalog.Variations?) {
            for variant in (variations?.plural ?? [:]).values { collect(variant) }
            for variant in (variations?.device ?? [:]).values { collect(variant) }
        }
        func collect(_ variant: StringCatalog.Variant) {
            if let unit = variant.stringUnit { units.append(unit) }
            collect(variant.variations)
        }
        if let unit = localization.stringUnit { units.append(unit) }
        collect(localization.variations)
        for substitution in localization.substitutions.values { units += substitution.plural.values }
        var diagnostics: [Diagnostic] = []
        for state in [StringCatalog.State.needsReview, .stale] {
            let flagged = units.filter { $0.state == state }
            guard !flagged.isEmpty else { continue }
            let text = state == .needsReview ? "needs review" : "is stale"
            diagnostics.append(
                Diagnostic(
                    severity: .warning, location: flagged.compactMap(\.location).min() ?? location, code: "catalog-state",
                    message: "\(key) in \(language) \(text) (state \(state))", keyPath: key, language: language))
        }
        return diagnostics
    }

    /// `.lproj` files beside the catalog that define its table too: Xcode
    /// refuses to build that, and lprojd serves one of them
    /// (`catalog-conflicts`).
    private static func conflicts(path: String, files: any FileTree) -> [Diagnostic] {
        guard let table = StringCatalogFiles.tableName(of: TreePath.lastComponent(path)) else { return [] }
        let directory = TreePath.parent(path)
        var clashing: [String] = []
        for folder in (try? files.lprojFolders(in: directory)) ?? [] {
            for kind in TableFileKind.allCases where files.entry(at: TreePath.join(directory, folder, "\(table).\(kind.rawValue)")) != nil {
                clashing.append("\(folder)/\(table).\(kind.rawValue)")
            }
        }
        guard !clashing.isEmpty else { return [] }
        return [
            Diagnostic(
                severity: .warning, location: nil, code: "catalog-conflict",
                message:
                    "the table \(table) is also defined by \(clashing.joined(separator: ", ")); Xcode refuses to build this, and lprojd serves one of them (catalog-conflicts, by default the catalog)"
            )
        ]
    }
}

extension Diagnostic {
    /// The same finding, its message saying which of a catalog's languages it is about.
    fileprivate func inLanguage(_ language: String) -> Diagnostic {
        Diagnostic(
            severity: severity, location: location, code: code, message: "\(language): \(message)", keyPath: keyPath, language: language)
    }
}
