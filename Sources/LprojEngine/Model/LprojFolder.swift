package import LprojLocales

/// One `.lproj` folder of a bundle, loaded.
///
/// A class so that a lookup result refers to its source with one reference
/// rather than copying the folder's identifiers; it is immutable.
package final class LprojFolder: Sendable {
    /// What the folder's name means.
    package let name: LprojName
    /// The folder's name on disk, e.g. `pt-BR.lproj` or `English.lproj`.
    package let folderName: String
    /// The locale whose plural rules and number formats apply: the folder's
    /// own, the standard locale a custom one is mapped to, or for `Base`
    /// the development locale.
    package let standardLocale: LocaleIdentifier
    /// The tables by name.
    package let tables: [String: LocalizedTable]
    /// The same tables as a small array: a folder has a handful of tables,
    /// and comparing short names beats hashing them on every lookup.
    private let tableList: [(name: String, table: LocalizedTable)]

    /// Creates a localization.
    package init(name: LprojName, folderName: String, standardLocale: LocaleIdentifier, tables: [String: LocalizedTable]) {
        self.name = name
        self.folderName = folderName
        self.standardLocale = standardLocale
        self.tables = tables
        self.tableList = tables.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The table called `name`, if this folder has it.
    @inline(__always)
    package func table(named name: String) -> LocalizedTable? {
        if tableList.count > 16 { return tables[name] }
        for entry in tableList where entry.name == name { return entry.table }
        return nil
    }

    /// The key this folder answers to in fallback chains (`nil` for Base).
    package var matchKey: LocaleKey? { name.matchKey }

    /// Keys across all tables.
    package var entryCount: Int { tables.values.reduce(0) { $0 + $1.entryCount } }
}

extension LprojName {
    /// The key a folder of this name answers to in fallback chains (`nil` for Base).
    package var matchKey: LocaleKey? {
        if case .locale(let locale) = self { return locale.matchKey }
        return nil
    }
}
