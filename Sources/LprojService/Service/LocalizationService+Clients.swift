internal import LprojEngine
internal import LprojFormatting
internal import LprojLocales
internal import LprojStore
internal import VarlinkProtocol

extension LocalizationInterface {
    func addStrings(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.addStrings)
        guard let client = try clientID(parameters.string("client")) else { throw .invalidParameter("client") }
        let bundle = try bundle(parameters.string("bundle"))
        let table = try tableName(parameters.optionalString("table"))
        let localeText = try parameters.string("locale")
        let resolved: ResolvedLocale
        do {
            resolved = try resolve(localeText, in: bundle, for: caller.uid)
        } catch {
            if case .invalidLocale(let reason) = error { throw LocalizationErrors.invalidLocale(localeText, reason) }
            throw .invalidParameter("locale")
        }
        guard let strings = try parameters.optionalStringMap("strings") else { throw .invalidParameter("strings") }
        // The separators a formatter puts between digits are short.
        for key in ["LM_decimal_separator", "LM_grouping_separator"] {
            if let separator = strings[key], separator.utf8.count > LocaleFormatter.maximumSeparatorLength {
                throw LocalizationErrors.invalidValue("strings.\(key)", "a separator is at most \(LocaleFormatter.maximumSeparatorLength) bytes")
            }
        }
        let count: Int
        do {
            count = try added.add(strings, uid: caller.uid, client: client, bundle: bundle.name, table: table, locale: resolved.locale.matchKey)
        } catch {
            switch error {
            case .tooMany(let maximum): throw LocalizationErrors.limitExceeded("addedStrings", maximum: maximum)
            case .tooLong(let maximum): throw LocalizationErrors.limitExceeded("addedStringLength", maximum: maximum)
            case .tooManyClients(let maximum): throw LocalizationErrors.limitExceeded("clientsWithAddedStrings", maximum: maximum)
            case .overBudget(let refusal): throw LocalizationErrors.limitExceeded(refusal)
            }
        }
        hub.publish(.addedStringsChanged(owner: ClientKey(uid: caller.uid, client: client), bundle: bundle.name, tables: [table], locales: [resolved.locale.tag]))
        return .reply(["count": .int(count)])
    }

    func removeAddedStrings(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.removeAddedStrings)
        guard let client = try clientID(parameters.string("client")) else { throw .invalidParameter("client") }
        let bundle = try bundle(parameters.string("bundle"))
        let table = try parameters.optionalString("table").map { text throws(VarlinkError) in try tableName(text) }
        let locale = try parameters.optionalString("locale").map { text throws(VarlinkError) in try self.locale(text) }
        let removed = added.remove(uid: caller.uid, client: client, bundle: bundle.name, table: table, locale: locale?.matchKey)
        if removed > 0 {
            hub.publish(.addedStringsChanged(
                owner: ClientKey(uid: caller.uid, client: client), bundle: bundle.name, tables: table.map { [$0] }, locales: locale.map { [$0.tag] }))
        }
        return .reply(["removed": .int(removed)])
    }

    func subscribe(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.subscribe)
        let client = try clientID(parameters.optionalString("client"))
        let bundleName = try parameters.optionalString("bundle")
        if let bundleName { _ = try bundle(bundleName) }
        let hub = self.hub, catalog = self.catalog
        return .stream { stream in
            hub.add(stream, uid: caller.uid, client: client, bundle: bundleName)
            stream.yield(ServiceEvent.ready(generation: catalog.snapshot.generation, client: client, bundle: bundleName).parameters)
        }
    }
}
