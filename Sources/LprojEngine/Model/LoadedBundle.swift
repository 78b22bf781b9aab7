internal import LprojFormatStrings
package import LprojLocales
package import LprojTables
internal import Synchronization

/// A cached resolution, with whatever its creator's charge for it is.
struct CachedChain: Sendable {
    let resolved: ResolvedLocale
    let charge: any AnyObject & Sendable
}

/// A bundle as loaded at one moment: immutable, shared by every lookup.
///
/// A reload builds a new `LoadedBundle` (reusing unchanged tables) and
/// swaps it in; lookups that already hold this one finish undisturbed.
package final class LoadedBundle: Sendable {
    /// The configuration it was loaded with.
    package let configuration: BundleConfiguration
    /// What lookups consult: its `.lproj` folders with the tables of its
    /// String Catalogs merged in (a catalog's language without a folder is
    /// a folder of its own), sorted by folder name.
    package let localizations: [LprojFolder]
    /// Its `.lproj` folders as read from the disk, sorted by folder name.
    package let folders: [LprojFolder]
    /// Its String Catalogs, sorted by path.
    package let stringCatalogs: [LoadedStringCatalog]
    /// Reports of the table files that had something to say.
    package let fileReports: [FileReport]
    /// Problems with the bundle itself: a missing directory, folders whose
    /// name is no locale or whose locale is not allowed, tables defined both
    /// in a catalog and as `.lproj` files.
    package var problems: [Diagnostic] { loadProblems + mergeProblems }
    /// The problems found while reading (kept across partial reloads).
    package let loadProblems: [Diagnostic]
    /// The problems found merging catalogs with folders (computed anew).
    let mergeProblems: [Diagnostic]
    /// The bytes read for each table file whose table is held, by path
    /// relative to the bundle directory (what ``BundleLimits`` counts).
    package let fileSizes: [String: Int]
    /// The bytes of all its table files.
    package let byteCount: Int

    /// Folder indexes by match key, preferred spelling first.
    let localizationsByKey: [LocaleKey: [Int]]
    /// The index of `Base.lproj`, if any.
    let baseIndex: Int?
    /// Resolved lookup chains by requested locale text; bounded.
    let chains = Mutex<[String: CachedChain]>([:])
    static let chainCacheLimit = 1024
    /// The locales of its folders (not Base), sorted, then the
    /// pseudo-locales when the configuration offers them.
    package let supportedLocales: [LocaleIdentifier]
    /// The locales a client may select (the folders' and the development
    /// locale) by match key, the first spelling of each: computed once, so
    /// that matching a client's list costs no ICU call per candidate.
    package let selectableLocales: [LocaleKey: LocaleIdentifier]

    /// Creates a bundle from loaded folders.
    package convenience init(
        configuration: BundleConfiguration, localizations: [LprojFolder], fileReports: [FileReport], problems: [Diagnostic]
    ) {
        self.init(configuration: configuration, folders: localizations, stringCatalogs: [], fileReports: fileReports, problems: problems)
    }

    /// Creates a bundle from loaded folders and catalogs.
    package init(
        configuration: BundleConfiguration, folders: [LprojFolder], stringCatalogs: [LoadedStringCatalog], fileReports: [FileReport],
        problems: [Diagnostic], fileSizes: [String: Int] = [:]
    ) {
        self.configuration = configuration
        self.fileSizes = fileSizes
        self.byteCount = fileSizes.values.reduce(0, +)
        self.folders = folders.sorted { $0.folderName < $1.folderName }
        self.stringCatalogs = stringCatalogs.sorted { $0.path < $1.path }
        let merged = CatalogMerge.merge(folders: self.folders, catalogs: self.stringCatalogs, conflict: configuration.catalogConflict)
        let localizations = merged.localizations
        self.localizations = localizations
        self.mergeProblems = merged.problems
        self.fileReports = fileReports.sorted { $0.path < $1.path }
        self.loadProblems = problems
        var byKey: [LocaleKey: [Int]] = [:]
        var base: Int?
        for (index, localization) in localizations.enumerated() {
            switch localization.name {
            case .base:
                base = index
            case .locale(let locale):
                byKey[locale.matchKey, default: []].append(index)
            }
        }
        // Two folders for one locale (en.lproj and English.lproj) both
        // count; the canonical spelling is consulted first.
        for (key, indexes) in byKey where indexes.count > 1 {
            byKey[key] = indexes.sorted { lhs, rhs in
                let left = localizations[lhs], right = localizations[rhs]
                let leftCanonical = left.folderName == "\(left.name).lproj", rightCanonical = right.folderName == "\(right.name).lproj"
                return leftCanonical != rightCanonical ? leftCanonical : left.folderName < right.folderName
            }
        }
        self.localizationsByKey = byKey
        self.baseIndex = base
        var supported = localizations.compactMap { if case .locale(let locale) = $0.name { locale } else { nil } }.sorted()
        if configuration.pseudoLocales {
            // After the real ones: a menu lists them last.
            supported.removeAll { PseudoLocalization($0) != nil }
            supported += PseudoLocalization.allCases.map { $0.locale }
        }
        self.supportedLocales = supported
        var selectable: [LocaleKey: LocaleIdentifier] = [:]
        for locale in supported + [configuration.developmentLocale] where selectable[locale.matchKey] == nil {
            selectable[locale.matchKey] = locale
        }
        self.selectableLocales = selectable
    }

    /// Takes over `previous`'s resolved chains where they still hold: its
    /// folders are at the same places (a table was edited, no folder came
    /// or went). A reload then costs the next lookup no resolution.
    func keepResolvedChains(of previous: LoadedBundle) {
        guard previous.configuration == configuration, previous.localizationsByKey == localizationsByKey, previous.baseIndex == baseIndex
        else { return }
        let kept = previous.chains.withLock { $0 }
        chains.withLock { $0 = kept }
    }

    /// The same tables with other problems (a reload refused whole keeps
    /// its last good version, with the reason).
    package func withProblems(_ problems: [Diagnostic], configuration: BundleConfiguration? = nil) -> LoadedBundle {
        LoadedBundle(
            configuration: configuration ?? self.configuration, folders: folders, stringCatalogs: stringCatalogs,
            fileReports: fileReports, problems: problems, fileSizes: fileSizes)
    }

    /// The bundle's name.
    package var name: String { configuration.name }

    /// The names of all tables in any folder, sorted.
    package var tableNames: [String] {
        Array(Set(localizations.flatMap(\.tables.keys))).sorted()
    }

    /// Keys across all folders and tables.
    package var entryCount: Int { localizations.reduce(0) { $0 + $1.entryCount } }

    /// Whether the bundle has a `Base.lproj`.
    package var hasBase: Bool { baseIndex != nil }
}
