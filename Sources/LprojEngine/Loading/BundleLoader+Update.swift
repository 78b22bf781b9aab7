internal import LprojTables

extension BundleLoader {
    /// Applies changes to a loaded bundle, reading only what changed: the
    /// other folders and tables are shared with `previous`. A file that now
    /// fails keeps its last good table.
    package func update(_ previous: LoadedBundle, with changes: BundleChanges) -> (bundle: LoadedBundle, summary: ReloadSummary) {
        if changes.everything {
            let (bundle, exceeded) = loadWithinLimits(previous.configuration, previous: previous)
            if let exceeded { return (bundle, ReloadSummary(limitExceeded: exceeded)) }
            return (bundle, Self.difference(from: previous, to: bundle, touched: nil))
        }
        let configuration = previous.configuration
        let limits = configuration.limits
        var localizations = Dictionary(uniqueKeysWithValues: previous.folders.map { ($0.folderName, $0) })
        var reports = Dictionary(previous.fileReports.map { ($0.path, $0) }, uniquingKeysWith: { _, last in last })
        var problems = previous.loadProblems.filter { $0.code != "bundle-missing" && $0.code != BundleLimitExceeded.problemCode }
        var touchedPaths: Set<String> = []
        // What the bundle would hold afterwards is sized before anything
        // is read: the files that changed, the folders that came.
        var sizes = previous.fileSizes
        var listings: [String: FolderListing] = [:]
        var gone: Set<String> = []
        for (folderName, files) in changes.folders {
            guard self.files.isDirectory(TreePath.join(configuration.directory, folderName)) else {
                gone.insert(folderName)
                sizes = sizes.filter { !Self.isInside($0.key, folderName) }
                continue
            }
            if let files, localizations[folderName] != nil {
                for file in files where TableFileKind(fileName: file) != nil {
                    sizes["\(folderName)/\(file)"] = size(of: TreePath.join(configuration.directory, folderName, file))
                }
            } else if case .success(let meaning) = folderMeaning(folderName, configuration: configuration) {
                do {
                    let listing = try list(folderName, meaning: meaning, configuration: configuration)
                    sizes = sizes.filter { !Self.isInside($0.key, folderName) }
                    for file in listing.files { sizes[file.path] = file.size ?? 0 }
                    listings[folderName] = listing
                } catch {
                    return (refused(error, configuration, previous), ReloadSummary(limitExceeded: error))
                }
            }
        }
        let catalogsChanged = !changes.stringCatalogs.isEmpty || changes.folders.values.contains(where: { $0 == nil })
        var catalogPaths = previous.stringCatalogs.map(\.path)
        if catalogsChanged {
            catalogPaths = self.files.stringCatalogs(in: configuration.directory, limit: limits.directoryEntries)
            let listed = Set(catalogPaths)
            for path in previous.stringCatalogs.map(\.path) where !listed.contains(path) { sizes[path] = nil }
            for path in catalogPaths where changes.stringCatalogs.contains(path) || previous.fileSizes[path] == nil {
                sizes[path] = size(of: TreePath.join(configuration.directory, path)) ?? 0
            }
        }
        let folderCount = Set(localizations.keys).subtracting(gone).union(listings.keys).count
        if let exceeded = folderCount > limits.locales
            ? BundleLimitExceeded(.locales, maximum: limits.locales, found: folderCount) : Self.check(sizes, limits: limits)
        {
            return (refused(exceeded, configuration, previous), ReloadSummary(limitExceeded: exceeded))
        }

        // Within the limits: read what changed.
        var heldSizes = previous.fileSizes
        for (folderName, files) in changes.folders {
            problems.removeAll { $0.message.hasPrefix("\(folderName):") }
            guard !gone.contains(folderName) else {
                localizations[folderName] = nil
                heldSizes = heldSizes.filter { !Self.isInside($0.key, folderName) }
                for path in reports.keys where path.hasPrefix("\(folderName)/") && !path.hasSuffix(".xcstrings") { reports[path] = nil }
                continue
            }
            if let files, let existing = localizations[folderName] {
                let (updated, fileReports, fileSizes) = reloadFiles(files, of: existing, configuration: configuration)
                localizations[folderName] = updated
                for file in files {
                    let path = "\(folderName)/\(file)"
                    touchedPaths.insert(path)
                    reports[path] = fileReports.first { $0.path == path }
                    if let held = fileSizes[path] { heldSizes[path] = held }
                }
            } else {
                for path in reports.keys where path.hasPrefix("\(folderName)/") && !path.hasSuffix(".xcstrings") { reports[path] = nil }
                heldSizes = heldSizes.filter { !Self.isInside($0.key, folderName) }
                guard let listing = listings[folderName] else {
                    // Not a locale this bundle serves: say why.
                    localizations[folderName] = nil
                    if case .failure(let problem) = folderMeaning(folderName, configuration: configuration) { problems.append(problem) }
                    continue
                }
                let (localization, folderReports, folderSizes) = loadFolder(
                    listing, configuration: configuration, previous: localizations[folderName])
                localizations[folderName] = localization
                for report in folderReports { reports[report.path] = report }
                heldSizes.merge(folderSizes) { $1 }
                for table in localization.tables.keys { touchedPaths.insert("\(folderName)/\(table)") }
            }
        }
        var catalogs = previous.stringCatalogs
        // A folder that came or went may hold catalogs too.
        if catalogsChanged {
            let reloaded = loadStringCatalogs(
                configuration, paths: catalogPaths, previous: catalogs, previousSizes: previous.fileSizes, reading: changes.stringCatalogs)
            catalogs = reloaded.catalogs
            for (path, report) in reloaded.reports { reports[path] = report }
            for path in previous.stringCatalogs.map(\.path) { heldSizes[path] = nil }
            heldSizes.merge(reloaded.sizes) { $1 }
        }
        let bundle = LoadedBundle(
            configuration: configuration, folders: Array(localizations.values), stringCatalogs: catalogs,
            fileReports: Array(reports.values), problems: problems, fileSizes: heldSizes)
        if let exceeded = Self.check(heldSizes, limits: limits) ?? Self.checkEntries(bundle) {
            return (refused(exceeded, configuration, previous), ReloadSummary(limitExceeded: exceeded))
        }
        bundle.keepResolvedChains(of: previous)
        return (bundle, Self.difference(from: previous, to: bundle, touched: changes))
    }

    /// Whether a path relative to the bundle is inside one of its folders.
    private static func isInside(_ path: String, _ folder: String) -> Bool {
        path.hasPrefix(folder + "/") && !path.hasSuffix(".xcstrings")
    }

    /// Reads some files of a folder again; returns the folder, the files'
    /// reports and the bytes held for each (nil: none, the file is gone).
    private func reloadFiles(_ files: Set<String>, of localization: LprojFolder, configuration: BundleConfiguration) -> (
        LprojFolder, [FileReport], [String: Int?]
    ) {
        let folder = TreePath.join(configuration.directory, localization.folderName)
        var tables = localization.tables
        var reports: [FileReport] = []
        var sizes: [String: Int?] = [:]
        for file in files {
            guard let kind = TableFileKind(fileName: file), let name = TableFileKind.tableName(of: file), TableName.isValid(name) else {
                continue
            }
            let path = TreePath.join(folder, file)
            let relative = "\(localization.folderName)/\(file)"
            let current = tables[name] ?? LocalizedTable()
            guard self.files.entry(at: path) != nil else {
                // The file is gone: so is its half of the table.
                let remaining = kind == .strings ? LocalizedTable(plurals: current.plurals) : LocalizedTable(strings: current.strings)
                tables[name] = remaining.entryCount == 0 && !exists(folder, name, other: kind) ? nil : remaining
                sizes[relative] = .some(nil)
                continue
            }
            let loaded = loadFile(
                path, kind: kind, path: relative, maximumSize: configuration.maximumFileSize, within: configuration.directory)
            if let report = loaded.report { reports.append(report) }
            switch loaded.content {
            case .strings(let strings)?:
                tables[name] = LocalizedTable(strings: strings, plurals: current.plurals)
                sizes[relative] = loaded.size
            case .plurals(let plurals)?:
                tables[name] = LocalizedTable(strings: current.strings, plurals: plurals)
                sizes[relative] = loaded.size
            case nil:
                break  // keep the last good version (and its size)
            }
        }
        return (
            LprojFolder(
                name: localization.name, folderName: localization.folderName, standardLocale: localization.standardLocale, tables: tables),
            reports, sizes
        )
    }

    private func exists(_ folder: String, _ table: String, other kind: TableFileKind) -> Bool {
        let other: TableFileKind = kind == .strings ? .stringsdict : .strings
        return files.entry(at: TreePath.join(folder, "\(table).\(other.rawValue)")) != nil
    }

    /// What differs between two versions of a bundle.
    package static func difference(from old: LoadedBundle, to new: LoadedBundle, touched: BundleChanges?) -> ReloadSummary {
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
