public import LprojFormat
public import LprojLocales

/// A whole table resolved for one locale: every key any folder of the
/// chain defines, with the value the per-key fallback picks.
public struct ResolvedTable: Sendable {
    /// One key's value and where it came from.
    public struct Entry: Sendable, Hashable {
        /// The value as written (a stringsdict entry: its format key).
        public let value: String
        /// Where it came from: a folder's locale, `Base`, or the locale an
        /// added string was added for.
        public let source: String
        /// For a stringsdict entry, the entry itself.
        public let plural: PluralFormat?
        /// For a stringsdict entry, the locale whose plural rules apply.
        public let pluralLocale: LocaleIdentifier?
    }

    /// The requested locale.
    public let locale: LocaleIdentifier
    /// The entries by key.
    public let entries: [String: Entry]
}

extension LoadedBundle {
    /// Resolves a whole table for a locale, merging the chain so that each
    /// key has the value ``lookup(_:table:locale:defaultValue:overlay:)``
    /// would return.
    public func resolvedTable(_ table: String = TableName.defaultTable, locale: ResolvedLocale, overlay: (any StringOverlay)? = nil) -> ResolvedTable {
        var entries: [String: ResolvedTable.Entry] = [:]
        // From the least specific step to the most, so the most specific wins;
        // within a step, added strings beat the folders.
        for step in locale.steps.reversed() {
            for index in step.folders.reversed() {
                let localization = localizations[index]
                guard let tableEntries = localization.table(named: table) else { continue }
                let source = localization.name.description
                let strings = tableEntries.strings
                for entry in 0..<strings.count {
                    entries[strings.key(at: entry)] = .init(value: strings.value(at: entry), source: source, plural: nil, pluralLocale: nil)
                }
                for (key, plural) in tableEntries.plurals {
                    entries[key] = .init(value: plural.formatKey, source: source, plural: plural, pluralLocale: localization.standardLocale)
                }
            }
            if let overlay, let key = step.key {
                for (name, value) in overlay.strings(table: table, locale: key) {
                    entries[name] = .init(value: value, source: key.tag, plural: nil, pluralLocale: nil)
                }
            }
        }
        return ResolvedTable(locale: locale.locale, entries: entries)
    }
}
