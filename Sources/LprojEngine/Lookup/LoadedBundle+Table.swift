public import LprojFormat
public import LprojLocales

/// A whole table resolved for one locale: every key any folder of the
/// chain defines, with the value the per-key fallback picks.
public struct ResolvedTable: Sendable {
    /// One key's value and where it came from.
    public struct Entry: Sendable, Hashable {
        /// The value as written (a stringsdict entry: its format key).
        public let value: String
        /// The folder it came from.
        public let source: LprojName
        /// For a stringsdict entry, the entry itself.
        public let plural: PluralFormat?
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
    public func resolvedTable(_ table: String = TableName.defaultTable, locale: ResolvedLocale, overlay: (any StringOverlay)? = nil, overlayKeys: (Localization) -> [String] = { _ in [] }) -> ResolvedTable {
        var entries: [String: ResolvedTable.Entry] = [:]
        // From the least specific folder to the most, so the most specific wins.
        for index in locale.chain.reversed() {
            let localization = localizations[index]
            if let tableEntries = localization.tables[table] {
                let strings = tableEntries.strings
                for entry in 0..<strings.count {
                    entries[strings.key(at: entry)] = .init(value: strings.value(at: entry), source: localization.name, plural: nil)
                }
                for (key, plural) in tableEntries.plurals {
                    entries[key] = .init(value: plural.formatKey, source: localization.name, plural: plural)
                }
            }
            if let overlay {
                for key in overlayKeys(localization) {
                    if let value = overlay.value(forKey: key, table: table, localization: localization) {
                        entries[key] = .init(value: value, source: localization.name, plural: nil)
                    }
                }
            }
        }
        return ResolvedTable(locale: locale.locale, entries: entries)
    }
}
