internal import LprojEngine
internal import LprojLocales
internal import LprojStore
internal import VarlinkProtocol

extension LocalizationInterface {
    func getSelection(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.getSelection)
        let client = try requiredClient(parameters)
        let bundle = try bundle(parameters.string("bundle"))
        var preferred: [LocaleIdentifier] = []
        let preferredTexts = try limited(parameters.optionalStrings("preferredLanguages") ?? [], "preferredLanguages", maximum: limits.maximumPreferredLanguages)
        for text in preferredTexts {
            // A preferred language this system cannot parse is skipped, as an
            // app's language list may hold anything.
            if let locale = try? LocaleIdentifier(text) { preferred.append(locale) }
        }
        let key = ClientKey(uid: caller.uid, client: client)
        let saved = store.selection(for: key, bundle: bundle.name)
        let choice = SelectionPolicy.current(in: bundle, saved: saved?.locale, preferred: preferred)
        let reply = selectionReply(client: client, bundle: bundle.name, choice: choice, requested: nil)
        guard choice.save || choice.forgetSaved else { return .reply(reply) }
        let previous = saved?.locale ?? bundle.configuration.developmentLocale.tag
        // A choice made from the preferred languages is an answer first; if
        // the uid's budget has no room to remember it, or the state cannot be
        // written now, it is answered unsaved.
        return commit(choice, key: key, bundle: bundle.name, previous: previous, reply: reply, saveIfRoom: choice.reason == .preferred)
    }

    func selectLocale(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.selectLocale)
        let client = try requiredClient(parameters)
        let bundle = try bundle(parameters.string("bundle"))
        let requestedText = try parameters.string("locale")
        let requested = try locale(requestedText)
        let key = ClientKey(uid: caller.uid, client: client)
        let previous = store.selection(for: key, bundle: bundle.name)?.locale ?? bundle.configuration.developmentLocale.tag
        let choice = SelectionPolicy.select(requested, in: bundle)
        let reply = selectionReply(client: client, bundle: bundle.name, choice: choice, requested: choice.locale.matchKey == requested.matchKey ? nil : requested.tag)
        return commit(choice, key: key, bundle: bundle.name, previous: previous, reply: reply)
    }

    /// Saves (or forgets) a choice, then tells subscribers and replies.
    private func commit(_ choice: SelectionPolicy.Choice, key: ClientKey, bundle: String, previous: String, reply: JSONObject, saveIfRoom: Bool = false) -> VarlinkOutcome {
        committing { [store] in
            if choice.save {
                do {
                    try await store.saveSelection(choice.locale.tag, for: key, bundle: bundle)
                } catch where saveIfRoom && (error is ClientStore.OverBudget || error is ClientStore.Unavailable) {
                    return .reply(reply)
                }
            } else {
                try await store.removeSelection(for: key, bundle: bundle)
            }
            self.announceLocaleChange(key: key, bundle: bundle, locale: choice.locale.tag, previous: previous)
            return .reply(reply)
        }
    }

    func resetSelection(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.resetSelection)
        let client = try requiredClient(parameters)
        let bundle = try bundle(parameters.string("bundle"))
        let key = ClientKey(uid: caller.uid, client: client)
        let previous = store.selection(for: key, bundle: bundle.name)?.locale ?? bundle.configuration.developmentLocale.tag
        let choice = SelectionPolicy.current(in: bundle, saved: nil, preferred: [])
        let reply = selectionReply(client: client, bundle: bundle.name, choice: choice, requested: nil)
        return committing { [store] in
            try await store.removeSelection(for: key, bundle: bundle.name)
            self.announceLocaleChange(key: key, bundle: bundle.name, locale: choice.locale.tag, previous: previous)
            return .reply(reply)
        }
    }

    private func requiredClient(_ parameters: Parameters) throws(VarlinkError) -> String {
        guard let client = try clientID(parameters.string("client")) else { throw .invalidParameter("client") }
        return client
    }

    private func selectionReply(client: String, bundle: String, choice: SelectionPolicy.Choice, requested: String?) -> JSONObject {
        var selection: JSONObject = [
            "client": .string(client), "bundle": .string(bundle), "locale": .string(choice.locale.tag), "reason": .string(choice.reason.rawValue),
        ]
        if let requested { selection["requested"] = .string(requested) }
        return ["selection": .object(selection)]
    }

    /// Tells the client's user's subscribers, if the locale really changed.
    func announceLocaleChange(key: ClientKey, bundle: String, locale: String, previous: String) {
        guard locale != previous else { return }
        hub.publish(.localeChanged(owner: key, bundle: bundle, locale: locale, previous: previous))
        log(.info, "\(key.client) now uses \(locale) (was \(previous))", uid: key.uid, metadata: ["bundle.name": "\(bundle)", "client.id": "\(key.client)"])
    }
}
