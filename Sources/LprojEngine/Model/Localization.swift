public import LprojLocales

/// One `.lproj` folder of a bundle, loaded.
public struct Localization: Sendable {
    /// What the folder's name means.
    public let name: LprojName
    /// The folder's name on disk, e.g. `pt-BR.lproj` or `English.lproj`.
    public let folderName: String
    /// The locale whose plural rules and number formats apply: the folder's
    /// own, the standard locale a custom one is mapped to, or for `Base`
    /// the development locale.
    public let standardLocale: LocaleIdentifier
    /// The tables by name.
    public let tables: [String: LocalizedTable]

    /// Creates a localization.
    public init(name: LprojName, folderName: String, standardLocale: LocaleIdentifier, tables: [String: LocalizedTable]) {
        self.name = name
        self.folderName = folderName
        self.standardLocale = standardLocale
        self.tables = tables
    }

    /// The key this folder answers to in fallback chains (`nil` for Base).
    public var matchKey: LocaleKey? {
        if case .locale(let locale) = name { return locale.matchKey }
        return nil
    }

    /// Keys across all tables.
    public var entryCount: Int { tables.values.reduce(0) { $0 + $1.entryCount } }
}
