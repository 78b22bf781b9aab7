public import LprojFormat
public import LprojLocales

/// The answer to a lookup.
public struct LookupResult: Sendable {
    /// The string: the table's value, the caller's default, or the key.
    public let value: String
    /// The folder the value came from (`nil` when no table had the key).
    public let localization: Localization?
    /// For a `.stringsdict` entry, the entry (its `value` is the format key).
    public let plural: PluralFormat?

    /// Creates a result.
    public init(value: String, localization: Localization?, plural: PluralFormat?) {
        self.value = value
        self.localization = localization
        self.plural = plural
    }

    /// Whether a table had the key.
    public var found: Bool { localization != nil }

    /// The folder the value came from, as a name (`nil` when not found).
    public var source: LprojName? { localization?.name }

    /// The locale whose plural rules apply to the value: the source folder's.
    public var pluralLocale: LocaleIdentifier? { localization?.standardLocale }
}

/// Strings added at run time that overlay a bundle's tables
/// (SDLocalizationManager's `addStrings`): consulted before the files at
/// each locale of a chain.
public protocol StringOverlay: Sendable {
    /// The added value for a key in a table of one folder, if any.
    func value(forKey key: String, table: String, localization: Localization) -> String?
}
