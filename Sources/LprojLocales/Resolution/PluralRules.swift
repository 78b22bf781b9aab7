internal import CLprojICU
package import LprojFormatStrings
internal import Synchronization

/// CLDR's cardinal plural rules for one locale, from ICU.
///
/// The rules come from the first locale along the CLDR parent chain, within
/// the same language, that has rules of its own: `pt-AO` uses `pt-PT`'s
/// rules, as CLDR's parent locales say, where ICU's own lookup would
/// truncate to `pt`'s (they differ: 1.5 is "other" in Portugal, "one" in
/// Brazil). A parent in another language (`hi-Latn` → `en-IN`) is not
/// followed: plural rules belong to the language, as later CLDR releases
/// state with plural-specific parent locales. Rules are opened once per
/// locale and shared; ICU's rule objects are immutable and thread-safe.
package final class PluralRules: PluralRuleSet, @unchecked Sendable {
    /// The locale the rules are for.
    package let locale: String
    /// The categories the language distinguishes.
    package let categories: Set<PluralCategory>
    // Immutable after init; ICU allows concurrent use.
    private let handle: OpaquePointer

    private static let cache = Mutex<[String: PluralRules]>([:])

    /// The rules for a locale, shared; `nil` if ICU cannot open them.
    package static func forLocale(_ locale: LocaleIdentifier) -> PluralRules? {
        let tag = locale.tag
        if let cached = cache.withLock({ $0[tag] }) { return cached }
        guard let rules = PluralRules(tag: rulesLocale(for: locale)) else { return nil }
        return cache.withLock { cache in
            if let existing = cache[tag] { return existing }
            if cache.count < 4096 { cache[tag] = rules }
            return rules
        }
    }

    /// The locale whose rules apply: the first along the CLDR chain with an
    /// entry of its own in ICU's plural data, else the locale itself (ICU
    /// then falls back by truncation, ending at the root's "other").
    static func rulesLocale(for locale: LocaleIdentifier) -> String {
        for key in FallbackChain(locale).keys where key.language == locale.language {
            for name in FallbackChain.dataNames(of: key) where lproj_plural_rules_has_own_entry(name) == 1 {
                return name
            }
        }
        return locale.tag
    }

    private init?(tag: String) {
        guard let handle = lproj_plural_rules_open(tag) else { return nil }
        self.handle = handle
        self.locale = tag
        let words = ICU.string { lproj_plural_categories(handle, $0, $1) } ?? "other"
        self.categories = Set(words.split(separator: " ").compactMap { PluralCategory(rawValue: String($0)) })
    }

    deinit {
        lproj_plural_rules_close(handle)
    }

    package func category(for operand: PluralOperand) -> PluralCategory {
        let keyword: String?
        switch operand {
        case .integer(let value):
            keyword = ICU.string { lproj_plural_select_integer(handle, value, $0, $1) }
        case .decimal(let value, let digits):
            keyword = ICU.string { lproj_plural_select_decimal(handle, value, Int32(clamping: digits), $0, $1) }
        }
        return keyword.flatMap(PluralCategory.init(rawValue:)) ?? .other
    }
}
