public import LprojFormat
public import LprojLocales

/// The answer to a lookup.
public struct LookupResult: Sendable, Hashable {
    /// The string: the table's value, the caller's default, or the key.
    public let value: String
    /// Whether a table had the key.
    public let found: Bool
    /// The folder the value came from (`nil` when not found).
    public let source: LprojName?
    /// For a `.stringsdict` entry, the entry (its `value` is the format key).
    public let plural: PluralFormat?
    /// The locale whose plural rules apply to the value (the source folder's).
    public let pluralLocale: LocaleIdentifier?

    /// Creates a result.
    public init(value: String, found: Bool, source: LprojName?, plural: PluralFormat?, pluralLocale: LocaleIdentifier?) {
        self.value = value
        self.found = found
        self.source = source
        self.plural = plural
        self.pluralLocale = pluralLocale
    }
}

/// Strings added at run time that overlay a bundle's tables
/// (SDLocalizationManager's `addStrings`): consulted before the files at
/// each locale of a chain.
public protocol StringOverlay: Sendable {
    /// The added value for a key in a table of one folder, if any.
    func value(forKey key: String, table: String, localization: Localization) -> String?
}
