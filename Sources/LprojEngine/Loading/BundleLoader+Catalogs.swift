import LprojLocales
import LprojTables

extension BundleLoader {
    /// Loads a bundle's String Catalogs (those at `paths`, as listed): the
    /// ones in `reading`, or all. A catalog not in `reading` is taken from
    /// `previous` unchanged; one that cannot be read keeps its last good
    /// version there. Returns the bytes held for each too.
    func loadStringCatalogs(
        _ configuration: BundleConfiguration, paths: [String], previous: [LoadedStringCatalog], previousSizes: [String: Int],
        reading: Set<String>?
    ) -> (catalogs: [LoadedStringCatalog], reports: [String: FileReport?], sizes: [String: Int]) {
        let previousByPath = Dictionary(previous.map { ($0.path, $0) }, uniquingKeysWith: { $1 })
        var catalogs: [LoadedStringCatalog] = []
        var reports: [String: FileReport?] = [:]
        var sizes: [String: Int] = [:]
        for path in paths {
            if let reading, !reading.contains(path), let unchanged = previousByPath[path] {
                catalogs.append(unchanged)
                sizes[path] = previousSizes[path] ?? 0
                continue
            }
            let (catalog, report, size) = loadStringCatalog(path, configuration: configuration, previous: previousByPath[path])
            if let catalog {
                catalogs.append(catalog)
                sizes[path] = catalog === previousByPath[path] ? previousSizes[path] ?? size : size
            }
            reports[path] = .some(report)
        }
        // Reports of catalogs that are gone are dropped.
        for gone in Set(previousByPath.keys).subtracting(paths) { reports[gone] = .some(nil) }
        return (catalogs, reports, sizes)
    }

    /// Reads, parses and compiles one catalog (`path` is relative to the
    /// bundle directory). On failure the catalog is `previous`, its last
    /// good version.
    package func loadStringCatalog(_ path: String, configuration: BundleConfiguration, previous: LoadedStringCatalog?) -> (
        LoadedStringCatalog?, FileReport?, Int
    ) {
        guard let tableName = StringCatalogFiles.tableName(of: TreePath.lastComponent(path)) else { return (nil, nil, 0) }
        let bytes: [UInt8]
        do {
            bytes = try files.read(
                TreePath.join(configuration.directory, path), maximumSize: configuration.maximumFileSize, within: configuration.directory)
        } catch {
            return (previous, FileReport(unreadable: path, error), 0)
        }
        // Read and compiled in one pass (the parser and the compiler's
        // meaning; see StringCatalogLoader).
        let loaded: StringCatalogLoader.Loaded
        do throws(TableParseError) {
            loaded = try StringCatalogLoader(compiler: StringCatalogCompiler(includesAllStates: configuration.catalogAllStates)).load(bytes)
        } catch {
            return (previous, FileReport(path: path, diagnostics: [error.diagnostic], failed: true), bytes.count)
        }
        let compilation = loaded.compilation
        var diagnostics = loaded.readingDiagnostics + compilation.diagnostics
        var languages: [LoadedStringCatalog.Language] = []
        let previousTables = Dictionary((previous?.languages ?? []).map { ($0.language, $0.table) }, uniquingKeysWith: { $1 })
        for table in compilation.tables {
            let folderName = "\(table.language).lproj"
            switch folderMeaning(folderName, configuration: configuration) {
            case .success(let (name, standard)):
                // A language whose entries did not change keeps its table, so
                // that only the languages that did are announced as changed.
                var compiled = LocalizedTable(strings: table.strings, plurals: table.plurals)
                if let last = previousTables[table.language], last.plurals == compiled.plurals,
                    last.strings.hasSameEntries(as: compiled.strings)
                {
                    compiled = last
                }
                languages.append(
                    LoadedStringCatalog.Language(
                        language: table.language, folderName: folderName, name: name, standardLocale: standard, table: compiled))
            case .failure(let problem):
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, location: nil, code: "unknown-locale",
                        message: "the language '\(table.language)' is not served: \(problem.message)"))
            }
        }
        if let source = try? LocaleIdentifier(loaded.sourceLanguage), source.matchKey != configuration.developmentLocale.matchKey {
            diagnostics.append(
                Diagnostic(
                    severity: .warning, location: nil, code: "catalog-source-language",
                    message:
                        "the catalog's source language is \(loaded.sourceLanguage) but the bundle's development locale is \(configuration.developmentLocale.tag): keys missing in a language fall back to \(configuration.developmentLocale.tag)"
                ))
        }
        let catalog = LoadedStringCatalog(
            path: path, tableName: tableName, sourceLanguage: loaded.sourceLanguage, languages: languages)
        return (catalog, diagnostics.isEmpty ? nil : FileReport(path: path, diagnostics: diagnostics, failed: false), bytes.count)
    }
}
