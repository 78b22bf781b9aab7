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
///
/// One exception makes a change of the desktop's language reach apps that
/// are already running: a process whose first language is one the desktop
/// had *before* (GNOME's session gives every app it starts the language the
/// desktop had at login, until the next login) sent the desktop's old
/// language, not one of its own (in any region of it), so the desktop's current languages count
/// first for it.
package final class DesktopLanguages: Sendable {
    private struct Desktop {
        var languages: [LocaleIdentifier] = []
        /// The first language of each earlier list, oldest first, without
        /// the current one's; at most `earlierKept`.
        var earlier: [LocaleIdentifier] = []
    }

    /// Enough for the languages a session goes through; older ones are
    /// forgotten, and a process that still sends one keeps it as its own.
    static let earlierKept = 8

    private let desktops = Mutex<[UInt32: Desktop]>([:])
    private let followed = Mutex<Set<UInt32>>([])
    private let startFollowing: @Sendable (UInt32) -> Void

    /// `follow` asks the watcher to follow a uid's desktop (the system's
    /// lprojd follows each uid that has clients); it must return at once.
    package init(follow: @escaping @Sendable (UInt32) -> Void = { _ in }) {
        self.startFollowing = follow
    }

    /// The desktop's languages of a uid, most preferred first.
    package func languages(of uid: UInt32) -> [LocaleIdentifier] {
        desktops.withLock { $0[uid]?.languages ?? [] }
    }

    /// The languages a selection is made from for a process of `uid` that
    /// sent `process`: its own first, then the desktop's; the desktop's
    /// first when the process's first is one the desktop had before.
    package func preferred(process: [LocaleIdentifier], uid: UInt32) -> [LocaleIdentifier] {
        desktops.withLock { desktops in
            guard let desktop = desktops[uid] else { return process }
            // By language and script: the session's LANG=fr_FR.UTF-8 may
            // reach the process as fr-FR or, through LANGUAGE, as fr.
            guard let first = process.first,
                desktop.earlier.contains(where: { $0.language == first.language && $0.effectiveScript == first.effectiveScript })
            else {
                return process + desktop.languages
            }
            return desktop.languages + process
        }
    }

    /// Asks for a uid's desktop to be followed, once.
    package func follow(uid: UInt32) {
        guard followed.withLock({ $0.insert(uid).inserted }) else { return }
        startFollowing(uid)
    }

    /// Sets a uid's desktop languages; returns whether they changed.
    @discardableResult
    package func set(_ new: [LocaleIdentifier], of uid: UInt32) -> Bool {
        desktops.withLock { desktops in
            var desktop = desktops[uid] ?? Desktop()
            guard desktop.languages != new else { return false }
            if let old = desktop.languages.first, !desktop.earlier.contains(where: { $0.matchKey == old.matchKey }) {
                desktop.earlier.append(old)
            }
            if let current = new.first { desktop.earlier.removeAll { $0.matchKey == current.matchKey } }
            desktop.earlier.removeFirst(max(0, desktop.earlier.count - Self.earlierKept))
            desktop.languages = new
            desktops[uid] = desktop
            return true
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
