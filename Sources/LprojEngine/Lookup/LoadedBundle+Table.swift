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

        func pseudoLocalized(_ pseudo: PseudoLocalization) -> Entry {
            let (value, plural) = pseudo.transform(value, plural: plural)
            return Entry(value: value, source: source, plural: plural, pluralLocale: pluralLocale)
        }
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
    public func resolvedTable(_ table: String = TableName.defaultTable, locale: ResolvedLocale, overlay: (any StringOverlay)? = nil)
        -> ResolvedTable
    {
        var entries: [String: ResolvedTable.Entry] = [:]
        // The first source that has a key wins, as in a lookup.
        walkPrecedence(locale.steps, chain: locale.chain, overlay: overlay) { source in
            switch source {
            case .added(let locale):
                guard let overlay else { break }
                let name = overlay.name(of: locale)
                for (key, value) in overlay.strings(table: table, locale: locale) where entries[key] == nil {
                    entries[key] = .init(value: value, source: name, plural: nil, pluralLocale: nil)
                }
            case .folder(let index):
                if entries.isEmpty { entries.reserveCapacity(localizations[index].entryCount(table: table)) }
                // A key a nearer folder already gave costs one probe: its
                // entry (the value's string) is only made for a new key.
                localizations[index].forEachEntry(table: table) { key, entry in
                    if entries[key] == nil { entries[key] = entry() }
                }
            }
            return false
        }
        if let pseudo = locale.pseudo {
            entries = entries.mapValues { $0.pseudoLocalized(pseudo) }
        }
        return ResolvedTable(locale: locale.locale, entries: entries)
    }

    /// How many entries resolving a table visits along the chain (with
    /// each added string): its cost, known before it is paid, so that a
    /// small table can be resolved where a lookup would be answered.
    public func resolvingCost(_ table: String = TableName.defaultTable, locale: ResolvedLocale, overlay: (any StringOverlay)? = nil)
        -> Int
    {
        var visits = 0
        walkPrecedence(locale.steps, chain: locale.chain, overlay: overlay) { source in
            switch source {
            case .added(let locale): visits += overlay?.strings(table: table, locale: locale).count ?? 0
            case .folder(let index): visits += localizations[index].entryCount(table: table)
            }
            return false
        }
        // A pseudo-locale rewrites every value it keeps.
        return locale.pseudo == nil ? visits : visits * 4
    }
}
