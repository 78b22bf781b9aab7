internal import Foundation
internal import LprojEngine
internal import LprojFormatting
package import LprojInterface
package import LprojLocales
internal import LprojStore

extension LocalizationService {
    /// The caller's own apps: its saved selections and preferences and its
    /// recent pairs (``RecentClients``), by client, each bundle with the
    /// locale in effect and why; and those bundles' locales with their
    /// names. Nothing of another uid is read: the store and the record are
    /// read by the caller's uid only.
    package func listClients(_ call: Localization.ListClients.Parameters, caller: Caller) throws(ServiceError) -> Answer<
        Localization.ListClients.Reply
    > {
        let display = try call.locale.map { text throws(ServiceError) in try locale(text) }
        // A uid's rows are as many as its saved-state budget holds (a few
        // thousand), and each bundle's locales are named by ICU: all later,
        // off the event loop.
        return .later { self.clients(of: caller.uid, display: display) }
    }

    /// What ``listClients(_:caller:)`` answers, built on a worker.
    func clients(of uid: UInt32, display: LocaleIdentifier?) -> Localization.ListClients.Reply {
        let snapshot = served.snapshot
        struct Pair: Hashable {
            let client: String
            let bundle: String
        }
        var saved: [Pair: SavedSelection] = [:]
        for selection in store.selections(uid: uid) { saved[Pair(client: selection.client, bundle: selection.bundle)] = selection }
        let withPreferences = Set(store.preferenceKeys(uid: uid).map { Pair(client: $0.client, bundle: $0.bundle) })
        var lastUsed: [Pair: Double] = [:]
        for entry in recent.entries(uid: uid) { lastUsed[Pair(client: entry.client, bundle: entry.bundle)] = entry.lastUsed }
        let pairs = Set(saved.keys).union(withPreferences).union(lastUsed.keys).filter { snapshot.bundles[$0.bundle] != nil }
        var clients: [String: [Localization.ClientBundle]] = [:]
        for pair in pairs {
            guard let bundle = snapshot.bundles[pair.bundle] else { continue }
            let selection = saved[pair]
            let choice = SelectionPolicy.current(in: bundle, saved: selection?.locale, preferred: [])
            let reason: Localization.ClientBundle.Reason =
                switch (choice.reason, selection?.origin) {
                case (.saved, .selected?): .selected
                case (.saved, _): .preferred
                case (.preferred, _), (.default, _): .default
                }
            clients[pair.client, default: []].append(
                .init(
                    bundle: pair.bundle, locale: choice.locale.tag, reason: reason,
                    selectedLocale: selection?.origin == .selected && choice.reason != .saved ? selection?.locale : nil,
                    hasPreferences: withPreferences.contains(pair), lastUsed: lastUsed[pair].map { .init($0, fractionDigits: 3) }))
        }
        let listed = clients.keys.sorted().map { client in
            Localization.Client(client: client, bundles: (clients[client] ?? []).sorted { $0.bundle < $1.bundle })
        }
        let desktopLanguage = desktop.languages(of: uid).first
        let bundles = Set(pairs.map(\.bundle)).sorted().compactMap { snapshot.bundles[$0] }.map { bundle in
            let shown = display ?? desktopLanguage ?? bundle.configuration.developmentLocale
            let formatter = LocaleFormatter(locale: shown)
            return Localization.ClientBundleLocales(
                bundle: bundle.name, developmentLocale: bundle.configuration.developmentLocale.tag, displayLocale: shown.tag,
                locales: bundle.supportedLocales.map { locale in
                    Localization.LocaleName(
                        locale: locale.tag, name: formatter.name(of: locale), nativeName: LocaleFormatter.nativeName(of: locale),
                        bundleName: nil)
                })
        }
        return .init(clients: listed, bundles: bundles)
    }

    /// A uid's desktop languages changed (or were read for the first time):
    /// every client of that uid whose locale follows its preferred languages
    /// gets the best match for its process's languages, then the desktop's,
    /// saved in one commit and announced (`localeChanged`) at once. A
    /// client's own choice stays. Returns once that is done.
    package func desktopLanguagesChanged(uid: UInt32, to languages: [LocaleIdentifier]) async {
        guard desktop.set(languages, of: uid) else { return }
        // A user may flip its languages as often as it likes: its lines are limited.
        let (allowed, suppressed) = logLimit.allow(uid)
        if allowed {
            logger.info(
                "the desktop's languages of uid \(uid) are now \(languages.isEmpty ? "unset" : languages.map(\.tag).joined(separator: ", "))",
                metadata: suppressed > 0 ? ["suppressed": "\(suppressed)"] : [:])
        }
        let snapshot = served.snapshot
        struct Pair: Hashable {
            let client: String
            let bundle: String
        }
        var candidates: [Pair: SavedSelection?] = [:]
        for selection in store.selections(uid: uid) { candidates[Pair(client: selection.client, bundle: selection.bundle)] = selection }
        for entry in recent.entries(uid: uid) where candidates[Pair(client: entry.client, bundle: entry.bundle)] == nil {
            candidates[Pair(client: entry.client, bundle: entry.bundle)] = .some(nil)
        }
        var changes: [ClientStore.PreferredLocale] = []
        var previous: [String: String] = [:]
        for (pair, saved) in candidates.sorted(by: { ($0.key.client, $0.key.bundle) < ($1.key.client, $1.key.bundle) }) {
            guard let bundle = snapshot.bundles[pair.bundle], saved?.origin != .selected else { continue }
            let key = ClientKey(uid: uid, client: pair.client)
            let process = processLanguages(of: key, bundle: pair.bundle, saved: saved)
            let choice = SelectionPolicy.current(in: bundle, saved: nil, preferred: desktop.preferred(process: process, uid: uid))
            let before = Self.inEffect(saved?.locale, in: bundle)
            // Nothing anyone sees changes for a client with nothing saved
            // that keeps its locale.
            guard needsSaving(choice, saved: saved, languages: nil), saved != nil || choice.locale.tag != before else { continue }
            changes.append(
                .init(
                    key: key, bundle: pair.bundle, locale: choice.reason == .preferred ? choice.locale.tag : nil,
                    languages: saved?.languages == nil && !process.isEmpty ? process.map(\.tag) : nil))
            previous["\(pair.client)\u{0}\(pair.bundle)"] = before
        }
        guard !changes.isEmpty else { return }
        let made: [ClientStore.PreferredLocale]
        do {
            made = try await store.followPreferredLanguages(changes)
        } catch {
            if logLimit.allow(uid).allowed { logger.error("cannot save the locales the desktop's languages of uid \(uid) give: \(error)") }
            return
        }
        for change in made {
            guard let bundle = snapshot.bundles[change.bundle] else { continue }
            announceLocaleChange(
                key: change.key, bundle: change.bundle, locale: change.locale ?? bundle.configuration.developmentLocale.tag,
                previous: previous["\(change.key.client)\u{0}\(change.bundle)"] ?? bundle.configuration.developmentLocale.tag)
        }
    }
}
