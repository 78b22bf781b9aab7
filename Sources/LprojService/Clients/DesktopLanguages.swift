package import LprojLocales
internal import Synchronization

/// Each user's languages as their desktop holds them (accountsservice's
/// `Languages`, else `Language`, of the user's object on the system bus),
/// as the daemon's watcher last read them.
///
/// They count after a process's own preferred languages: a client that sent
/// languages the bundle has keeps them, and the desktop's decide for the
/// rest. A uid the watcher has not read (or that has no desktop languages)
/// has none, and selection works as without a desktop.
package final class DesktopLanguages: Sendable {
    private let languages = Mutex<[UInt32: [LocaleIdentifier]]>([:])
    private let followed = Mutex<Set<UInt32>>([])
    private let startFollowing: @Sendable (UInt32) -> Void

    /// `follow` asks the watcher to follow a uid's desktop (the system's
    /// lprojd follows each uid that has clients); it must return at once.
    package init(follow: @escaping @Sendable (UInt32) -> Void = { _ in }) {
        self.startFollowing = follow
    }

    /// The desktop's languages of a uid, most preferred first.
    package func languages(of uid: UInt32) -> [LocaleIdentifier] {
        languages.withLock { $0[uid] ?? [] }
    }

    /// Asks for a uid's desktop to be followed, once.
    package func follow(uid: UInt32) {
        guard followed.withLock({ $0.insert(uid).inserted }) else { return }
        startFollowing(uid)
    }

    /// Sets a uid's desktop languages; returns whether they changed.
    @discardableResult
    package func set(_ new: [LocaleIdentifier], of uid: UInt32) -> Bool {
        languages.withLock { languages in
            let old = languages[uid] ?? []
            languages[uid] = new.isEmpty ? nil : new
            return old != new
        }
    }

    /// accountsservice's values (`fr_FR.UTF-8`, `sr_RS@latin`, `de_DE`) as
    /// locales, duplicates and what does not parse left out.
    package static func locales(fromPOSIX names: [String]) -> [LocaleIdentifier] {
        var seen: Set<String> = []
        var locales: [LocaleIdentifier] = []
        for name in names {
            guard let tag = languageTag(name), let locale = try? LocaleIdentifier(tag), seen.insert(locale.tag).inserted else { continue }
            locales.append(locale)
        }
        return locales
    }

    /// `sr_RS.UTF-8@latin` → `sr-Latn-RS`; nil for `C`, `POSIX` and empty names.
    static func languageTag(_ name: String) -> String? {
        var rest = Substring(name)
        var modifier: Substring?
        if let at = rest.firstIndex(of: "@") {
            modifier = rest[rest.index(after: at)...]
            rest = rest[..<at]
        }
        if let dot = rest.firstIndex(of: ".") { rest = rest[..<dot] }
        guard !rest.isEmpty, rest != "C", rest != "POSIX", rest.utf8.count <= 64 else { return nil }
        var parts = rest.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        switch modifier {
        case "latin": parts.insert("Latn", at: 1)
        case "cyrillic": parts.insert("Cyrl", at: 1)
        default: break
        }
        return parts.joined(separator: "-")
    }
}
