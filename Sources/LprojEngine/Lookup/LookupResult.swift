package import LprojFormatStrings
package import LprojLocales

/// The answer to a lookup.
package struct LookupResult: Sendable {
    /// The string: the table's value, the caller's default, or the key.
    package let value: String
    /// The folder the value came from (`nil` when no table had the key).
    package let localization: LprojFolder?
    /// The locale of an added string the value came from, as the client
    /// wrote it when it added the string.
    package let addedLocale: String?
    /// For a `.stringsdict` entry, the entry (its `value` is the format key).
    package let plural: PluralFormat?
    /// Where in the locale's chain of folders (``ResolvedLocale/chain``)
    /// the value was found; -1 when no folder gave it.
    package let chainPosition: Int

    /// Creates a result.
    package init(value: String, localization: LprojFolder?, addedLocale: String? = nil, plural: PluralFormat?, chainPosition: Int = -1) {
        self.value = value
        self.localization = localization
        self.addedLocale = addedLocale
        self.plural = plural
        self.chainPosition = chainPosition
    }

    /// Whether a table (or an added string) had the key.
    package var found: Bool { localization != nil || addedLocale != nil }

    /// The folder the value came from, as a name (`nil` when not found, or
    /// for an added string).
    package var source: LprojName? { localization?.name }

    /// Where the value came from, as clients are told: the folder's locale
    /// (or `Base`), or the locale an added string was added for.
    package var sourceDescription: String? {
        localization?.name.description ?? addedLocale
    }

    /// The locale whose plural rules apply to the value: the source folder's.
    package var pluralLocale: LocaleIdentifier? { localization?.standardLocale }
}

/// Strings added at run time that overlay a bundle's tables
/// (SDLocalizationManager's `addStrings`): consulted before the files at
/// each locale of a chain.
package protocol StringOverlay: Sendable {
    /// The added value for a key in a table at one locale, if any.
    func value(forKey key: String, table: String, locale: LocaleKey) -> String?
    /// All added strings of a table at one locale.
    func strings(table: String, locale: LocaleKey) -> [String: String]
    /// A locale strings were added for, as the client wrote it (`de` for
    /// the key `de-Latn`): what a lookup reports as the value's locale.
    func name(of locale: LocaleKey) -> String
}

extension StringOverlay {
    package func name(of locale: LocaleKey) -> String { locale.tag }
}
