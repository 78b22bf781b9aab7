package import LprojFormatStrings
package import LprojLocales

/// A whole table resolved for one locale: every key any folder of the
/// chain defines, with the value the per-key fallback picks.
package struct ResolvedTable: Sendable {
    /// One key's value and where it came from.
    package struct Entry: Sendable, Hashable {
        /// The value as written (a stringsdict entry: its format key).
        package let value: String
        /// Where it came from: a folder's locale, `Base`, or the locale an
        /// added string was added for.
        package let source: String
        /// For a stringsdict entry, the entry itself.
        package let plural: PluralFormat?
        /// For a stringsdict entry, the locale whose plural rules apply.
        package let pluralLocale: LocaleIdentifier?

        func pseudoLocalized(_ pseudo: PseudoLocalization) -> Entry {
            let (value, plural) = pseudo.transform(value, plural: plural)
            return Entry(value: value, source: source, plural: plural, pluralLocale: pluralLocale)
        }
    }

    /// The requested locale.
    package let locale: LocaleIdentifier
    /// The entries by key.
    package let entries: [String: Entry]
}

extension LoadedBundle {
    /// Resolves a whole table for a locale, merging the chain so that each
    /// key has the value ``lookup(_:table:locale:defaultValue:overlay:)``
    /// would return.
    ///
    /// `admit` sees the entries before a pseudo-locale rewrites them (which
    /// only makes them longer), and may refuse them: a table too large to
    /// send is then not pseudo-localized in vain.
    package func resolvedTable<Failure: Error>(
        _ table: String = TableName.defaultTable, locale: ResolvedLocale, overlay: (any StringOverlay)? = nil,
        admit: ([String: ResolvedTable.Entry]) throws(Failure) -> Void
    ) throws(Failure) -> ResolvedTable {
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
        try admit(entries)
        if let pseudo = locale.pseudo {
            entries = entries.mapValues { $0.pseudoLocalized(pseudo) }
        }
        return ResolvedTable(locale: locale.locale, entries: entries)
    }

    /// A whole table resolved, whatever its size.
    package func resolvedTable(_ table: String = TableName.defaultTable, locale: ResolvedLocale, overlay: (any StringOverlay)? = nil)
        -> ResolvedTable
    {
        resolvedTable(table, locale: locale, overlay: overlay) { (_: [String: ResolvedTable.Entry]) throws(Never) in }
    }

    /// What resolving a table costs: the entries it visits along the chain
    /// (each added string included) and their bytes, known before it is
    /// paid, so that a small table can be resolved where a lookup would be
    /// answered. A pseudo-locale rewrites every value it keeps, and its
    /// values grow: it counts four times.
    package func resolvingCost(_ table: String = TableName.defaultTable, locale: ResolvedLocale, overlay: (any StringOverlay)? = nil)
        -> TableCost
    {
        var cost = TableCost()
        walkPrecedence(locale.steps, chain: locale.chain, overlay: overlay) { source in
            switch source {
            case .added(let locale):
                guard let strings = overlay?.strings(table: table, locale: locale) else { break }
                cost.entries += strings.count
                for (key, value) in strings { cost.bytes += key.utf8.count + value.utf8.count }
            case .folder(let index):
                cost.entries += localizations[index].entryCount(table: table)
                cost.bytes += localizations[index].byteCount(table: table)
            }
            return false
        }
        if locale.pseudo != nil {
            cost.entries *= 4
            cost.bytes *= 4
        }
        return cost
    }
}

/// What resolving a table visits: entries and their bytes.
package struct TableCost: Sendable, Equatable {
    /// Entries visited along the chain.
    package var entries = 0
    /// Their keys' and values' UTF-8 bytes.
    package var bytes = 0

    /// No cost yet.
    package init() {}
}
