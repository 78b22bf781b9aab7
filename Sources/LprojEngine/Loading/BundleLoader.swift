internal import Dispatch
package import LprojFormatStrings
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
///
/// A bundle is held to its ``BundleLimits``: its folders are listed and its
/// files' sizes taken before any is read, so that a bundle over a limit
/// costs a listing, not a read of everything; such a bundle keeps its last
/// good version, with the reason among its problems (code `bundle-limit`).
package struct BundleLoader: Sendable {
    /// Where the bundles' files are read from.
    package let files: any FileTree
    /// Whether one load reads its folders on every core (lprojd's start-up,
    /// the tools) or on the calling thread only (lprojd's reloads, which
    /// must take no more than their share of the machine).
    package var readsInParallel = true

    /// Creates a loader that reads from `files` (`LprojFiles` adds `init()`,
    /// which reads the disk).
    package init(files: any FileTree) {
        self.files = files
    }

    /// Loads the whole bundle.
    package func load(_ configuration: BundleConfiguration, previous: LoadedBundle? = nil) -> LoadedBundle {
        loadWithinLimits(configuration, previous: previous).bundle
    }

    /// Loads the whole bundle; says which limit refused it, if one did.
    package func loadWithinLimits(_ configuration: BundleConfiguration, previous: LoadedBundle? = nil) -> (
        bundle: LoadedBundle, exceeded: BundleLimitExceeded?
    ) {
        func refusal(_ exceeded: BundleLimitExceeded) -> (LoadedBundle, BundleLimitExceeded?) {
            (refused(exceeded, configuration, previous), exceeded)
        }
        let limits = configuration.limits
        let folders: [String]
        do {
            folders = try files.lprojFolders(in: configuration.directory, limit: limits.directoryEntries)
        } catch .tooManyEntries {
            return refusal(BundleLimitExceeded(.directoryEntries, maximum: limits.directoryEntries))
        } catch {
            let problem = Diagnostic(
                severity: .error, location: nil, code: "bundle-missing",
                message: "the bundle directory \(configuration.directory) cannot be read: \(error)")
            return (LoadedBundle(configuration: configuration, localizations: [], fileReports: [], problems: [problem]), nil)
        }
        guard folders.count <= limits.locales else {
            return refusal(BundleLimitExceeded(.locales, maximum: limits.locales, found: folders.count))
        }
        // Everything is listed, and sized, before anything is read.
        var listings: [Int: FolderListing] = [:]
        var problems: [Diagnostic] = []
        var sizes: [String: Int] = [:]
        for (index, folderName) in folders.enumerated() {
            switch folderMeaning(folderName, configuration: configuration) {
            case .failure(let problem):
                problems.append(problem)
            case .success(let meaning):
                do {
                    let listing = try list(folderName, meaning: meaning, configuration: configuration)
                    for file in listing.files { sizes[file.path] = file.size ?? 0 }
                    listings[index] = listing
                } catch {
                    return refusal(error)
                }
            }
        }
        let catalogPaths = files.stringCatalogs(in: configuration.directory, limit: limits.directoryEntries)
        for path in catalogPaths { sizes[path] = size(of: TreePath.join(configuration.directory, path)) ?? 0 }
        if let exceeded = Self.check(sizes, limits: limits) { return refusal(exceeded) }

        let previousFolders = Dictionary((previous?.folders ?? []).map { ($0.folderName, $0) }, uniquingKeysWith: { $1 })
        let results = Mutex<[Int: (LprojFolder, [FileReport], [String: Int])]>([:])
        let ordered = listings.keys.sorted().map { listings[$0]! }
        let indexes = ordered.indices
        let readOne: @Sendable (Int) -> Void = { position in
            let listing = ordered[position]
            let result = loadFolder(listing, configuration: configuration, previous: previousFolders[listing.folderName])
            results.withLock { $0[position] = result }
        }
        if readsInParallel {
            DispatchQueue.concurrentPerform(iterations: indexes.count, execute: readOne)
        } else {
            for position in indexes.indices { readOne(position) }
        }
        var localizations: [LprojFolder] = []
        var reports: [FileReport] = []
        var readSizes: [String: Int] = [:]
        for position in indexes.indices {
            let (localization, folderReports, folderSizes) = results.withLock({ $0[position] })!
            localizations.append(localization)
            reports += folderReports
            readSizes.merge(folderSizes) { $1 }
        }
        let (catalogs, catalogReports, catalogSizes) = loadStringCatalogs(
            configuration, paths: catalogPaths, previous: previous?.stringCatalogs ?? [], previousSizes: previous?.fileSizes ?? [:],
            reading: nil)
        reports += catalogReports.values.compactMap { $0 }
        readSizes.merge(catalogSizes) { $1 }
        let bundle = LoadedBundle(
            configuration: configuration, folders: localizations, stringCatalogs: catalogs, fileReports: reports, problems: problems,
            fileSizes: readSizes)
        // Files may have grown between their listing and their reading.
        if let exceeded = Self.check(readSizes, limits: limits) ?? Self.checkEntries(bundle) { return refusal(exceeded) }
        return (bundle, nil)
    }

    /// A folder's table files and their sizes, listed before any is read.
    struct FolderListing {
        struct File {
            let name: String
            /// Relative to the bundle directory: `de.lproj/Localizable.strings`.
            let path: String
            let kind: TableFileKind
            let table: String
            /// Nil when it is no regular file (it is reported when read).
            let size: Int?
        }

        let folderName: String
        let meaning: (LprojName, LocaleIdentifier)
        let files: [File]
    }

    /// Lists a folder's table files, with their sizes.
    func list(_ folderName: String, meaning: (LprojName, LocaleIdentifier), configuration: BundleConfiguration) throws(BundleLimitExceeded)
        -> FolderListing
    {
        let limits = configuration.limits
        let folder = TreePath.join(configuration.directory, folderName)
        let names: [String]
        do {
            names = try files.names(in: folder, limit: limits.directoryEntries)
        } catch .tooManyEntries {
            throw BundleLimitExceeded(.directoryEntries, maximum: limits.directoryEntries)
        } catch {
            names = []
        }
        var listed: [FolderListing.File] = []
        for name in names {
            guard let kind = TableFileKind(fileName: name), let table = TableFileKind.tableName(of: name), TableName.isValid(table) else {
                continue
            }
            guard listed.count < limits.tables else { throw BundleLimitExceeded(.tables, maximum: limits.tables) }
            listed.append(
                .init(name: name, path: "\(folderName)/\(name)", kind: kind, table: table, size: size(of: TreePath.join(folder, name))))
        }
        return FolderListing(folderName: folderName, meaning: meaning, files: listed)
    }

    /// A regular file's size; nil for anything else.
    func size(of path: String) -> Int? {
        if case .file(let size)? = files.entry(at: path) { return size }
        return nil
    }

    /// The limit that table files of these sizes go over, if any.
    static func check(_ sizes: [String: Int], limits: BundleLimits) -> BundleLimitExceeded? {
        if sizes.count > limits.tables { return BundleLimitExceeded(.tables, maximum: limits.tables, found: sizes.count) }
        let bytes = sizes.values.reduce(0, +)
        if bytes > limits.bytes { return BundleLimitExceeded(.bytes, maximum: limits.bytes, found: bytes) }
        return nil
    }

    /// The entry limit, checked on what was read.
    static func checkEntries(_ bundle: LoadedBundle) -> BundleLimitExceeded? {
        let limit = bundle.configuration.limits.entries
        let entries =
            bundle.folders.reduce(0) { $0 + $1.entryCount }
            + bundle.stringCatalogs.reduce(0) { total, catalog in total + catalog.languages.reduce(0) { $0 + $1.table.entryCount } }
        return entries > limit ? BundleLimitExceeded(.entries, maximum: limit, found: entries) : nil
    }

    /// The bundle as it was, or empty, with the limit it went over among
    /// its problems: nothing more of it is read.
    func refused(_ exceeded: BundleLimitExceeded, _ configuration: BundleConfiguration, _ previous: LoadedBundle?) -> LoadedBundle {
        let kept = previous.map { !$0.folders.isEmpty || !$0.stringCatalogs.isEmpty } ?? false
        let problem = Diagnostic(
            severity: .error, location: nil, code: BundleLimitExceeded.problemCode,
            message: "the bundle is not read: \(exceeded); \(kept ? "it keeps its last good version" : "it serves nothing")")
        guard let previous else {
            return LoadedBundle(configuration: configuration, localizations: [], fileReports: [], problems: [problem])
        }
        let others = previous.loadProblems.filter { $0.code != BundleLimitExceeded.problemCode && $0.code != "bundle-missing" }
        return previous.withProblems(others + [problem], configuration: configuration)
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

    /// Loads one listed `.lproj` folder; returns it, its files' reports and
    /// the bytes held for each file.
    func loadFolder(_ listing: FolderListing, configuration: BundleConfiguration, previous: LprojFolder?) -> (
        LprojFolder, [FileReport], [String: Int]
    ) {
        let folder = TreePath.join(configuration.directory, listing.folderName)
        var strings: [String: StringTable] = [:]
        var plurals: [String: [String: PluralFormat]] = [:]
        var reports: [FileReport] = []
        var sizes: [String: Int] = [:]
        for file in listing.files {
            let loaded = loadFile(
                TreePath.join(folder, file.name), kind: file.kind, path: file.path, maximumSize: configuration.maximumFileSize,
                within: configuration.directory)
            if let report = loaded.report { reports.append(report) }
            switch (file.kind, loaded.content) {
            case (.strings, .some(.strings(let entries))):
                strings[file.table] = entries
                sizes[file.path] = loaded.size
            case (.stringsdict, .some(.plurals(let entries))):
                plurals[file.table] = entries
                sizes[file.path] = loaded.size
            default:
                // Keep the last good version of a file that failed.
                if file.kind == .strings, let last = previous?.tables[file.table]?.strings, !last.isEmpty {
                    strings[file.table] = last
                    sizes[file.path] = file.size ?? 0
                }
                if file.kind == .stringsdict, let last = previous?.tables[file.table]?.plurals, !last.isEmpty {
                    plurals[file.table] = last
                    sizes[file.path] = file.size ?? 0
                }
            }
        }
        var tables: [String: LocalizedTable] = [:]
        for name in Set(strings.keys).union(plurals.keys) {
            tables[name] = LocalizedTable(strings: strings[name] ?? .empty, plurals: plurals[name] ?? [:])
        }
        let localization = LprojFolder(
            name: listing.meaning.0, folderName: listing.folderName, standardLocale: listing.meaning.1, tables: tables)
        return (localization, reports, sizes)
    }

    /// Lists and loads one `.lproj` folder.
    package func loadFolder(_ folderName: String, configuration: BundleConfiguration, previous: LprojFolder?) -> Result<
        (LprojFolder, [FileReport]), Diagnostic
    > {
        switch folderMeaning(folderName, configuration: configuration) {
        case .failure(let problem):
            return .failure(problem)
        case .success(let meaning):
            do {
                let listing = try list(folderName, meaning: meaning, configuration: configuration)
                let (folder, reports, _) = loadFolder(listing, configuration: configuration, previous: previous)
                return .success((folder, reports))
            } catch {
                return .failure(Diagnostic(severity: .error, location: nil, code: BundleLimitExceeded.problemCode, message: "\(error)"))
            }
        }
    }

    /// What a table file holds.
    package enum FileContent: Sendable {
        case strings(StringTable)
        case plurals([String: PluralFormat])
    }

    /// Reads and parses one table file, which must be a regular file inside
    /// `root` (the bundle's directory). `content` is `nil` when the file
    /// could not be read or parsed; the report says why. `size` is the
    /// bytes read.
    package func loadFile(_ file: String, kind: TableFileKind, path: String, maximumSize: Int, within root: String?) -> (
        content: FileContent?, report: FileReport?, size: Int
    ) {
        let bytes: [UInt8]
        do {
            bytes = try files.read(file, maximumSize: maximumSize, within: root)
        } catch {
            return (nil, FileReport(unreadable: path, error), 0)
        }
        do throws(TableParseError) {
            switch kind {
            case .strings:
                let file = try StringsParser().parse(bytes)
                return (
                    .strings(file.table),
                    file.diagnostics.isEmpty ? nil : FileReport(path: path, diagnostics: file.diagnostics, failed: false), bytes.count
                )
            case .stringsdict:
                let file = try StringsdictParser().parse(bytes)
                return (
                    .plurals(file.entries),
                    file.diagnostics.isEmpty ? nil : FileReport(path: path, diagnostics: file.diagnostics, failed: false), bytes.count
                )
            }
        } catch {
            return (nil, FileReport(path: path, diagnostics: [error.diagnostic], failed: true), bytes.count)
        }
    }
}

extension BundleLimitExceeded {
    /// The code of the problem a bundle over a limit reports.
    package static let problemCode = "bundle-limit"
}
