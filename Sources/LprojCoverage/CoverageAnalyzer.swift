package import LprojEngine
internal import LprojFormatStrings
internal import LprojLint
package import LprojLocales
internal import LprojTables

/// Measures how far a bundle directory is translated, without lprojd: it
/// loads the bundle as lprojd does and asks, for every key of the
/// development locale and every other locale, where a lookup's answer comes
/// from; the linter adds the plural and argument problems, and the String
/// Catalogs their units' review states.
package struct CoverageAnalyzer: Sendable {
    package let files: any FileTree

    package init(files: any FileTree) {
        self.files = files
    }

    /// The report for the bundle in `directory`, whose keys are written in
    /// `developmentLocale`.
    /// `progress` is told of each locale as it is measured (its tag, and
    /// how many there are).
    package func report(
        directory: String, developmentLocale: LocaleIdentifier, name: String,
        progress: (_ locale: String, _ total: Int) -> Void = { _, _ in }
    ) -> CoverageReport {
        let configuration = BundleConfiguration(name: name, directory: directory, developmentLocale: developmentLocale)
        let bundle = BundleLoader(files: files).load(configuration)
        let development = bundle.developmentLocale
        let locales = bundle.supportedLocales.filter { $0.matchKey != developmentLocale.matchKey && PseudoLocalization($0) == nil }
        let problems = Problems(
            findings: Linter(files: files, developmentLocale: developmentLocale).lint(paths: [directory]), bundle: bundle, locales: locales)
        let states = CatalogStates(bundle: bundle, files: files, locales: locales)
        let unreadable = Unreadable(bundle: bundle, locales: locales)

        // The development locale's keys, once per table, not once per locale.
        let sourceTables = bundle.tableNames.map { table in (table, bundle.resolvedTable(table, locale: development).entries) }
        var coverage: [LocaleCoverage] = []
        for locale in locales {
            defer { progress(locale.tag, locales.count) }
            guard let resolved = try? bundle.resolve(locale: locale) else { continue }
            var tables: [TableCoverage] = []
            for (table, sources) in sourceTables where !sources.isEmpty {
                var counts = Counts()
                var missing: [String] = [], identical: [String] = []
                var sourceTexts: [String: String] = [:]
                for (key, source) in sources {
                    counts.keys += 1
                    let answer = bundle.lookup(key, table: table, locale: resolved)
                    guard resolved.isOwn(chainPosition: answer.chainPosition) else {
                        // A file of this table in this locale could not be
                        // read: the key may well be in it.
                        if unreadable.places.contains(Place(locale: locale.tag, table: table)) {
                            counts.unknown += 1
                            continue
                        }
                        counts.missing += 1
                        missing.append(key)
                        sourceTexts[key] = Self.text(of: source)
                        continue
                    }
                    if let folder = answer.localization, folder.name.description == source.source {
                        // The development locale's own folder, reached through
                        // a parent of the same language (en-GB → en).
                        counts.inherited += 1
                    } else if answer.value == source.value, answer.plural == source.plural, source.value.contains(where: \.isLetter) {
                        counts.identical += 1
                        identical.append(key)
                    } else {
                        counts.translated += 1
                    }
                }
                let place = Place(locale: locale.tag, table: table)
                counts.pluralProblems = problems.plural[place]?.count ?? 0
                counts.argumentProblems = problems.arguments[place]?.count ?? 0
                counts.needsReview = states.needsReview[place]?.count ?? 0
                counts.stale = states.stale[place]?.count ?? 0
                tables.append(
                    TableCoverage(
                        table: table, counts: counts, missingKeys: missing.sorted(), identicalKeys: identical.sorted(), sources: sourceTexts
                    ))
            }
            coverage.append(LocaleCoverage(locale: locale.tag, tables: tables))
        }
        return CoverageReport(
            bundle: name, developmentLocale: developmentLocale.tag, locales: coverage.sorted { $0.locale < $1.locale },
            unreadableFiles: unreadable.files)
    }

    /// What a translator is shown of a development entry: its value, or for
    /// a plural entry its `other` forms.
    static func text(of entry: ResolvedTable.Entry) -> String {
        guard let plural = entry.plural else { return entry.value }
        let variables = plural.variables.keys.sorted()
        if variables.count == 1, let only = variables.first, let other = plural.variables[only]?.forms[.other],
            plural.formatKey == "%#@\(only)@"
        {
            return other
        }
        let forms = variables.compactMap { name in plural.variables[name]?.forms[.other].map { "\(name): \($0)" } }
        return "\(plural.formatKey) (\(forms.joined(separator: "; ")))"
    }

    /// The table files that could not be read, and the places (a locale and
    /// a table) whose keys they may hold: a `.lproj` folder's file for its
    /// locale, a String Catalog for every locale.
    struct Unreadable {
        var files: [UnreadableFile] = []
        var places: Set<Place> = []

        init(bundle: LoadedBundle, locales: [LocaleIdentifier]) {
            let byKey = Dictionary(locales.map { ($0.matchKey, $0.tag) }, uniquingKeysWith: { first, _ in first })
            let folders = Dictionary(bundle.folders.map { ($0.folderName, $0) }, uniquingKeysWith: { first, _ in first })
            for report in bundle.fileReports where report.failed {
                let first = report.errors.first
                files.append(
                    UnreadableFile(
                        path: report.path, line: first?.location?.line, column: first?.location?.column,
                        message: first?.message ?? "cannot be read"))
                let components = report.path.split(separator: "/")
                guard let fileName = components.last.map(String.init) else { continue }
                if let table = StringCatalogFiles.tableName(of: fileName) {
                    for tag in byKey.values { places.insert(Place(locale: tag, table: table)) }
                } else if components.count >= 2, let folder = folders[String(components[components.count - 2])],
                    let table = TableFileKind.tableName(of: fileName)
                {
                    switch folder.name {
                    case .locale(let locale):
                        if let tag = byKey[locale.matchKey] { places.insert(Place(locale: tag, table: table)) }
                    default:
                        // Base's file: any locale may fall back to it.
                        for tag in byKey.values { places.insert(Place(locale: tag, table: table)) }
                    }
                }
            }
        }
    }

    struct Place: Hashable {
        let locale: String
        let table: String
    }

    /// The linter's findings that coverage counts, by locale and table, as
    /// the keys they are about.
    struct Problems {
        var plural: [Place: Set<String>] = [:]
        var arguments: [Place: Set<String>] = [:]

        init(findings: [LintFinding], bundle: LoadedBundle, locales: [LocaleIdentifier]) {
            let byKey = Dictionary(locales.map { ($0.matchKey, $0.tag) }, uniquingKeysWith: { first, _ in first })
            let folders = Dictionary(bundle.folders.map { ($0.folderName, $0) }, uniquingKeysWith: { first, _ in first })
            for finding in findings {
                let code = finding.diagnostic.code
                let isPlural = code == "missing-plural-category"
                guard isPlural || code.hasPrefix("argument-"), let keyPath = finding.diagnostic.keyPath else { continue }
                let components = finding.file.split(separator: "/")
                guard let fileName = components.last.map(String.init) else { continue }
                let place: Place
                if let table = StringCatalogFiles.tableName(of: fileName) {
                    guard let language = finding.diagnostic.language, let identifier = try? LocaleIdentifier(language),
                        let tag = byKey[identifier.matchKey]
                    else { continue }
                    place = Place(locale: tag, table: table)
                } else {
                    guard components.count >= 2, let folder = folders[String(components[components.count - 2])],
                        case .locale(let locale) = folder.name, let tag = byKey[locale.matchKey],
                        let table = TableFileKind.tableName(of: fileName)
                    else { continue }
                    place = Place(locale: tag, table: table)
                }
                // A plural finding names the entry's variable too: `key/variable`.
                let key = isPlural ? String(keyPath[..<(keyPath.lastIndex(of: "/") ?? keyPath.endIndex)]) : keyPath
                if isPlural { plural[place, default: []].insert(key) } else { arguments[place, default: []].insert(key) }
            }
        }
    }

    /// The keys whose catalog units, in a language, need review or are stale.
    struct CatalogStates {
        var needsReview: [Place: Set<String>] = [:]
        var stale: [Place: Set<String>] = [:]

        init(bundle: LoadedBundle, files: any FileTree, locales: [LocaleIdentifier]) {
            let byKey = Dictionary(locales.map { ($0.matchKey, $0.tag) }, uniquingKeysWith: { first, _ in first })
            for loaded in bundle.stringCatalogs {
                let path = TreePath.join(bundle.configuration.directory, loaded.path)
                guard let bytes = try? files.read(path, maximumSize: bundle.configuration.maximumFileSize),
                    let catalog = try? StringCatalogParser().parse(bytes).catalog
                else { continue }
                for entry in catalog.entries {
                    for (language, localization) in entry.localizations {
                        guard let identifier = try? LocaleIdentifier(language), let tag = byKey[identifier.matchKey] else { continue }
                        let place = Place(locale: tag, table: loaded.tableName)
                        let states = Self.states(of: localization)
                        if states.contains(.needsReview) { needsReview[place, default: []].insert(entry.key) }
                        if states.contains(.stale) { stale[place, default: []].insert(entry.key) }
                    }
                }
            }
        }

        /// The states of every unit of a localization: its own, its
        /// variations' and its substitutions'.
        static func states(of localization: StringCatalog.Localization) -> Set<StringCatalog.State> {
            var states: Set<StringCatalog.State> = []
            func collect(_ variations: StringCatalog.Variations?) {
                for variant in Array((variations?.plural ?? [:]).values) + Array((variations?.device ?? [:]).values) {
                    if let unit = variant.stringUnit { states.insert(unit.state) }
                    collect(variant.variations)
                }
            }
            if let unit = localization.stringUnit { states.insert(unit.state) }
            collect(localization.variations)
            for substitution in localization.substitutions.values {
                for unit in substitution.plural.values { states.insert(unit.state) }
            }
            return states
        }
    }
}
