internal import LprojFormatStrings
internal import LprojLocales
internal import LprojTables

/// One place a value can come from, in the order a lookup asks them. Its
/// payloads are plain values, so that walking the chain costs no
/// reference counting on the lookup path.
enum ValueSource {
    /// Strings the client added for a locale of the chain.
    case added(LocaleKey)
    /// A folder of the bundle, by index: its `.stringsdict` entries, then
    /// its `.strings` entries (Apple's order, in ``LprojFolder/answer(_:table:)``
    /// and ``LprojFolder/forEachEntry(table:_:)``).
    case folder(Int)
}

extension LoadedBundle {
    /// Walks the chain of precedence, most preferred first, and stops when
    /// `visit` returns true. It is the one definition of the order: for each
    /// step of the locale's chain (its CLDR parents, then the development
    /// locale's, then `Base`), the strings a client added for that locale,
    /// then each folder of the step. ``lookup(_:table:locale:defaultValue:overlay:)``
    /// takes the first source with the key; ``resolvedTable(_:locale:overlay:)``
    /// keeps, for every key, the first source that has it.
    ///
    /// Without added strings the steps' folders are `chain`, when given
    /// (``ResolvedLocale/chain``, flattened once per locale): the common case
    /// walks one array.
    @inline(__always)
    func walkPrecedence(
        _ steps: [ResolvedLocale.Step], chain: [Int]? = nil, overlay: (any StringOverlay)?, _ visit: (ValueSource) -> Bool
    ) {
        if overlay == nil, let chain {
            for index in chain where visit(.folder(index)) { return }
            return
        }
        for step in steps {
            if overlay != nil, let key = step.key, visit(.added(key)) { return }
            for index in step.folders where visit(.folder(index)) { return }
        }
    }

    /// The first answer for any of `keys` along `steps`: each source is
    /// asked for every key before the next source is.
    @inline(__always)
    func firstAnswer(
        _ keys: some Collection<String>, table: String, steps: [ResolvedLocale.Step], chain: [Int]? = nil, overlay: (any StringOverlay)?
    ) -> LookupResult? {
        var found: LookupResult?
        var position = 0
        walkPrecedence(steps, chain: chain, overlay: overlay) { source in
            for key in keys {
                switch source {
                case .added(let locale):
                    if let value = overlay?.value(forKey: key, table: table, locale: locale) {
                        found = LookupResult(value: value, localization: nil, addedLocale: overlay?.name(of: locale), plural: nil)
                    }
                case .folder(let index):
                    found = localizations[index].answer(key, table: table, chainPosition: position)
                }
                if found != nil { return true }
            }
            if case .folder = source { position &+= 1 }
            return false
        }
        return found
    }
}

extension LprojFolder {
    /// This folder's answer for a key: its `.stringsdict` entry first, then
    /// its `.strings` value.
    @inline(__always)
    func answer(_ key: String, table: String, chainPosition: Int) -> LookupResult? {
        guard let entries = self.table(named: table) else { return nil }
        if !entries.plurals.isEmpty, let plural = entries.plurals[key] {
            return LookupResult(value: plural.formatKey, localization: self, plural: plural, chainPosition: chainPosition)
        }
        if let value = entries.strings.value(forKey: key) {
            return LookupResult(value: value, localization: self, plural: nil, chainPosition: chainPosition)
        }
        return nil
    }

    /// How many entries a table has in this folder.
    func entryCount(table: String) -> Int {
        guard let entries = self.table(named: table) else { return 0 }
        return entries.plurals.count + entries.strings.count
    }

    /// The UTF-8 bytes of a table's keys and values.
    func byteCount(table: String) -> Int {
        self.table(named: table)?.byteCount ?? 0
    }

    /// Every entry of a table in this folder, in the order ``answer(_:table:)``
    /// prefers them: `.stringsdict` entries, then `.strings` values. The
    /// entry is made when `body` asks for it.
    func forEachEntry(table: String, _ body: (String, () -> ResolvedTable.Entry) -> Void) {
        guard let entries = self.table(named: table) else { return }
        let source = name.description
        for (key, plural) in entries.plurals {
            body(key) { .init(value: plural.formatKey, source: source, plural: plural, pluralLocale: standardLocale) }
        }
        let strings = entries.strings
        for entry in 0..<strings.count {
            body(strings.key(at: entry)) { .init(value: strings.value(at: entry), source: source, plural: nil, pluralLocale: nil) }
        }
    }
}
