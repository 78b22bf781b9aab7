internal import ClientBudget
internal import Foundation
internal import LprojEngine
internal import LprojLocales
internal import LprojTables
internal import VarlinkProtocol

extension LocalizationInterface {
    func listBundles(_ raw: JSONObject) throws(VarlinkError) -> VarlinkOutcome {
        _ = try Parameters(raw, allowed: ParameterNames.listBundles)
        let snapshot = catalog.snapshot
        return .reply(["bundles": .array(snapshot.names.map { Self.bundleObject(snapshot.bundles[$0]!, generation: snapshot.bundleGenerations[$0] ?? snapshot.generation) })])
    }

    static func bundleObject(_ bundle: LoadedBundle, generation: Int) -> JSONValue {
        .object([
            "name": .string(bundle.name),
            "directory": .string(bundle.configuration.directory),
            "developmentLocale": .string(bundle.configuration.developmentLocale.tag),
            "supportedLocales": .array(bundle.supportedLocales.map { .string($0.tag) }),
            "tables": .array(bundle.tableNames.map(JSONValue.string)),
            "hasBase": .bool(bundle.hasBase),
            "generation": .int(generation),
            "entries": .int(bundle.entryCount),
        ])
    }

    func negotiate(_ raw: JSONObject) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.negotiate)
        let values = try parameters.optionalStringMap("values").map { map throws(VarlinkError) in
            guard map.count <= limits.maximumLocales else { throw LocalizationErrors.limitExceeded("locales", maximum: limits.maximumLocales) }
            for value in map.values { _ = try limited(value, "valueLength", maximum: limits.maximumValueLength) }
            return map
        }
        let availableTexts = try limited(
            parameters.optionalStrings("available") ?? values.map { Array($0.keys).sorted() } ?? [], "locales", maximum: limits.maximumLocales)
        let preferredTexts = try limited(parameters.optionalStrings("preferredLanguages") ?? [], "preferredLanguages", maximum: limits.maximumPreferredLanguages)
        let specificity: LocaleNegotiation.Specificity
        if let text = try parameters.optionalString("specificity") {
            guard let given = LocaleNegotiation.Specificity(rawValue: text) else { throw .invalidParameter("specificity") }
            specificity = given
        } else {
            specificity = .any
        }
        let defaultValue = try parameters.optionalString("defaultValue").map { text throws(VarlinkError) in
            try limited(text, "valueLength", maximum: limits.maximumValueLength)
        }
        var available: [LocaleIdentifier] = []
        var textOf: [LocaleIdentifier: String] = [:]
        for text in availableTexts {
            let identifier = try locale(text)
            available.append(identifier)
            if textOf[identifier] == nil { textOf[identifier] = text }
        }
        var preferred: [LocaleIdentifier] = []
        for text in preferredTexts { preferred.append(try locale(text)) }
        let decide: @Sendable () -> VarlinkOutcome = { [available, preferred, textOf] in
            if let match = LocaleNegotiation.negotiate(available: available, preferred: preferred, specificity: specificity) {
                let text = textOf[match.locale] ?? match.locale.tag
                var reply: JSONObject = ["locale": .string(text), "match": .string(match.kind.rawValue)]
                if let value = values?[text] { reply["value"] = .string(value) }
                return .reply(reply)
            }
            var reply: JSONObject = ["match": .string(defaultValue == nil ? "none" : "default")]
            if let defaultValue { reply["value"] = .string(defaultValue) }
            return .reply(reply)
        }
        // Matching costs ICU a lookup per distinct locale: a long list is
        // matched off the event loop.
        return available.count + preferred.count > 64 ? .deferred { decide() } : decide()
    }

    func reload(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.reload)
        guard caller.uid == 0 || caller.uid == daemonUID else { throw LocalizationErrors.permissionDenied("Reload") }
        let only = try parameters.optionalString("bundle")
        if let only { _ = try bundle(only) }
        guard let watcher else { throw .methodNotImplemented("org.lprojd.Localization.Reload") }
        logger.info("reload asked for by uid \(caller.uid)", metadata: ["bundle.name": "\(only ?? "*")"])
        return .deferred { [catalog] in
            let bundles = await watcher.reload(bundle: only)
            let snapshot = catalog.snapshot
            return .reply(["bundles": .array(bundles.map { Self.bundleObject($0, generation: snapshot.bundleGenerations[$0.name] ?? snapshot.generation) })])
        }
    }

    func status(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        _ = try Parameters(raw, allowed: ParameterNames.status)
        let snapshot = catalog.snapshot
        var errors: [JSONValue] = []
        for name in snapshot.names {
            let bundle = snapshot.bundles[name]!
            for problem in bundle.problems {
                errors.append(Self.fileError(bundle: name, file: "", problem))
            }
            for report in bundle.fileReports {
                for diagnostic in report.errors { errors.append(Self.fileError(bundle: name, file: report.path, diagnostic)) }
            }
        }
        // Everyone's usage for root and lprojd's own user; one's own otherwise.
        let everyone = caller.uid == 0 || caller.uid == daemonUID
        let usage = everyone ? budget.usageByUID : [caller.uid: budget.usage(of: caller.uid)]
        var reply: JSONObject = [
            "version": .string(Self.version),
            "generation": .int(snapshot.generation),
            "bundles": .int(snapshot.bundles.count),
            "tables": .int(snapshot.tableCount),
            "entries": .int(snapshot.entryCount),
            "connections": .int(connectionCount()),
            "subscribers": .int(hub.count),
            "selections": .int(store.selectionCount),
            "uptime": .number(JSONNumber(Date().timeIntervalSince(startTime))),
            "errors": .array(errors),
        ]
        if let problem = store.unavailableReason { reply["state"] = .string(problem) }
        reply["usage"] = .array(usage.keys.sorted().map { uid in
            let held = usage[uid] ?? BudgetUsage()
            return .object([
                "uid": .int(Int(uid)), "connections": .int(held[.connections]), "input": .int(held[.input]), "output": .int(held[.output]),
                "addedStrings": .int(held[.addedStrings]), "savedState": .int(held[.savedState]), "caches": .int(held[.caches]),
            ])
        })
        return .reply(reply)
    }

    static func fileError(bundle: String, file: String, _ diagnostic: Diagnostic) -> JSONValue {
        var object: JSONObject = ["bundle": .string(bundle), "file": .string(file), "message": .string(diagnostic.message)]
        if let location = diagnostic.location {
            object["line"] = .int(location.line)
            object["column"] = .int(location.column)
        }
        return .object(object)
    }
}
