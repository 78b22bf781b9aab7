/// Picks the best of several available locales for a list of preferred
/// languages: ZCRLocalizedObject's negotiation.
///
/// Specificity:
/// - `exact`: only the first preferred locale itself (`en-GB` matches
///   `en-GB`, and `zh-TW` matches `zh-Hant-TW`, but `en` does not match `en-GB`);
/// - `language`: the first preferred locale itself, else the closest
///   available locale of its language and script: first along its CLDR
///   chain (`en-AU` → `en-001` → `en`), then in the order of the preferred
///   list, then the language without a region, then any other;
/// - `any` (the default): `language` for each preferred locale in turn.
///
/// Unlike ZCRLocalizedObject, which compares raw string prefixes ("ha"
/// would match "haw"), languages are compared by their subtags, and a
/// different script is a different language (`zh-Hans` never answers `zh-Hant`).
package enum LocaleNegotiation {
    /// How close a match must be.
    package enum Specificity: String, Sendable, Hashable, CaseIterable {
        case exact, language, any
    }

    /// How the chosen locale was found.
    package enum MatchKind: String, Sendable, Hashable {
        /// The preferred locale itself.
        case exact
        /// Another locale of the preferred locale's language.
        case language
    }

    /// The outcome of a negotiation.
    package struct Match: Sendable, Hashable {
        /// The available locale chosen.
        package let locale: LocaleIdentifier
        /// The preferred locale it answers.
        package let preferred: LocaleIdentifier
        /// Whether it is that locale or another of its language.
        package let kind: MatchKind
    }

    /// A locale with what matching needs of it, computed once: its match
    /// key and effective script each cost ICU a likely-subtags lookup.
    private struct Candidate {
        let locale: LocaleIdentifier
        let key: LocaleKey
        let script: String?

        init(_ locale: LocaleIdentifier) {
            self.locale = locale
            self.key = locale.matchKey
            self.script = self.key.script
        }
    }

    /// Picks from `available` for `preferred`, or returns `nil`.
    ///
    /// Each distinct locale's likely subtags are computed once; the rest is
    /// comparing keys, O(preferred × (available + preferred)).
    package static func negotiate(available: [LocaleIdentifier], preferred: [LocaleIdentifier], specificity: Specificity = .any) -> Match? {
        guard !available.isEmpty, !preferred.isEmpty else { return nil }
        let candidates = available.map(Candidate.init)
        var firstByKey: [LocaleKey: LocaleIdentifier] = [:]
        for candidate in candidates where firstByKey[candidate.key] == nil { firstByKey[candidate.key] = candidate.locale }
        let wanted = preferred.map(Candidate.init)
        switch specificity {
        case .exact:
            return firstByKey[wanted[0].key].map { Match(locale: $0, preferred: wanted[0].locale, kind: .exact) }
        case .language:
            return languageMatch(for: wanted[0], in: candidates, firstByKey: firstByKey, preferred: wanted)
        case .any:
            for candidate in wanted {
                if let match = languageMatch(for: candidate, in: candidates, firstByKey: firstByKey, preferred: wanted) { return match }
            }
            return nil
        }
    }

    private static func languageMatch(
        for wanted: Candidate, in available: [Candidate], firstByKey: [LocaleKey: LocaleIdentifier], preferred: [Candidate]
    ) -> Match? {
        if let exact = firstByKey[wanted.key] { return Match(locale: exact, preferred: wanted.locale, kind: .exact) }
        let sameLanguage = available.filter { $0.locale.language == wanted.locale.language && $0.script == wanted.script }
        guard !sameLanguage.isEmpty else { return nil }
        var sameByKey: [LocaleKey: LocaleIdentifier] = [:]
        for candidate in sameLanguage where sameByKey[candidate.key] == nil { sameByKey[candidate.key] = candidate.locale }
        func found(_ locale: LocaleIdentifier) -> Match { Match(locale: locale, preferred: wanted.locale, kind: .language) }
        for key in FallbackChain(wanted.locale).keys.dropFirst() {
            if let hit = sameByKey[key] { return found(hit) }
        }
        for other in preferred {
            if let hit = sameByKey[other.key] { return found(hit) }
        }
        if let bare = sameLanguage.first(where: { $0.locale.region == nil && $0.locale.variants.isEmpty }) { return found(bare.locale) }
        return sameLanguage.map(\.locale).min().map(found)
    }
}
