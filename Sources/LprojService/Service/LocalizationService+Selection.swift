internal import LprojEngine
package import LprojInterface
internal import LprojLocales
internal import LprojStore

extension LocalizationService {
    package func getSelection(_ call: Localization.GetSelection.Parameters, caller: Caller) throws(ServiceError) -> Answer<
        Localization.GetSelection.Reply
    > {
        let client = try clientID(call.client)
        let bundle = try bundle(call.bundle)
        var preferred: [LocaleIdentifier] = []
        for text in try limited(call.preferredLanguages ?? [], .preferredLanguages, maximum: limits.maximumPreferredLanguages) {
            // A preferred language this system cannot parse is skipped, as an
            // app's language list may hold anything.
            if let locale = try? LocaleIdentifier(text) { preferred.append(locale) }
        }
        let key = ClientKey(uid: caller.uid, client: client)
        let saved = store.selection(for: key, bundle: bundle.name)
        let choice = SelectionPolicy.current(in: bundle, saved: saved?.locale, preferred: preferred)
        let reply = Localization.GetSelection.Reply(
            selection: Self.selection(client: client, bundle: bundle.name, choice: choice, requested: nil))
        guard choice.save || choice.forgetSaved else { return .now(reply) }
        let previous = Self.inEffect(saved?.locale, in: bundle)
        // A choice made from the preferred languages is an answer first; if
        // the uid's budget has no room to remember it, or the state cannot be
        // written now, it is answered unsaved.
        return commit(choice, key: key, bundle: bundle.name, previous: previous, reply: reply, saveIfRoom: choice.reason == .preferred)
    }

    package func selectLocale(_ call: Localization.SelectLocale.Parameters, caller: Caller) throws(ServiceError) -> Answer<
        Localization.SelectLocale.Reply
    > {
        let client = try clientID(call.client)
        let bundle = try bundle(call.bundle)
        let requested = try locale(call.locale)
        try allowChange(by: caller)
        let key = ClientKey(uid: caller.uid, client: client)
        let previous = Self.inEffect(store.selection(for: key, bundle: bundle.name)?.locale, in: bundle)
        let choice = SelectionPolicy.select(requested, in: bundle)
        let selection = Self.selection(
            client: client, bundle: bundle.name, choice: choice,
            requested: choice.locale.matchKey == requested.matchKey ? nil : requested.tag)
        return commit(choice, key: key, bundle: bundle.name, previous: previous, reply: .init(selection: selection))
    }

    package func resetSelection(_ call: Localization.ResetSelection.Parameters, caller: Caller) throws(ServiceError) -> Answer<
        Localization.ResetSelection.Reply
    > {
        let client = try clientID(call.client)
        let bundle = try bundle(call.bundle)
        try allowChange(by: caller)
        let key = ClientKey(uid: caller.uid, client: client)
        let previous = Self.inEffect(store.selection(for: key, bundle: bundle.name)?.locale, in: bundle)
        let choice = SelectionPolicy.current(in: bundle, saved: nil, preferred: [])
        let reply = Localization.ResetSelection.Reply(
            selection: Self.selection(client: client, bundle: bundle.name, choice: choice, requested: nil))
        return committing { [store] in
            try await store.removeSelection(for: key, bundle: bundle.name)
            self.announceLocaleChange(key: key, bundle: bundle.name, locale: choice.locale.tag, previous: previous)
            return reply
        }
    }

    /// Saves (or forgets) a choice, then tells subscribers and replies.
    private func commit<Reply: Sendable>(
        _ choice: SelectionPolicy.Choice, key: ClientKey, bundle: String, previous: String, reply: Reply, saveIfRoom: Bool = false
    ) -> Answer<Reply> {
        committing { [store] in
            if choice.save {
                do {
                    try await store.saveSelection(choice.locale.tag, for: key, bundle: bundle)
                } catch  where saveIfRoom && error is ClientStoreError {
                    return reply
                }
            } else {
                try await store.removeSelection(for: key, bundle: bundle)
            }
            self.announceLocaleChange(key: key, bundle: bundle, locale: choice.locale.tag, previous: previous)
            return reply
        }
    }

    /// The locale a saved selection puts in effect: itself while the bundle
    /// has it, else the development locale (what events call "previous").
    static func inEffect(_ saved: String?, in bundle: LoadedBundle) -> String {
        SelectionPolicy.current(in: bundle, saved: saved, preferred: []).locale.tag
    }

    static func selection(client: String, bundle: String, choice: SelectionPolicy.Choice, requested: String?) -> Localization.Selection {
        let reason: Localization.Selection.Reason =
            switch choice.reason {
            case .saved: .saved
            case .preferred: .preferred
            case .default: .default
            }
        return .init(client: client, bundle: bundle, locale: choice.locale.tag, reason: reason, requested: requested)
    }

    /// Tells the client's user's subscribers, if the locale really changed.
    func announceLocaleChange(key: ClientKey, bundle: String, locale: String, previous: String) {
        guard locale != previous else { return }
        events.publish(.localeChanged(owner: key, bundle: bundle, locale: locale, previous: previous))
        log(
            .info, "\(key.client) now uses \(locale) (was \(previous))", uid: key.uid,
            metadata: ["bundle.name": "\(bundle)", "client.id": "\(key.client)"])
    }
}
