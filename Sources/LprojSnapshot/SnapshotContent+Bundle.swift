package import LprojEngine
package import LprojFormatStrings
internal import LprojLocales

extension SnapshotContent {
    /// A bundle's snapshot for a locale: every table resolved as lprojd's
    /// `GetTable` resolves it (each key through the locale's chain, the
    /// nearest folder that has it winning), plural entries kept whole.
    package init(bundle: LoadedBundle, locale: ResolvedLocale, generation: UInt64 = 0) {
        var tables: [String: [String: Entry]] = [:]
        for table in bundle.tableNames {
            let resolved = bundle.resolvedTable(table, locale: locale)
            tables[table] = resolved.entries.mapValues { Entry($0, locale: locale.locale) }
        }
        self.init(
            bundle: bundle.name, locale: locale.locale.tag, developmentLocale: bundle.configuration.developmentLocale.tag,
            pluralRulesLocale: PluralRules.forLocale(locale.locale)?.locale ?? locale.locale.tag, generation: generation,
            tables: tables)
    }
}

extension SnapshotContent.Entry {
    init(_ entry: ResolvedTable.Entry, locale: LocaleIdentifier) {
        let plural = entry.plural.map { format in
            SnapshotContent.Plural(
                formatKey: format.formatKey, locale: (entry.pluralLocale ?? locale).tag,
                variables: format.variables.mapValues { variable in
                    SnapshotContent.Variable(
                        valueType: variable.valueTypeText,
                        forms: Dictionary(uniqueKeysWithValues: variable.forms.map { ($0.key.rawValue, $0.value) }))
                })
        }
        let signature = ArgumentSignature(entry.plural?.format ?? FormatString(entry.value), variables: entry.plural?.variables ?? [:])
        self.init(value: entry.value, source: entry.source, plural: plural, signature: Self.code(of: signature))
    }

    /// One character per argument position (``ArgumentCode``).
    static func code(of signature: ArgumentSignature) -> String {
        guard signature.argumentCount > 0 else { return "" }
        return String(
            (1...signature.argumentCount).map { position -> Character in
                switch signature.kind(at: position)?.kind {
                case .integer: ArgumentCode.integer
                case .floatingPoint: ArgumentCode.floatingPoint
                case .character: ArgumentCode.character
                case .string: ArgumentCode.string
                case .object: ArgumentCode.object
                case .pointer: ArgumentCode.pointer
                case .pluralNumber: ArgumentCode.pluralNumber
                case nil: ArgumentCode.unused
                }
            })
    }
}

extension SnapshotContent.Plural {
    /// The entry as the renderer takes it (checked again, as a
    /// `.stringsdict` entry is when read).
    package func pluralFormat() throws(PluralFormatError) -> PluralFormat {
        try PluralFormat(
            formatKey: formatKey,
            variables: variables.mapValues { variable in
                PluralVariable(
                    valueTypeText: variable.valueType,
                    forms: Dictionary(
                        uniqueKeysWithValues: variable.forms.compactMap { key, text in PluralCategory(rawValue: key).map { ($0, text) } }))
            })
    }
}
