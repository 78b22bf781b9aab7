package import LprojFormatStrings
package import LprojLocales

/// A requested locale, checked against a bundle, with the folders to
/// consult for it in order. Immutable; a class so that handing it out of
/// the bundle's cache costs one reference.
package final class ResolvedLocale: Sendable {
    /// The requested locale.
    package let locale: LocaleIdentifier
    /// The locale whose number formats apply (a custom locale's mapping,
    /// a pseudo-locale's base).
    package let standardLocale: LocaleIdentifier
    /// The transform a pseudo-locale applies to every value found.
    package let pseudo: PseudoLocalization?
    /// One step of the chain: a locale, and the folders that answer to it.
    package struct Step: Sendable {
        /// The locale key (`nil` for `Base`).
        package let key: LocaleKey?
        /// Indexes into the bundle's localizations.
        package let folders: [Int]
    }

    /// The locale's CLDR chain, then the development locale's, then `Base`,
    /// each with its folders (possibly none: added strings may still
    /// exist for a locale the bundle has no folder for).
    package let steps: [Step]
    /// The folders of all steps, in order: the fast path when no added
    /// strings are involved.
    package let chain: [Int]
    /// How many of the first steps are the locale's own chain, before the
    /// development locale's.
    package let ownStepCount: Int
    /// The locale's own chain, then `Base`: what speaks for the locale's
    /// language, without the development locale.
    package let ownLanguageSteps: [Step]
    /// The folders of ``ownLanguageSteps``, in order.
    package let ownLanguageChain: [Int]
    /// How many of the first folders of ``chain`` are the locale's own: a
    /// value found past them missed the locale's own translations (for a
    /// custom locale, only its own folder: the standard locale it maps to
    /// fills its gaps). `Base` (last) is counted as the locale's own when
    /// the locale is the development locale's language, for which it speaks.
    package let ownFolderCount: Int
    let baseIsOwn: Bool

    init(
        locale: LocaleIdentifier, standardLocale: LocaleIdentifier, steps: [Step], ownStepCount: Int, pseudo: PseudoLocalization? = nil,
        baseIsOwn: Bool = false, ownFolderSteps: Int? = nil
    ) {
        self.locale = locale
        self.standardLocale = standardLocale
        self.pseudo = pseudo
        self.steps = steps
        self.chain = steps.flatMap(\.folders)
        self.ownStepCount = ownStepCount
        self.ownLanguageSteps = Array(steps.prefix(ownStepCount)) + (steps.last.map { $0.key == nil ? [$0] : [] } ?? [])
        self.ownLanguageChain = ownLanguageSteps.flatMap(\.folders)
        let own = steps.prefix(ownFolderSteps ?? ownStepCount).reduce(0) { $0 + $1.folders.count }
        self.ownFolderCount = own
        self.baseIsOwn = baseIsOwn && steps.last?.key == nil && steps.last?.folders.isEmpty == false
    }

    /// Whether a value found at `position` of ``chain`` is the locale's own.
    @inline(__always)
    package func isOwn(chainPosition position: Int) -> Bool {
        position >= 0 && (position < ownFolderCount || (baseIsOwn && position == chain.count - 1))
    }
}

extension LoadedBundle {
    /// Checks a requested locale and resolves the folders it reads, once
    /// per locale text: the answer is cached, keyed by the text as given
    /// (at most ``LocaleIdentifier/maximumLength`` bytes, checked first).
    ///
    /// The cache is bounded; when it is full, a new entry replaces one at
    /// random. `admit` is asked, on a miss only, for a token to keep with
    /// the new entry (the caller's charge for it, released when the entry
    /// goes); nil leaves the answer uncached. By default every answer is
    /// cached, for in-process use where no one else shares the cache.
    package func resolve(locale text: String, admit: () -> (any AnyObject & Sendable)? = { FreeAdmission.shared }) throws(LookupError)
        -> ResolvedLocale
    {
        // Checked before the text is hashed for the cache.
        guard text.utf8.count <= LocaleIdentifier.maximumLength else {
            throw .invalidLocale(.malformed(text.clipped(toUTF8Bytes: LocaleIdentifier.maximumLength)))
        }
        if let cached = chains.withLock({ $0[text]?.resolved }) { return cached }
        let locale: LocaleIdentifier
        do {
            locale = try LocaleIdentifier(text)
        } catch {
            throw .invalidLocale(error)
        }
        let resolved = try resolve(locale: locale)
        if let charge = admit() {
            let evicted: CachedChain? = chains.withLock { cache in
                var evicted: CachedChain?
                if cache[text] == nil, cache.count >= Self.chainCacheLimit, let victim = cache.randomElement()?.key {
                    evicted = cache.removeValue(forKey: victim)
                }
                cache[text] = CachedChain(resolved: resolved, charge: charge)
                return evicted
            }
            // Released outside the lock: dropping a charge reaches the ledger.
            withExtendedLifetime(evicted) {}
        }
        return resolved
    }

    /// The token of a cache entry nobody is charged for.
    package final class FreeAdmission: Sendable {
        package static let shared = FreeAdmission()
    }

    /// What a cache entry holds in memory, to charge it: the key, the
    /// resolved chain and the dictionary's own share.
    package static func cacheCost(ofLocaleText text: String) -> Int { 256 + text.utf8.count }

    /// Checks a requested locale and resolves the folders it reads.
    package func resolve(locale: LocaleIdentifier) throws(LookupError) -> ResolvedLocale {
        var keys: [LocaleKey]
        let standard: LocaleIdentifier
        let pseudo = configuration.pseudoLocales ? PseudoLocalization(locale) : nil
        if let pseudo {
            // The development locale's values, transformed: no folder of its own.
            standard = pseudo.baseLocale
            keys = []
        } else if let mapped = configuration.customLocales[locale.tag] {
            // A custom locale reads its own folder, then its standard locale's chain.
            standard = mapped
            keys = [locale.matchKey] + FallbackChain(mapped).keys
        } else if KnownLocales.isKnown(locale) {
            standard = locale
            keys = FallbackChain(locale).keys
        } else {
            throw .invalidLocale(.unknown(locale.tag))
        }
        let ownKeyCount = keys.count
        keys += FallbackChain(configuration.developmentLocale).keys
        var steps: [ResolvedLocale.Step] = []
        var seenKeys: Set<LocaleKey> = []
        var seenFolders: Set<Int> = []
        var ownStepCount = 0
        for (index, key) in keys.enumerated() where seenKeys.insert(key).inserted {
            let folders = (localizationsByKey[key] ?? []).filter { seenFolders.insert($0).inserted }
            steps.append(ResolvedLocale.Step(key: key, folders: folders))
            if index < ownKeyCount { ownStepCount += 1 }
        }
        steps.append(ResolvedLocale.Step(key: nil, folders: baseIndex.map { [$0] } ?? []))
        return ResolvedLocale(
            locale: locale, standardLocale: standard, steps: steps, ownStepCount: ownStepCount, pseudo: pseudo,
            baseIsOwn: locale.language == configuration.developmentLocale.language,
            ownFolderSteps: configuration.customLocales[locale.tag] != nil && pseudo == nil ? min(1, ownStepCount) : nil)
    }

    /// The development locale, resolved.
    package var developmentLocale: ResolvedLocale {
        // The configured development locale is always allowed.
        (try? resolve(locale: configuration.developmentLocale.tag))
            ?? ResolvedLocale(
                locale: configuration.developmentLocale, standardLocale: configuration.developmentLocale,
                steps: [ResolvedLocale.Step(key: nil, folders: baseIndex.map { [$0] } ?? [])], ownStepCount: 0)
    }
}
