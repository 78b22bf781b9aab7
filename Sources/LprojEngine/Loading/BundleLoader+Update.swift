internal import LprojTables

extension BundleLoader {
    /// Applies changes to a loaded bundle, reading only what changed: the
    /// other folders and tables are shared with `previous`. A file that now
    /// fails keeps its last good table.
    package func update(_ previous: LoadedBundle, with changes: BundleChanges) -> (bundle: LoadedBundle, summary: ReloadSummary) {
        if changes.everything {
            let bundle = load(previous.configuration, previous: previous)
            return (bundle, Self.difference(from: previous, to: bundle, touched: nil))
        }
        let configuration = previous.configuration
        var localizations = Dictionary(uniqueKeysWithValues: previous.folders.map { ($0.folderName, $0) })
        var reports = Dictionary(previous.fileReports.map { ($0.path, $0) }, uniquingKeysWith: { _, last in last })
        var problems = previous.loadProblems.filter { $0.code != "bundle-missing" }
        var touchedPaths: Set<String> = []
        for (folderName, files) in changes.folders {
            let exists = self.files.isDirectory(TreePath.join(configuration.directory, folderName))
            problems.removeAll { $0.message.hasPrefix("\(folderName):") }
            guard exists else {
                localizations[folderName] = nil
                for path in reports.keys where path.hasPrefix("\(folderName)/") && !path.hasSuffix(".xcstrings") { reports[path] = nil }
                continue
            }
            if let files, let existing = localizations[folderName] {
                let (updated, fileReports) = reloadFiles(files, of: existing, configuration: configuration)
                localizations[folderName] = updated
                for file in files {
                    let path = "\(folderName)/\(file)"
                    touchedPaths.insert(path)
                    reports[path] = fileReports.first { $0.path == path }
                }
            } else {
                for path in reports.keys where path.hasPrefix("\(folderName)/") && !path.hasSuffix(".xcstrings") { reports[path] = nil }
                switch loadFolder(folderName, configuration: configuration, previous: localizations[folderName]) {
                case .success(let (localization, folderReports)):
                    localizations[folderName] = localization
                    for report in folderReports { reports[report.path] = report }
                    for table in localization.tables.keys { touchedPaths.insert("\(folderName)/\(table)") }
                case .failure(let problem):
                    localizations[folderName] = nil
                    problems.append(problem)
                }
            }
        }
        var catalogs = previous.stringCatalogs
        // A folder that came or went may hold catalogs too.
        if !changes.stringCatalogs.isEmpty || changes.folders.values.contains(where: { $0 == nil }) {
            let reloaded = loadStringCatalogs(configuration, previous: catalogs, reading: changes.stringCatalogs)
            catalogs = reloaded.catalogs
            for (path, report) in reloaded.reports { reports[path] = report }
        }
        let bundle = LoadedBundle(
            configuration: configuration, folders: Array(localizations.values), stringCatalogs: catalogs,
            fileReports: Array(reports.values), problems: problems)
        bundle.keepResolvedChains(of: previous)
        return (bundle, Self.difference(from: previous, to: bundle, touched: changes))
    }

    /// Reads some files of a folder again.
    private func reloadFiles(_ files: Set<String>, of localization: LprojFolder, configuration: BundleConfiguration) -> (
        LprojFolder, [FileReport]
    ) {
        let folder = TreePath.join(configuration.directory, localization.folderName)
        var tables = localization.tables
        var reports: [FileReport] = []
        for file in files {
            guard let kind = TableFileKind(fileName: file), let name = TableFileKind.tableName(of: file), TableName.isValid(name) else {
                continue
            }
            let path = TreePath.join(folder, file)
            let current = tables[name] ?? LocalizedTable()
            guard self.files.entry(at: path) != nil else {
                // The file is gone: so is its half of the table.
                let remaining = kind == .strings ? LocalizedTable(plurals: current.plurals) : LocalizedTable(strings: current.strings)
                tables[name] = remaining.entryCount == 0 && !exists(folder, name, other: kind) ? nil : remaining
                continue
            }
            let loaded = loadFile(
                path, kind: kind, path: "\(localization.folderName)/\(file)", maximumSize: configuration.maximumFileSize,
                within: configuration.directory)
            if let report = loaded.report { reports.append(report) }
            switch loaded.content {
            case .strings(let strings)?: tables[name] = LocalizedTable(strings: strings, plurals: current.plurals)
            case .plurals(let plurals)?: tables[name] = LocalizedTable(strings: current.strings, plurals: plurals)
            case nil: break  // keep the last good version
            }
        }
        return (
            LprojFolder(
                name: localization.name, folderName: localization.folderName, standardLocale: localization.standardLocale, tables: tables),
            reports
        )
    }

    private func exists(_ folder: String, _ table: String, other kind: TableFileKind) -> Bool {
        let other: TableFileKind = kind == .strings ? .stringsdict : .strings
        return files.entry(at: TreePath.join(folder, "\(table).\(other.rawValue)")) != nil
    }

    /// What differs between two versions of a bundle.
    static func difference(from old: LoadedBundle, to new: LoadedBundle, touched: BundleChanges?) -> ReloadSummary {
        var summary = ReloadSummary()
        let oldFolders = Dictionary(uniqueKeysWithValues: old.localizations.map { ($0.folderName, $0) })
        let newFolders = Dictionary(uniqueKeysWithValues: new.localizations.map { ($0.folderName, $0) })
        summary.addedLocales = newFolders.keys.filter { oldFolders[$0] == nil }.map { newFolders[$0]!.name.description }.sorted()
        summary.removedLocales = oldFolders.keys.filter { newFolders[$0] == nil }.map { oldFolders[$0]!.name.description }.sorted()
        for (name, folder) in newFolders {
            guard let previous = oldFolders[name] else {
                summary.tables.formUnion(folder.tables.keys)
                if !folder.tables.isEmpty { summary.locales.insert(folder.name.description) }
                continue
            }
            guard previous !== folder else { continue }
            for table in Set(folder.tables.keys).union(previous.tables.keys) {
                let before = previous.tables[table], after = folder.tables[table]
                let sameStrings =
                    before.map { before in after.map { before.strings.isIdentical(to: $0.strings) } ?? false } ?? (after == nil)
                if !sameStrings || before?.plurals != after?.plurals {
                    summary.tables.insert(table)
                    summary.locales.insert(folder.name.description)
                }
            }
        }
        for (_, folder) in oldFolders where newFolders[folder.folderName] == nil {
            summary.tables.formUnion(folder.tables.keys)
            if !folder.tables.isEmpty { summary.locales.insert(folder.name.description) }
        }
        let oldReports = Dictionary(old.fileReports.map { ($0.path, $0) }, uniquingKeysWith: { $1 })
        for report in new.fileReports where oldReports[report.path] != report || touched.map({ Self.touches($0, report.path) }) == true {
            summary.reports.append(report)
        }
        return summary
    }

    private static func touches(_ changes: BundleChanges, _ path: String) -> Bool {
        if changes.stringCatalogs.contains(path) { return true }
        guard let slash = path.firstIndex(of: "/") else { return false }
        let folder = String(path[..<slash]), file = String(path[path.index(after: slash)...])
        guard let entry = changes.folders[folder] else { return false }
        return entry?.contains(file) ?? true
    }
}
