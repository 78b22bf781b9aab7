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
public enum LocaleNegotiation {
    /// How close a match must be.
    public enum Specificity: String, Sendable, Hashable, CaseIterable {
        case exact, language, any
    }

    /// How the chosen locale was found.
    public enum MatchKind: String, Sendable, Hashable {
        /// The preferred locale itself.
        case exact
        /// Another locale of the preferred locale's language.
        case language
    }

    /// The outcome of a negotiation.
    public struct Match: Sendable, Hashable {
        /// The available locale chosen.
        public let locale: LocaleIdentifier
        /// The preferred locale it answers.
        public let preferred: LocaleIdentifier
        /// Whether it is that locale or another of its language.
        public let kind: MatchKind
    }

    /// Picks from `available` for `preferred`, or returns `nil`.
    public static func negotiate(available: [LocaleIdentifier], preferred: [LocaleIdentifier], specificity: Specificity = .any) -> Match? {
        guard !available.isEmpty, let first = preferred.first else { return nil }
        switch specificity {
        case .exact:
            return exactMatch(for: first, in: available)
        case .language:
            return languageMatch(for: first, in: available, preferred: preferred)
        case .any:
            for candidate in preferred {
                if let match = languageMatch(for: candidate, in: available, preferred: preferred) { return match }
            }
            return nil
        }
    }

    private static func exactMatch(for wanted: LocaleIdentifier, in available: [LocaleIdentifier]) -> Match? {
        let key = wanted.matchKey
        return available.first { $0.matchKey == key }.map { Match(locale: $0, preferred: wanted, kind: .exact) }
    }

    private static func languageMatch(for wanted: LocaleIdentifier, in available: [LocaleIdentifier], preferred: [LocaleIdentifier]) -> Match? {
        if let exact = exactMatch(for: wanted, in: available) { return exact }
        let script = wanted.effectiveScript
        let sameLanguage = available.filter { $0.language == wanted.language && $0.effectiveScript == script }
        guard !sameLanguage.isEmpty else { return nil }
        func found(_ locale: LocaleIdentifier) -> Match { Match(locale: locale, preferred: wanted, kind: .language) }
        for key in FallbackChain(wanted).keys.dropFirst() {
            if let hit = sameLanguage.first(where: { $0.matchKey == key }) { return found(hit) }
        }
        for other in preferred {
            if let hit = sameLanguage.first(where: { $0.matchKey == other.matchKey }) { return found(hit) }
        }
        if let bare = sameLanguage.first(where: { $0.region == nil && $0.variants.isEmpty }) { return found(bare) }
        return found(sameLanguage.sorted()[0])
    }
}
