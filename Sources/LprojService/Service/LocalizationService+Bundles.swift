internal import ClientBudget
internal import Foundation
internal import LprojEngine
package import LprojInterface
internal import LprojLocales
internal import LprojTables
internal import LprojVersion

extension LocalizationService {
    package func listBundles(_ call: Localization.ListBundles.Parameters) -> Localization.ListBundles.Reply {
        let snapshot = served.snapshot
        return .init(
            bundles: snapshot.names.compactMap { name in
                snapshot.bundles[name].map { Self.bundle($0, generation: snapshot.bundleGenerations[name] ?? snapshot.generation) }
            })
    }

    static func bundle(_ bundle: LoadedBundle, generation: Int) -> Localization.Bundle {
        .init(
            name: bundle.name, directory: bundle.configuration.directory, developmentLocale: bundle.configuration.developmentLocale.tag,
            supportedLocales: bundle.supportedLocales.map(\.tag), tables: bundle.tableNames, hasBase: bundle.hasBase,
            generation: generation, entries: bundle.entryCount, problems: bundle.problems.isEmpty ? nil : bundle.problems.map(\.message))
    }

    package func negotiate(_ call: Localization.Negotiate.Parameters) throws(ServiceError) -> Answer<Localization.Negotiate.Reply> {
        let values = try call.values.map { map throws(ServiceError) in
            guard map.count <= limits.requests.maximumLocales else {
                throw .limitExceeded(.locales, maximum: limits.requests.maximumLocales)
            }
            for value in map.values { _ = try limited(value, .valueLength, maximum: limits.requests.maximumValueLength) }
            return map
        }
        let availableTexts = try limited(
            call.available ?? values.map { Array($0.keys).sorted() } ?? [], .locales, maximum: limits.requests.maximumLocales)
        let preferredTexts = try limited(
            call.preferredLanguages ?? [], .preferredLanguages, maximum: limits.requests.maximumPreferredLanguages)
        let specificity: LocaleNegotiation.Specificity =
            switch call.specificity {
            case .exact: .exact
            case .language: .language
            case .any, nil: .any
            }
        let defaultValue = try call.defaultValue.map { text throws(ServiceError) in
            try limited(text, .valueLength, maximum: limits.requests.maximumValueLength)
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
        let decide: @Sendable () -> Localization.Negotiate.Reply = { [available, preferred, textOf] in
            guard let match = LocaleNegotiation.negotiate(available: available, preferred: preferred, specificity: specificity) else {
                return .init(value: defaultValue, match: defaultValue == nil ? .none : .default)
            }
            let text = textOf[match.locale] ?? match.locale.tag
            let kind: Localization.Negotiate.Reply.Match =
                switch match.kind {
                case .exact: .exact
                case .language: .language
                }
            return .init(locale: text, value: values?[text], match: kind)
        }
        // Matching costs ICU a lookup per distinct locale: a long list is
        // matched later, off the event loop.
        return available.count + preferred.count > 64 ? .later { decide() } : .now(decide())
    }

    package func reload(_ call: Localization.Reload.Parameters, caller: Caller) throws(ServiceError) -> Answer<Localization.Reload.Reply> {
        guard caller.uid == 0 || caller.uid == daemonUID else { throw .permissionDenied("Reload") }
        if let only = call.bundle { _ = try bundle(only) }
        logger.info("reload asked for by uid \(caller.uid)", metadata: ["bundle.name": "\(call.bundle ?? "*")"])
        return .later { [served, watcher] in
            let bundles = await watcher.reload(bundle: call.bundle)
            let snapshot = served.snapshot
            return .init(bundles: bundles.map { Self.bundle($0, generation: snapshot.bundleGenerations[$0.name] ?? snapshot.generation) })
        }
    }

    package func getStatus(_ call: Localization.GetStatus.Parameters, caller: Caller) -> Localization.GetStatus.Reply {
        let snapshot = served.snapshot
        var errors: [Localization.FileError] = []
        for name in snapshot.names {
            guard let bundle = snapshot.bundles[name] else { continue }
            for problem in bundle.problems { errors.append(Self.fileError(bundle: name, file: "", problem)) }
            for report in bundle.fileReports {
                for diagnostic in report.errors { errors.append(Self.fileError(bundle: name, file: report.path, diagnostic)) }
            }
        }
        // Everyone's counts and usage for root and lprojd's own user; one's
        // own otherwise: how many connections, subscriptions and choices
        // others have is theirs.
        let everyone = caller.uid == 0 || caller.uid == daemonUID
        let usage = everyone ? budget.usageByUID : [caller.uid: budget.usage(of: caller.uid)]
        return .init(
            version: LprojVersion.current, generation: snapshot.generation, bundles: snapshot.bundles.count, tables: snapshot.tableCount,
            entries: snapshot.entryCount, connections: connectionCount(everyone ? nil : caller.uid),
            subscribers: everyone ? events.subscriberCount : events.subscriberCount(uid: caller.uid),
            selections: everyone ? store.selectionCount : store.selectionCount(uid: caller.uid),
            uptime: .init(Date().timeIntervalSince(startTime)), errors: errors, state: store.unavailableReason,
            usage: usage.keys.sorted().map { uid in
                let held = usage[uid] ?? BudgetUsage()
                return .init(
                    uid: Int(uid), connections: held[.connections], input: held[.input], output: held[.output],
                    addedStrings: held[.addedStrings], savedState: held[.savedState], caches: held[.caches])
            })
    }

    static func fileError(bundle: String, file: String, _ diagnostic: Diagnostic) -> Localization.FileError {
        .init(bundle: bundle, file: file, line: diagnostic.location?.line, column: diagnostic.location?.column, message: diagnostic.message)
    }
}
