/// How far a bundle is translated: per locale and per table, what its keys
/// (those of the development locale) have in that locale.
package struct CoverageReport: Sendable, Hashable {
    /// What the report is about: the bundle directory's name, or the name
    /// lprojd serves it under.
    package var bundle: String
    /// The locale the keys are written in, which is not reported on.
    package var developmentLocale: String
    /// Every locale of the bundle but the development locale, by tag.
    package var locales: [LocaleCoverage]
    /// The table files that could not be read: their keys are counted as
    /// unknown, not missing, and the report is not a clean one.
    package var unreadableFiles: [UnreadableFile]

    package init(bundle: String, developmentLocale: String, locales: [LocaleCoverage], unreadableFiles: [UnreadableFile] = []) {
        self.bundle = bundle
        self.developmentLocale = developmentLocale
        self.locales = locales
        self.unreadableFiles = unreadableFiles
    }
}

/// A table file that could not be read, and the first reason, where it is.
package struct UnreadableFile: Sendable, Hashable {
    /// Relative to the bundle directory: `de.lproj/Localizable.strings`.
    package var path: String
    package var line: Int?
    package var column: Int?
    package var message: String

    package init(path: String, line: Int?, column: Int?, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `de.lproj/Localizable.strings:5:33: message`, as a compiler says it.
    package var description: String {
        let place = [line, column].compactMap { $0 }.map(String.init).joined(separator: ":")
        return "\(path)\(place.isEmpty ? "" : ":\(place)"): \(message)"
    }
}

/// One locale's coverage: per table, and summed.
package struct LocaleCoverage: Sendable, Hashable {
    package var locale: String
    package var tables: [TableCoverage]

    package init(locale: String, tables: [TableCoverage]) {
        self.locale = locale
        self.tables = tables
    }

    /// All tables together.
    package var total: Counts { tables.reduce(Counts()) { $0 + $1.counts } }
}

/// What one table's keys have in one locale.
package struct TableCoverage: Sendable, Hashable {
    package var table: String
    package var counts: Counts
    /// Keys that fall back to the development locale (or Base), sorted.
    package var missingKeys: [String]
    /// Keys whose translation is the development value itself, sorted.
    package var identicalKeys: [String]
    /// How often lookups met each missing key, from lprojd (`--with-misses`).
    package var misses: [String: Int]
    /// The development locale's text of each missing key (a plural entry's
    /// `other` form), for the translator to see what to translate.
    package var sources: [String: String]

    package init(
        table: String, counts: Counts, missingKeys: [String], identicalKeys: [String], misses: [String: Int] = [:],
        sources: [String: String] = [:]
    ) {
        self.table = table
        self.counts = counts
        self.missingKeys = missingKeys
        self.identicalKeys = identicalKeys
        self.misses = misses
        self.sources = sources
    }
}

/// Counts of keys. Every key is exactly one of translated, identical,
/// inherited, missing and unknown; the others count problems among them.
package struct Counts: Sendable, Hashable {
    /// The development locale's keys.
    package var keys = 0
    /// A value of the locale's own, different from the development value.
    package var translated = 0
    /// A value of the locale's own that is the development value itself:
    /// likely left untranslated.
    package var identical = 0
    /// The value of a parent of the same language that is the development
    /// locale (`en-GB` reads `en`): not missing, by design.
    package var inherited = 0
    /// No value of the locale's own: lookups fall back to the development
    /// locale or Base.
    package var missing = 0
    /// No value of the locale's own, in a table whose file in that locale
    /// could not be read: whether it is translated is not known.
    package var unknown = 0
    /// Catalog units in `needs_review`.
    package var needsReview = 0
    /// Catalog units in `stale`.
    package var stale = 0
    /// Plural entries lacking a category the language needs.
    package var pluralProblems = 0
    /// Entries whose format arguments disagree with the development value.
    package var argumentProblems = 0

    package init() {}

    /// The share of keys the locale is known to have a value for
    /// (translated, identical or inherited), from 0 to 1; 1 for a table
    /// without keys.
    package var covered: Double { keys == 0 ? 1 : Double(keys - missing - unknown) / Double(keys) }

    package static func + (lhs: Counts, rhs: Counts) -> Counts {
        var sum = Counts()
        sum.keys = lhs.keys + rhs.keys
        sum.translated = lhs.translated + rhs.translated
        sum.identical = lhs.identical + rhs.identical
        sum.inherited = lhs.inherited + rhs.inherited
        sum.missing = lhs.missing + rhs.missing
        sum.unknown = lhs.unknown + rhs.unknown
        sum.needsReview = lhs.needsReview + rhs.needsReview
        sum.stale = lhs.stale + rhs.stale
        sum.pluralProblems = lhs.pluralProblems + rhs.pluralProblems
        sum.argumentProblems = lhs.argumentProblems + rhs.argumentProblems
        return sum
    }
}
