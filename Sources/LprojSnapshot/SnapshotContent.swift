/// What a snapshot holds: one bundle's strings for one locale, every table,
/// each key's value as lprojd resolves it (its locale's chain applied),
/// with what a client needs to render it in process.
package struct SnapshotContent: Sendable, Hashable {
    /// One key's value.
    package struct Entry: Sendable, Hashable {
        /// The value as written (a plural entry: its format key).
        package var value: String
        /// The folder it came from (`de`, `Base`), or a catalog's language.
        package var source: String
        /// For a `.stringsdict` entry, the entry.
        package var plural: Plural?
        /// What each argument position takes: one character per position
        /// (``ArgumentCode``), `-` for a position not used.
        package var signature: String

        package init(value: String, source: String, plural: Plural? = nil, signature: String = "") {
            self.value = value
            self.source = source
            self.plural = plural
            self.signature = signature
        }
    }

    /// A `.stringsdict` entry.
    package struct Plural: Sendable, Hashable {
        /// `NSStringLocalizedFormatKey`.
        package var formatKey: String
        /// The locale whose plural rules choose among its forms (the
        /// language it is written in).
        package var locale: String
        package var variables: [String: Variable]

        package init(formatKey: String, locale: String, variables: [String: Variable]) {
            self.formatKey = formatKey
            self.locale = locale
            self.variables = variables
        }
    }

    /// One variable of a plural entry.
    package struct Variable: Sendable, Hashable {
        /// `NSStringFormatValueTypeKey` as written, if given.
        package var valueType: String?
        /// The text of each category given (`zero` … `other`).
        package var forms: [String: String]

        package init(valueType: String?, forms: [String: String]) {
            self.valueType = valueType
            self.forms = forms
        }
    }

    package var bundle: String
    /// The locale the snapshot is for, as asked.
    package var locale: String
    /// The bundle's development locale.
    package var developmentLocale: String
    /// The locale whose plural rules apply to the requested locale (its
    /// nearest CLDR ancestor with rules of its own).
    package var pluralRulesLocale: String
    /// The bundle's generation it was taken at (0 for a snapshot made
    /// offline).
    package var generation: UInt64
    /// Entries by table, then key.
    package var tables: [String: [String: Entry]]

    package init(
        bundle: String, locale: String, developmentLocale: String, pluralRulesLocale: String, generation: UInt64,
        tables: [String: [String: Entry]]
    ) {
        self.bundle = bundle
        self.locale = locale
        self.developmentLocale = developmentLocale
        self.pluralRulesLocale = pluralRulesLocale
        self.generation = generation
        self.tables = tables
    }
}

/// The characters of an entry's argument signature.
package enum ArgumentCode {
    package static let integer: Character = "i"
    package static let floatingPoint: Character = "f"
    package static let character: Character = "c"
    package static let string: Character = "s"
    package static let object: Character = "@"
    package static let pointer: Character = "p"
    /// The number that selects a plural form.
    package static let pluralNumber: Character = "n"
    package static let unused: Character = "-"
}
