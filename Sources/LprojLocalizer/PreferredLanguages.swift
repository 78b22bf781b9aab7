/// The user's preferred languages, read from the environment the way GNU
/// gettext reads them (clients/README.md has the same rules for C and
/// Python, with examples):
///
/// 1. the locale of messages is the first non-empty of `LC_ALL`,
///    `LC_MESSAGES`, `LANG`;
/// 2. if it is `C` or `POSIX` (or `C.<codeset>`), there are none: gettext
///    ignores `LANGUAGE` in the C locale (an unset locale is not `C` here, so
///    that `LANGUAGE` alone still works);
/// 3. else `LANGUAGE`'s colon-separated entries, if any;
/// 4. else the locale of messages itself.
///
/// Each entry becomes a BCP 47 tag: the codeset goes, `_` becomes `-`,
/// `@latin`/`@cyrillic` become the scripts `Latn`/`Cyrl`, other modifiers go.
public enum PreferredLanguages {
    public static func fromEnvironment(_ environment: [String: String]) -> [String] {
        let messages = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        if let messages, isPOSIXLocale(messages) { return [] }
        let entries: [Substring]
        if let list = environment["LANGUAGE"], !list.isEmpty {
            entries = list.split(separator: ":")
        } else if let messages {
            entries = [Substring(messages)]
        } else {
            return []
        }
        var seen: Set<String> = []
        var languages: [String] = []
        for entry in entries where !isPOSIXLocale(entry) {
            guard let tag = languageTag(entry), seen.insert(tag).inserted else { continue }
            languages.append(tag)
        }
        return languages
    }

    /// `C`, `POSIX`, `C.UTF-8`: the locale that means "no translation".
    static func isPOSIXLocale(_ name: some StringProtocol) -> Bool {
        let base = name.prefix { $0 != "." && $0 != "@" }
        return base == "C" || base == "POSIX"
    }

    /// `sr_RS.UTF-8@latin` → `sr-Latn-RS`; nil for an empty name.
    static func languageTag(_ entry: Substring) -> String? {
        var modifier: Substring?
        var name = entry
        if let at = name.firstIndex(of: "@") {
            modifier = name[name.index(after: at)...]
            name = name[..<at]
        }
        if let dot = name.firstIndex(of: ".") { name = name[..<dot] }
        var parts = name.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard let language = parts.first, !language.isEmpty else { return nil }
        switch modifier {
        case "latin": parts.insert("Latn", at: 1)
        case "cyrillic": parts.insert("Cyrl", at: 1)
        default: break
        }
        return parts.joined(separator: "-")
    }
}
