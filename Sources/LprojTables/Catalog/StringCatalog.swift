public import LprojFormatStrings

/// An Xcode String Catalog (`*.xcstrings`), as written: every language's
/// translations of one table, with their review states and variations.
///
/// Apple publishes no schema; this model follows what Xcode 15 to 27 write
/// (README, "String Catalogs", lists the sources). ``StringCatalogCompiler``
/// turns it into the `.strings` and `.stringsdict` entries Xcode would
/// build from it.
public struct StringCatalog: Sendable, Hashable {
    /// The language the keys and the source values are written in.
    public var sourceLanguage: String
    /// `version` as written (`1.0`; Xcode 26 and later write `1.1`).
    public var version: String?
    /// The keys, in the order of the file.
    public var entries: [Entry]

    /// Creates a catalog.
    public init(sourceLanguage: String, version: String? = "1.0", entries: [Entry] = []) {
        self.sourceLanguage = sourceLanguage
        self.version = version
        self.entries = entries
    }

    /// Every language the catalog has a value in, and its source language, sorted.
    public var languages: [String] {
        var languages: Set<String> = [sourceLanguage]
        for entry in entries { languages.formUnion(entry.localizations.keys) }
        return languages.sorted()
    }

    /// One key of the catalog (`strings.<key>`).
    public struct Entry: Sendable, Hashable {
        /// The key, as the code looks it up.
        public var key: String
        /// Where the key is written.
        public var location: SourceLocation?
        /// The note for translators; never compiled.
        public var comment: String?
        /// How Xcode found the key: absent (extracted and in the code),
        /// `manual`, `stale` (no longer in the code), `extracted_with_value`,
        /// `migrated`.
        public var extractionState: String?
        /// `false` when the key is marked "Don't Translate".
        public var shouldTranslate: Bool
        /// Its translations by language.
        public var localizations: [String: Localization]

        /// Creates an entry.
        public init(
            key: String, location: SourceLocation? = nil, comment: String? = nil, extractionState: String? = nil,
            shouldTranslate: Bool = true, localizations: [String: Localization] = [:]
        ) {
            self.key = key
            self.location = location
            self.comment = comment
            self.extractionState = extractionState
            self.shouldTranslate = shouldTranslate
            self.localizations = localizations
        }
    }

    /// A key's value in one language: a string, or variations of it, and the
    /// substitutions its text refers to as `%#@name@`.
    public struct Localization: Sendable, Hashable {
        /// Where the language's object starts.
        public var location: SourceLocation?
        /// The plain value.
        public var stringUnit: StringUnit?
        /// Values that vary by plural category or by device.
        public var variations: Variations?
        /// Plural variables referred to from the value, by name.
        public var substitutions: [String: Substitution]

        /// Creates a localization.
        public init(
            location: SourceLocation? = nil, stringUnit: StringUnit? = nil, variations: Variations? = nil,
            substitutions: [String: Substitution] = [:]
        ) {
            self.location = location
            self.stringUnit = stringUnit
            self.variations = variations
            self.substitutions = substitutions
        }
    }

    /// A text and its review state.
    public struct StringUnit: Sendable, Hashable {
        /// `new`, `translated`, `needs_review`, `stale`, `machine_translated`, ...
        public var state: State
        /// The text.
        public var value: String
        /// Where the unit is written.
        public var location: SourceLocation?

        /// Creates a unit.
        public init(state: State, value: String, location: SourceLocation? = nil) {
            self.state = state
            self.value = value
            self.location = location
        }
    }

    /// A unit's review state. Unknown states are kept as written.
    public struct State: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Not translated yet (a value here is a placeholder, often a copy of the source).
        public static let new = State(rawValue: "new")
        /// Translated.
        public static let translated = State(rawValue: "translated")
        /// Translated, but the source changed since: a reviewer should look.
        public static let needsReview = State(rawValue: "needs_review")
        /// A unit whose key is no longer used.
        public static let stale = State(rawValue: "stale")
        /// Translated by a machine (Xcode 27).
        public static let machineTranslated = State(rawValue: "machine_translated")

        public var description: String { rawValue }
    }

    /// The ways a value varies. Xcode nests device then plural, never the
    /// other way round.
    public struct Variations: Sendable, Hashable {
        /// By plural category.
        public var plural: [PluralCategory: Variant]?
        /// By device: `iphone`, `ipad`, `ipod`, `mac`, `applewatch`,
        /// `appletv`, `applevision`, `other`.
        public var device: [String: Variant]?

        /// Creates variations.
        public init(plural: [PluralCategory: Variant]? = nil, device: [String: Variant]? = nil) {
            self.plural = plural
            self.device = device
        }
    }

    /// One case of a variation: a text, or (for a device) variations by plural.
    public struct Variant: Sendable, Hashable {
        /// The text.
        public var stringUnit: StringUnit?
        /// Further variations.
        public var variations: Variations?

        /// Creates a variant.
        public init(stringUnit: StringUnit? = nil, variations: Variations? = nil) {
            self.stringUnit = stringUnit
            self.variations = variations
        }
    }

    /// A plural variable of a localization, used as `%#@name@` in its text.
    public struct Substitution: Sendable, Hashable {
        /// The argument that chooses the plural form (1-based); when absent,
        /// the argument where the reference stands.
        public var argNum: Int?
        /// The argument's conversion without `%`: `lld`, `ld`, `lf`, `@`.
        public var formatSpecifier: String
        /// The texts by plural category; `%arg` in them stands for the argument.
        public var plural: [PluralCategory: StringUnit]
        /// Where the substitution is written.
        public var location: SourceLocation?

        /// Creates a substitution.
        public init(argNum: Int?, formatSpecifier: String, plural: [PluralCategory: StringUnit], location: SourceLocation? = nil) {
            self.argNum = argNum
            self.formatSpecifier = formatSpecifier
            self.plural = plural
            self.location = location
        }
    }
}

/// The device variants a desktop uses, in order: a Mac's, then the
/// fallback for every other device.
public enum DesktopDevice {
    public static let preference = ["mac", "other"]
}
