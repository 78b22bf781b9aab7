public import LprojLocales

/// A requested locale, checked against a bundle, with the folders to
/// consult for it in order. Immutable; a class so that handing it out of
/// the bundle's cache costs one reference.
public final class ResolvedLocale: Sendable {
    /// The requested locale.
    public let locale: LocaleIdentifier
    /// The locale whose number formats apply (a custom locale's mapping).
    public let standardLocale: LocaleIdentifier
    /// Indexes into the bundle's localizations: the locale's CLDR chain,
    /// then the development locale's, then `Base`.
    public let chain: [Int]

    init(locale: LocaleIdentifier, standardLocale: LocaleIdentifier, chain: [Int]) {
        self.locale = locale
        self.standardLocale = standardLocale
        self.chain = chain
    }
}

extension LoadedBundle {
    /// Checks a requested locale and resolves the folders it reads, once
    /// per locale text (cached, bounded).
    public func resolve(locale text: String) throws(LookupError) -> ResolvedLocale {
        if let cached = chains.withLock({ $0[text] }) { return cached }
        let locale: LocaleIdentifier
        do {
            locale = try LocaleIdentifier(text)
        } catch {
            throw .invalidLocale(error)
        }
        let resolved = try resolve(locale: locale)
        chains.withLock { cache in
            if cache.count < Self.chainCacheLimit { cache[text] = resolved }
        }
        return resolved
    }

    /// Checks a requested locale and resolves the folders it reads.
    public func resolve(locale: LocaleIdentifier) throws(LookupError) -> ResolvedLocale {
        var keys: [LocaleKey]
        let standard: LocaleIdentifier
        if let mapped = configuration.customLocales[locale.tag] {
            // A custom locale reads its own folder, then its standard locale's chain.
            standard = mapped
            keys = [locale.matchKey] + FallbackChain(mapped).keys
        } else if KnownLocales.isKnown(locale) {
            standard = locale
            keys = FallbackChain(locale).keys
        } else {
            throw .invalidLocale(.unknown(locale.tag))
        }
        keys += FallbackChain(configuration.developmentLocale).keys
        var chain: [Int] = []
        for key in keys {
            for index in localizationsByKey[key] ?? [] where !chain.contains(index) {
                chain.append(index)
            }
        }
        if let baseIndex { chain.append(baseIndex) }
        return ResolvedLocale(locale: locale, standardLocale: standard, chain: chain)
    }

    /// The development locale, resolved.
    public var developmentLocale: ResolvedLocale {
        // The configured development locale is always allowed.
        (try? resolve(locale: configuration.developmentLocale.tag))
            ?? ResolvedLocale(locale: configuration.developmentLocale, standardLocale: configuration.developmentLocale, chain: baseIndex.map { [$0] } ?? [])
    }
}
