/// Where to look for a key, in order: a locale and its CLDR parents.
///
/// The chain starts at the requested locale and follows CLDR's parent
/// locales as ICU's data records them, computed on the maximized locale so
/// that it never crosses scripts:
/// - `zh-TW` → `zh-Hant-TW` (the same locale) → `zh-Hant`; never `zh-Hans`;
/// - `sr-Latn-RS` → `sr-Latn`; never `sr-Cyrl`;
/// - `en-AU` → `en-001` → `en`; `es-MX` → `es-419` → `es`; `pt-AO` → `pt-PT` → `pt`.
///
/// Elements are ``LocaleKey``s, so a table folder matches whatever way its
/// name is spelled (`zh_TW.lproj`, `zh-Hant-TW.lproj`). The development
/// locale and `Base` come after the chain; the bundle adds them.
package struct FallbackChain: Sendable, Hashable, CustomStringConvertible {
    /// The keys to try, most specific first.
    package let keys: [LocaleKey]

    /// The chain of a locale.
    package init(_ locale: LocaleIdentifier) {
        keys = Self.known.value(forKey: locale.matchKey) { Self.keys(from: locale.matchKey) }
    }

    /// Chains already walked, by the locale's key: ICU's data does not change
    /// while the process runs, and walking a chain costs resource-bundle
    /// opens (the keys come from clients' text, hence the bound).
    private static let known = BoundedCache<LocaleKey, [LocaleKey]>(capacity: 4096)

    /// The chain from `full` up, asking ICU for each parent.
    private static func keys(from full: LocaleKey) -> [LocaleKey] {
        var keys: [LocaleKey] = []
        func add(_ key: LocaleKey) {
            if !keys.contains(key) { keys.append(key) }
        }
        add(full)
        var current = LocaleKey(language: full.language, script: full.script, region: full.region)
        add(current)
        // Bounded: CLDR chains are at most a few steps; the bound only
        // guards against a cycle in unexpected data.
        for _ in 0..<8 {
            guard let parent = Self.parent(of: current) else { break }
            current = parent
            add(current)
        }
        return keys
    }

    package var description: String { keys.map(\.tag).joined(separator: " → ") }

    /// CLDR's parent of a locale key, or `nil` at the root.
    static func parent(of key: LocaleKey) -> LocaleKey? {
        // ICU stores parents under the locale's data name, which is usually
        // the form without the likely script ("en_AU", not "en_Latn_AU") and
        // sometimes the full one ("zh_Hant_MO"). Ask under every name that
        // denotes this same locale; minimizing would not do, as it may drop
        // the region instead ("sr-Latn-RS" minimizes to "sr-Latn").
        var explicit = ICU.ExplicitParent.none
        for name in dataNames(of: key) {
            explicit = ICU.explicitParent(name)
            if explicit != .none { break }
        }
        switch explicit {
        case .root:
            return nil
        case .locale(let tag):
            return LocaleIdentifier(canonicalTag: tag).matchKey
        case .none:
            if key.region != nil {
                return LocaleKey(language: key.language, script: key.script, region: nil)
            }
            // At the language: a script other than the language's usual one
            // has the root as its parent (CLDR), so the chain ends here.
            return nil
        }
    }

    /// The spellings under which ICU may keep this locale's data.
    static func dataNames(of key: LocaleKey) -> [String] {
        var names = [key.tag]
        guard let script = key.script else { return names }
        let withoutScript = ([key.language] + [key.region].compactMap { $0 }).joined(separator: "-")
        if LocaleIdentifier(canonicalTag: withoutScript).effectiveScript == script {
            names.append(withoutScript)
        }
        return names
    }
}
