internal import LprojFormat
internal import LprojLocales
internal import LprojTables

/// One place a value can come from, in the order a lookup asks them.
enum ValueSource {
    /// Strings a client added for a locale of the chain.
    case added(any StringOverlay, LocaleKey)
    /// A folder's `.stringsdict` entries for the table.
    case plurals(LprojFolder, [String: PluralFormat])
    /// A folder's `.strings` entries for the table.
    case strings(LprojFolder, StringTable)
}

extension LoadedBundle {
    /// Walks the chain of precedence for a table, most preferred first, and
    /// stops when `visit` returns true. It is the one definition of the
    /// order: for each step of the locale's chain (its CLDR parents, then
    /// the development locale's, then `Base`), the strings a client added
    /// for that locale, then each folder of the step, its `.stringsdict`
    /// before its `.strings` (Apple's order). ``lookup(_:table:locale:defaultValue:overlay:)``
    /// takes the first source with the key; ``resolvedTable(_:locale:overlay:)``
    /// keeps, for every key, the first source that has it.
    @inline(__always)
    func walkPrecedence(
        table: String, steps: [ResolvedLocale.Step], overlay: (any StringOverlay)?, _ visit: (ValueSource) -> Bool
    ) {
        for step in steps {
            if let overlay, let key = step.key, visit(.added(overlay, key)) { return }
            for index in step.folders {
                let folder = localizations[index]
                guard let entries = folder.table(named: table) else { continue }
                if !entries.plurals.isEmpty, visit(.plurals(folder, entries.plurals)) { return }
                if visit(.strings(folder, entries.strings)) { return }
            }
        }
    }

    /// The answer a source gives for a key, if it has one.
    @inline(__always)
    func answer(_ key: String, table: String, from source: ValueSource) -> LookupResult? {
        switch source {
        case .added(let overlay, let locale):
            overlay.value(forKey: key, table: table, locale: locale).map {
                LookupResult(value: $0, localization: nil, addedLocale: overlay.name(of: locale), plural: nil)
            }
        case .plurals(let folder, let plurals):
            plurals[key].map { LookupResult(value: $0.formatKey, localization: folder, plural: $0) }
        case .strings(let folder, let strings):
            strings.value(forKey: key).map { LookupResult(value: $0, localization: folder, plural: nil) }
        }
    }

    /// The first answer for any of `keys` along `steps`: each source is
    /// asked for every key before the next source is.
    @inline(__always)
    func firstAnswer(_ keys: some Collection<String>, table: String, steps: [ResolvedLocale.Step], overlay: (any StringOverlay)?)
        -> LookupResult?
    {
        var found: LookupResult?
        walkPrecedence(table: table, steps: steps, overlay: overlay) { source in
            for key in keys {
                if let answer = answer(key, table: table, from: source) {
                    found = answer
                    return true
                }
            }
            return false
        }
        return found
    }
}
