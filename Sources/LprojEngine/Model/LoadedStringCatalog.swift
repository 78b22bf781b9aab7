public import LprojLocales
internal import LprojTables

/// A String Catalog (`*.xcstrings`) of a bundle, compiled: one table for
/// each of its languages, as Xcode would build them.
public final class LoadedStringCatalog: Sendable {
    /// One language's table, and the folder it stands for.
    public struct Language: Sendable {
        /// The language as the catalog spells it.
        public let language: String
        /// The folder Xcode would write it to, `<language>.lproj`, and what
        /// that name means.
        public let folderName: String
        public let name: LprojName
        public let standardLocale: LocaleIdentifier
        /// The compiled table.
        public let table: LocalizedTable
    }

    /// The file, relative to the bundle directory: `Localizable.xcstrings`,
    /// `Resources/Settings.xcstrings`.
    public let path: String
    /// The table it supplies: the file name without `.xcstrings`.
    public let tableName: String
    /// The language its keys are written in.
    public let sourceLanguage: String
    /// Its languages that are locales this bundle can load, sorted.
    public let languages: [Language]

    /// Creates a loaded catalog.
    public init(path: String, tableName: String, sourceLanguage: String, languages: [Language]) {
        self.path = path
        self.tableName = tableName
        self.sourceLanguage = sourceLanguage
        self.languages = languages.sorted { $0.folderName < $1.folderName }
    }

    /// The number of entries across its languages.
    public var entryCount: Int { languages.reduce(0) { $0 + $1.table.entryCount } }
}

/// What to serve when a table exists both in a catalog and as `.lproj`
/// files for the same locale (a project Xcode refuses to build).
public enum CatalogConflict: String, Sendable, Hashable, CaseIterable {
    /// Serve the catalog's table; the `.lproj` files are usually what was
    /// compiled from it, or left over from before a migration.
    case catalog
    /// Serve the `.lproj` files' table.
    case lproj
}
