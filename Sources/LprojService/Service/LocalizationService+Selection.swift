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
        let sent = try call.preferredLanguages.map { texts throws(ServiceError) in
            // A preferred language this system cannot parse is skipped, as an
            // app's language list may hold anything.
            try limited(texts, .preferredLanguages, maximum: limits.requests.maximumPreferredLanguages).compactMap {
                try? LocaleIdentifier($0)
            }
        }
        noteUse(of: client, bundle: bundle.name, by: caller, languages: sent)
        let key = ClientKey(uid: caller.uid, client: client)
        let saved = store.selection(for: key, bundle: bundle.name)
        if let saved, saved.origin == .selected {
            // The client's own choice; while the bundle lacks it, the
            // preferred languages answer, and nothing is saved.
            let choice = SelectionPolicy.current(
                in: bundle, saved: saved.locale, preferred: desktop.preferred(process: sent ?? [], uid: caller.uid))
            return .now(.init(selection: Self.selection(client: client, bundle: bundle.name, choice: choice, requested: nil)))
        }
        let languages = sent ?? processLanguages(of: key, bundle: bundle.name, saved: saved)
        let choice = SelectionPolicy.current(in: bundle, saved: nil, preferred: desktop.preferred(process: languages, uid: caller.uid))
        let reply = Localization.GetSelection.Reply(
            selection: Self.selection(client: client, bundle: bundle.name, choice: choice, requested: nil))
        let tags = sent.map { $0.map(\.tag) }
        guard needsSaving(choice, saved: saved, languages: tags) else { return .now(reply) }
        // A choice made from the preferred languages is an answer first; if
        // the uid's budget has no room to remember it, or the state cannot be
        // written now, it is answered unsaved.
        return follow(
            choice, key: key, bundle: bundle.name, previous: Self.inEffect(saved?.locale, in: bundle), languages: tags,
            reply: reply, saveIfRoom: true)
    }

    package func selectLocale(_ call: Localization.SelectLocale.Parameters, caller: Caller) throws(ServiceError) -> Answer<
        Localization.SelectLocale.Reply
    > {
        let client = try clientID(call.client)
        let bundle = try bundle(call.bundle)
        let requested = try locale(call.locale)
        try allowChange(by: caller)
        noteUse(of: client, bundle: bundle.name, by: caller)
        let key = ClientKey(uid: caller.uid, client: client)
        let previous = Self.inEffect(store.selection(for: key, bundle: bundle.name)?.locale, in: bundle)
        let choice = SelectionPolicy.select(requested, in: bundle)
        let selection = Self.selection(
            client: client, bundle: bundle.name, choice: choice,
            requested: choice.locale.matchKey == requested.matchKey ? nil : requested.tag)
        return committing { [store] in
            if choice.save {
                try await store.saveSelection(choice.locale.tag, for: key, bundle: bundle.name, origin: .selected)
            } else {
                try await store.removeSelection(for: key, bundle: bundle.name)
            }
            self.announceLocaleChange(key: key, bundle: bundle.name, locale: choice.locale.tag, previous: previous)
            return .init(selection: selection)
        }
    }

    /// Forgets the client's own choice: its preferred languages (the
    /// process's, then the desktop's) apply again, at once.
    package func resetSelection(_ call: Localization.ResetSelection.Parameters, caller: Caller) throws(ServiceError) -> Answer<
        Localization.ResetSelection.Reply
    > {
        let client = try clientID(call.client)
        let bundle = try bundle(call.bundle)
        try allowChange(by: caller)
        noteUse(of: client, bundle: bundle.name, by: caller)
        let key = ClientKey(uid: caller.uid, client: client)
        let saved = store.selection(for: key, bundle: bundle.name)
        let previous = Self.inEffect(saved?.locale, in: bundle)
        let languages = processLanguages(of: key, bundle: bundle.name, saved: saved)
        let choice = SelectionPolicy.current(in: bundle, saved: nil, preferred: desktop.preferred(process: languages, uid: caller.uid))
        let reply = Localization.ResetSelection.Reply(
            selection: Self.selection(client: client, bundle: bundle.name, choice: choice, requested: nil))
        return committing { [store] in
            if choice.reason == .preferred {
                try await store.saveSelection(
                    choice.locale.tag, for: key, bundle: bundle.name, origin: .preferred, replacingChoice: true)
            } else {
                try await store.removeSelection(for: key, bundle: bundle.name)
            }
            self.announceLocaleChange(key: key, bundle: bundle.name, locale: choice.locale.tag, previous: previous)
            return reply
        }
    }

    /// The preferred languages a client's process last sent: kept with its
    /// saved locale, else in the record of recent use; none if it never
    /// sent any.
    func processLanguages(of key: ClientKey, bundle: String, saved: SavedSelection?) -> [LocaleIdentifier] {
        if let tags = saved?.languages { return tags.compactMap { try? LocaleIdentifier($0) } }
        return recent.entry(uid: key.uid, client: key.client, bundle: bundle)?.languages ?? []
    }

    /// Whether a client that follows its preferred languages must have its
    /// saved locale written: a match it has not saved, or new languages;
    /// or no match where one is saved.
    func needsSaving(_ choice: SelectionPolicy.Choice, saved: SavedSelection?, languages: [String]?) -> Bool {
        guard choice.reason == .preferred else { return saved != nil }
        guard let saved else { return true }
        return saved.locale != choice.locale.tag || (languages != nil && languages != saved.languages)
    }

    /// Saves (or forgets) the locale a client's preferred languages give,
    /// unless the client chose one meanwhile; then tells subscribers and
    /// replies.
    func follow<Reply: Sendable>(
        _ choice: SelectionPolicy.Choice, key: ClientKey, bundle: String, previous: String, languages: [String]?, reply: Reply,
        saveIfRoom: Bool = false
    ) -> Answer<Reply> {
        committing { [store] in
            if choice.reason == .preferred {
                do {
                    guard
                        try await store.saveSelection(choice.locale.tag, for: key, bundle: bundle, origin: .preferred, languages: languages)
                    else { return reply }
                } catch  where saveIfRoom && error is ClientStoreError {
                    return reply
                }
            } else {
                try await store.removeSelection(for: key, bundle: bundle, origin: .preferred)
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
