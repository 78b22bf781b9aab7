internal import Dispatch
package import LprojFormat
internal import Synchronization
package import LprojLocales
package import LprojTables

/// Reads a bundle directory into a ``LoadedBundle``.
///
/// Every `*.lproj` folder whose name is a locale ICU knows (or one the
/// configuration allows) is read; `*.strings` and `*.stringsdict` files
/// become tables, and everything else, editors' temporary files included,
/// is ignored. String Catalogs (`*.xcstrings`) anywhere in the bundle are
/// compiled into the tables of their languages. A file that cannot be
/// parsed keeps the table it had in `previous`, and its error is reported.
package struct BundleLoader: Sendable {
    /// Where the bundles' files are read from.
    package let files: any FileTree

    /// Creates a loader that reads from `files` (`LprojFiles` adds `init()`,
    /// which reads the disk).
    package init(files: any FileTree) {
        self.files = files
    }

    /// Loads the whole bundle.
    package func load(_ configuration: BundleConfiguration, previous: LoadedBundle? = nil) -> LoadedBundle {
        let folders: [String]
        do {
            folders = try files.lprojFolders(in: configuration.directory)
        } catch {
            let problem = Diagnostic(
                severity: .error, location: nil, code: "bundle-missing",
                message: "the bundle directory \(configuration.directory) cannot be read: \(error)")
            return LoadedBundle(configuration: configuration, localizations: [], fileReports: [], problems: [problem])
        }
        let previousFolders = Dictionary((previous?.folders ?? []).map { ($0.folderName, $0) }, uniquingKeysWith: { $1 })
        // Folders are independent: read them on every core.
        let results = Mutex<[Int: Result<(LprojFolder, [FileReport]), Diagnostic>]>([:])
        DispatchQueue.concurrentPerform(iterations: folders.count) { index in
            let result = loadFolder(folders[index], configuration: configuration, previous: previousFolders[folders[index]])
            results.withLock { $0[index] = result }
        }
        var localizations: [LprojFolder] = []
        var reports: [FileReport] = []
        var problems: [Diagnostic] = []
        for index in folders.indices {
            switch results.withLock({ $0[index] })! {
            case .success(let (localization, folderReports)):
                localizations.append(localization)
                reports += folderReports
            case .failure(let problem):
                problems.append(problem)
            }
        }
        let (catalogs, catalogReports) = loadStringCatalogs(configuration, previous: previous?.stringCatalogs ?? [], reading: nil)
        reports += catalogReports.values.compactMap { $0 }
        return LoadedBundle(
            configuration: configuration, folders: localizations, stringCatalogs: catalogs, fileReports: reports, problems: problems)
    }

    /// What a folder's name means for this bundle, or why it is not loaded.
    package func folderMeaning(_ folderName: String, configuration: BundleConfiguration) -> Result<
        (LprojName, LocaleIdentifier), Diagnostic
    > {
        let name: LprojName
        do {
            name = try LprojName(folderName: folderName)
        } catch {
            return .failure(
                Diagnostic(
                    severity: .error, location: nil, code: "unknown-locale",
                    message: "\(folderName): the folder name is not a locale (\(error)); the folder is not loaded"))
        }
        switch name {
        case .base:
            return .success((name, configuration.developmentLocale))
        case .locale(let locale):
            if KnownLocales.isKnown(locale) { return .success((name, locale)) }
            if let standard = configuration.customLocales[locale.tag] { return .success((name, standard)) }
            return .failure(
                Diagnostic(
                    severity: .error, location: nil, code: "unknown-locale",
                    message:
                        "\(folderName): '\(locale.tag)' is not a locale this system knows; map it to a standard locale in the bundle's configuration to load it"
                ))
        }
    }

    /// Loads one `.lproj` folder.
    package func loadFolder(_ folderName: String, configuration: BundleConfiguration, previous: LprojFolder?) -> Result<
        (LprojFolder, [FileReport]), Diagnostic
    > {
        let meaning: (LprojName, LocaleIdentifier)
        switch folderMeaning(folderName, configuration: configuration) {
        case .success(let value): meaning = value
        case .failure(let problem): return .failure(problem)
        }
        let folder = TreePath.join(configuration.directory, folderName)
        let fileNames = (try? files.names(in: folder)) ?? []
        var strings: [String: StringTable] = [:]
        var plurals: [String: [String: PluralFormat]] = [:]
        var reports: [FileReport] = []
        for fileName in fileNames {
            guard let kind = TableFileKind(fileName: fileName), let table = TableFileKind.tableName(of: fileName), TableName.isValid(table)
            else { continue }
            let path = "\(folderName)/\(fileName)"
            let loaded = loadFile(
                TreePath.join(folder, fileName), kind: kind, path: path, maximumSize: configuration.maximumFileSize,
                within: configuration.directory)
            if let report = loaded.report { reports.append(report) }
            switch (kind, loaded.content) {
            case (.strings, .some(.strings(let entries))): strings[table] = entries
            case (.stringsdict, .some(.plurals(let entries))): plurals[table] = entries
            default:
                // Keep the last good version of a file that failed.
                if kind == .strings, let last = previous?.tables[table]?.strings, !last.isEmpty { strings[table] = last }
                if kind == .stringsdict, let last = previous?.tables[table]?.plurals, !last.isEmpty { plurals[table] = last }
            }
        }
        var tables: [String: LocalizedTable] = [:]
        for name in Set(strings.keys).union(plurals.keys) {
            tables[name] = LocalizedTable(strings: strings[name] ?? .empty, plurals: plurals[name] ?? [:])
        }
        return .success((LprojFolder(name: meaning.0, folderName: folderName, standardLocale: meaning.1, tables: tables), reports))
    }

    /// What a table file holds.
    package enum FileContent: Sendable {
        case strings(StringTable)
        case plurals([String: PluralFormat])
    }

    /// Reads and parses one table file, which must be a regular file inside
    /// `root` (the bundle's directory). `content` is `nil` when the file
    /// could not be read or parsed; the report says why.
    package func loadFile(_ file: String, kind: TableFileKind, path: String, maximumSize: Int, within root: String?) -> (
        content: FileContent?, report: FileReport?
    ) {
        let bytes: [UInt8]
        do {
            bytes = try files.read(file, maximumSize: maximumSize, within: root)
        } catch {
            return (nil, FileReport(unreadable: path, error))
        }
        do throws(TableParseError) {
            switch kind {
            case .strings:
                let file = try StringsParser().parse(bytes)
                return (
                    .strings(file.table),
                    file.diagnostics.isEmpty ? nil : FileReport(path: path, diagnostics: file.diagnostics, failed: false)
                )
            case .stringsdict:
                let file = try StringsdictParser().parse(bytes)
                return (
                    .plurals(file.entries),
                    file.diagnostics.isEmpty ? nil : FileReport(path: path, diagnostics: file.diagnostics, failed: false)
                )
            }
        } catch {
            return (nil, FileReport(path: path, diagnostics: [error.diagnostic], failed: true))
        }
    }
}
