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

    package init(bundle: String, developmentLocale: String, locales: [LocaleCoverage]) {
        self.bundle = bundle
        self.developmentLocale = developmentLocale
        self.locales = locales
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

    package init(table: String, counts: Counts, missingKeys: [String], identicalKeys: [String], misses: [String: Int] = [:]) {
        self.table = table
        self.counts = counts
        self.missingKeys = missingKeys
        self.identicalKeys = identicalKeys
        self.misses = misses
    }
}

/// Counts of keys. Every key is exactly one of translated, identical,
/// inherited and missing; the others count problems among them.
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
    /// Catalog units in `needs_review`.
    package var needsReview = 0
    /// Catalog units in `stale`.
    package var stale = 0
    /// Plural entries lacking a category the language needs.
    package var pluralProblems = 0
    /// Entries whose format arguments disagree with the development value.
    package var argumentProblems = 0

    package init() {}

    /// The share of keys the locale has a value for (translated, identical
    /// or inherited), from 0 to 1; 1 for a table without keys.
    package var covered: Double { keys == 0 ? 1 : Double(keys - missing) / Double(keys) }

    package static func + (lhs: Counts, rhs: Counts) -> Counts {
        var sum = Counts()
        sum.keys = lhs.keys + rhs.keys
        sum.translated = lhs.translated + rhs.translated
        sum.identical = lhs.identical + rhs.identical
        sum.inherited = lhs.inherited + rhs.inherited
        sum.missing = lhs.missing + rhs.missing
        sum.needsReview = lhs.needsReview + rhs.needsReview
        sum.stale = lhs.stale + rhs.stale
        sum.pluralProblems = lhs.pluralProblems + rhs.pluralProblems
        sum.argumentProblems = lhs.argumentProblems + rhs.argumentProblems
        return sum
    }
}
