package import LprojLocales
internal import LprojTables

/// A String Catalog (`*.xcstrings`) of a bundle, compiled: one table for
/// each of its languages, as Xcode would build them.
package final class LoadedStringCatalog: Sendable {
    /// One language's table, and the folder it stands for.
    package struct Language: Sendable {
        /// The language as the catalog spells it.
        package let language: String
        /// The folder Xcode would write it to, `<language>.lproj`, and what
        /// that name means.
        package let folderName: String
        package let name: LprojName
        package let standardLocale: LocaleIdentifier
        /// The compiled table.
        package let table: LocalizedTable
    }

    /// The file, relative to the bundle directory: `Localizable.xcstrings`,
    /// `Resources/Settings.xcstrings`.
    package let path: String
    /// The table it supplies: the file name without `.xcstrings`.
    package let tableName: String
    /// The language its keys are written in.
    package let sourceLanguage: String
    /// Its languages that are locales this bundle can load, sorted.
    package let languages: [Language]

    /// Creates a loaded catalog.
    package init(path: String, tableName: String, sourceLanguage: String, languages: [Language]) {
        self.path = path
        self.tableName = tableName
        self.sourceLanguage = sourceLanguage
        self.languages = languages.sorted { $0.folderName < $1.folderName }
    }

}

/// What to serve when a table exists both in a catalog and as `.lproj`
/// files for the same locale (a project Xcode refuses to build).
package enum CatalogConflict: String, Sendable, Hashable, CaseIterable {
    /// Serve the catalog's table; the `.lproj` files are usually what was
    /// compiled from it, or left over from before a migration.
    case catalog
    /// Serve the `.lproj` files' table.
    case lproj
}
