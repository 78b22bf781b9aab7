package import LprojFormatStrings
internal import LprojLocales

extension LoadedBundle {
    /// Looks a key up, per key, through the locale's chain: each folder in
    /// turn, its `.stringsdict` before its `.strings` (Apple's order), then
    /// the caller's default, then the key itself.
    ///
    /// Without arguments the value comes back as written, as
    /// `NSLocalizedString` returns it (a stringsdict entry gives its format
    /// key); see ``localizedString(_:table:locale:defaultValue:arguments:placeholders:overlay:)``.
    ///
    /// Without `pseudoLocalizing`, a pseudo-locale's value comes back as
    /// the tables have it, for ``pseudoLocalized(_:locale:)`` to transform
    /// later (once its cost is known).
    package func lookup(
        _ key: String, table: String = TableName.defaultTable, locale: ResolvedLocale, defaultValue: String? = nil,
        overlay: (any StringOverlay)? = nil, pseudoLocalizing: Bool = true
    ) -> LookupResult {
        guard let found = firstAnswer(CollectionOfOne(key), table: table, steps: locale.steps, chain: locale.chain, overlay: overlay) else {
            // Left as given in a pseudo-locale too: what is not transformed
            // is what the tables lack.
            return LookupResult(value: defaultValue ?? key, localization: nil, plural: nil)
        }
        return pseudoLocalizing ? pseudoLocalized(found, locale: locale) : found
    }

    /// A value found as a pseudo-locale shows it (as it is, in any other
    /// locale, and when no table had it).
    package func pseudoLocalized(_ result: LookupResult, locale: ResolvedLocale) -> LookupResult {
        guard let pseudo = locale.pseudo, result.found else { return result }
        return result.pseudoLocalized(pseudo)
    }

    /// Looks a key up in what speaks for the locale's language only: its own
    /// chain and `Base`, never the development locale. For settings a
    /// translator makes for a language, such as the separators
    /// (`LM_decimal_separator`), which must not leak from English into
    /// German. Nil when none of those folders has the key.
    package func lookupInOwnLanguage(
        _ key: String, table: String = TableName.defaultTable, locale: ResolvedLocale, overlay: (any StringOverlay)? = nil
    ) -> LookupResult? {
        firstAnswer(CollectionOfOne(key), table: table, steps: locale.ownLanguageSteps, chain: locale.ownLanguageChain, overlay: overlay)
    }

    /// Looks up whichever of several spellings of a key comes first in the
    /// locale's chain: each folder is asked for every spelling before the
    /// next folder is. Nil when no folder (nor added string) has any.
    package func lookup(
        anyOf keys: [String], table: String = TableName.defaultTable, locale: ResolvedLocale, overlay: (any StringOverlay)? = nil
    ) -> LookupResult? {
        firstAnswer(keys, table: table, steps: locale.steps, chain: locale.chain, overlay: overlay)
    }

    /// Looks a key up and, given arguments, formats it as
    /// `localizedStringWithFormat` would: plural forms chosen by the rules
    /// of the language the value is written in, numbers written the way the
    /// requested locale writes them. `{name}` placeholders are filled in the
    /// value's own text. A value longer than `maximumBytes` (as found, or
    /// once formatted) is an error, found before it is built.
    package func localizedString(
        _ key: String, table: String = TableName.defaultTable, locale: ResolvedLocale, defaultValue: String? = nil,
        arguments: [FormatArgument]? = nil, placeholders: [String: String] = [:], overlay: (any StringOverlay)? = nil,
        maximumBytes: Int = .max
    ) throws(LookupError) -> LookupResult {
        guard TableName.isValid(table) else { throw .invalidTableName(table) }
        let result = lookup(key, table: table, locale: locale, defaultValue: defaultValue, overlay: overlay)
        return try formatted(result, locale: locale, arguments: arguments, placeholders: placeholders, maximumBytes: maximumBytes)
    }

    /// A value looked up, formatted with `arguments` and `placeholders`
    /// (see ``localizedString(_:table:locale:defaultValue:arguments:placeholders:overlay:maximumBytes:)``):
    /// the second half of a lookup, which a caller may do elsewhere once it
    /// knows what the first half found.
    package func formatted(
        _ result: LookupResult, locale: ResolvedLocale, arguments: [FormatArgument]?, placeholders: [String: String],
        maximumBytes: Int = .max
    ) throws(LookupError) -> LookupResult {
        guard let arguments else {
            guard !placeholders.isEmpty else {
                guard result.value.utf8.count <= maximumBytes else { throw .invalidArguments(.tooLong(maximumBytes: maximumBytes)) }
                return result
            }
            guard let filled = Placeholders.substitute(in: result.value, values: placeholders, maximumBytes: maximumBytes) else {
                throw .invalidArguments(.tooLong(maximumBytes: maximumBytes))
            }
            return result.replacingValue(filled)
        }
        let renderer = FormatRenderer(
            numbers: ICUNumberRenderer(locale: locale.standardLocale), plurals: pluralRules(for: result, locale: locale))
        do {
            let formatted = try renderer.render(
                result.plural?.format ?? FormatString(result.value), arguments: arguments,
                variables: result.plural?.variables ?? [:], placeholders: placeholders, maximumBytes: maximumBytes)
            return result.replacingValue(formatted)
        } catch {
            throw .invalidArguments(error)
        }
    }

    /// The plural rules for a value: those of the language it is written
    /// in, else the requested locale's, else the development locale's, else
    /// CLDR's root rules (every number is "other"), which always exist.
    private func pluralRules(for result: LookupResult, locale: ResolvedLocale) -> any PluralRuleSet {
        if let rules = PluralRules.forLocale(result.pluralLocale ?? locale.standardLocale) { return rules }
        if let rules = PluralRules.forLocale(configuration.developmentLocale) { return rules }
        return RootPluralRules()
    }
}

extension LookupResult {
    /// The value (and plural entry) as a pseudo-locale shows them.
    func pseudoLocalized(_ pseudo: PseudoLocalization) -> LookupResult {
        let (value, plural) = pseudo.transform(value, plural: plural)
        return LookupResult(
            value: value, localization: localization, addedLocale: addedLocale, plural: plural, chainPosition: chainPosition)
    }

    func replacingValue(_ value: String) -> LookupResult {
        LookupResult(value: value, localization: localization, addedLocale: addedLocale, plural: plural, chainPosition: chainPosition)
    }
}
