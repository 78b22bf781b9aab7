import LprojLocales
import LprojTables

/// Puts a bundle's String Catalogs where Xcode would compile them: each
/// language's table into `<language>.lproj`, beside the tables already
/// there. A folder that only a catalog stands for becomes a folder of its
/// own, so lookups, fallback, `GetTable` and `SupportedLocales` treat
/// catalogs and `.lproj` files alike.
enum CatalogMerge {
    struct Result {
        let localizations: [LprojFolder]
        let problems: [Diagnostic]
    }

    static func merge(folders: [LprojFolder], catalogs: [LoadedStringCatalog], conflict: CatalogConflict) -> Result {
        guard !catalogs.isEmpty else { return Result(localizations: folders, problems: []) }
        var problems: [Diagnostic] = []
        // One catalog per table: the first by path.
        var catalogByTable: [String: LoadedStringCatalog] = [:]
        for catalog in catalogs {
            if let first = catalogByTable[catalog.tableName] {
                problems.append(
                    Diagnostic(
                        severity: .error, location: nil, code: "catalog-duplicate",
                        message:
                            "\(catalog.path): the table \(catalog.tableName) is already defined by \(first.path); this catalog is not served"
                    ))
                continue
            }
            catalogByTable[catalog.tableName] = catalog
        }
        // The tables that .lproj files define, by locale.
        var folderTables: [LocaleKey?: [String: [String]]] = [:]
        for folder in folders {
            for table in folder.tables.keys { folderTables[folder.matchKey, default: [:]][table, default: []].append(folder.folderName) }
        }
        var additions: [String: (language: LoadedStringCatalog.Language, tables: [String: LocalizedTable])] = [:]
        var removals: [String: Set<String>] = [:]  // folder name -> tables the catalog replaces
        for catalog in catalogByTable.values.sorted(by: { $0.path < $1.path }) {
            for language in catalog.languages {
                if let clashing = folderTables[language.name.matchKey]?[catalog.tableName] {
                    let files = clashing.map { "\($0)/\(catalog.tableName).strings(dict)" }.joined(separator: ", ")
                    problems.append(
                        Diagnostic(
                            severity: .warning, location: nil, code: "catalog-conflict",
                            message:
                                "\(catalog.path) and \(files) both define the table \(catalog.tableName) in \(language.language); "
                                + (conflict == .catalog
                                    ? "the catalog's is served (catalog-conflicts: catalog)"
                                    : "the .lproj files' are served (catalog-conflicts: lproj)")))
                    if conflict == .lproj { continue }
                    for folder in clashing { removals[folder, default: []].insert(catalog.tableName) }
                }
                additions[language.folderName, default: (language, [:])].tables[catalog.tableName] = language.table
            }
        }
        var localizations: [LprojFolder] = []
        var seen: Set<String> = []
        for folder in folders {
            seen.insert(folder.folderName)
            let added = additions[folder.folderName]?.tables ?? [:]
            let removed = removals[folder.folderName] ?? []
            guard !added.isEmpty || !removed.isEmpty else {
                localizations.append(folder)
                continue
            }
            var tables = folder.tables
            for table in removed { tables[table] = nil }
            tables.merge(added) { _, catalog in catalog }
            localizations.append(
                LprojFolder(name: folder.name, folderName: folder.folderName, standardLocale: folder.standardLocale, tables: tables))
        }
        for (folderName, addition) in additions where !seen.contains(folderName) {
            localizations.append(
                LprojFolder(
                    name: addition.language.name, folderName: folderName, standardLocale: addition.language.standardLocale,
                    tables: addition.tables))
        }
        return Result(localizations: localizations.sorted { $0.folderName < $1.folderName }, problems: problems)
    }
}
