internal import LprojEngine
internal import LprojFormatting
package import LprojInterface
internal import LprojLocales
internal import LprojStore

extension LocalizationService {
    package func addStrings(_ call: Localization.AddStrings.Parameters, caller: Caller) throws(ServiceError)
        -> Localization.AddStrings.Reply
    {
        let client = try clientID(call.client)
        let bundle = try bundle(call.bundle)
        let table = try tableName(call.table)
        let resolved = try resolveNamed(call.locale, in: bundle, for: caller)
        // The separators a formatter puts between digits are short.
        for key in ["LM_decimal_separator", "LM_grouping_separator"] {
            if let separator = call.strings[key], separator.utf8.count > LocaleFormatter.maximumSeparatorLength {
                throw .invalidValue("strings.\(key)", "a separator is at most \(LocaleFormatter.maximumSeparatorLength) bytes")
            }
        }
        try allowChange(by: caller)
        let count: Int
        do {
            count = try added.add(call.strings, uid: caller.uid, client: client, bundle: bundle.name, table: table, locale: resolved.locale)
        } catch {
            switch error {
            case .tooMany(let maximum): throw .limitExceeded(.addedStrings, maximum: maximum)
            case .tooLong(let maximum): throw .limitExceeded(.addedStringLength, maximum: maximum)
            case .tooManyClients(let maximum): throw .limitExceeded(.clientsWithAddedStrings, maximum: maximum)
            case .overBudget(let refusal): throw .limitExceeded(refusal)
            }
        }
        events.publish(
            .addedStringsChanged(
                owner: ClientKey(uid: caller.uid, client: client), bundle: bundle.name, tables: [table], locales: [resolved.locale.tag]))
        return .init(count: count)
    }

    package func removeAddedStrings(_ call: Localization.RemoveAddedStrings.Parameters, caller: Caller) throws(ServiceError)
        -> Localization.RemoveAddedStrings.Reply
    {
        let client = try clientID(call.client)
        let bundle = try bundle(call.bundle)
        let table = try call.table.map { text throws(ServiceError) in try tableName(text) }
        let locale = try call.locale.map { text throws(ServiceError) in try self.locale(text) }
        try allowChange(by: caller)
        let removed = added.remove(uid: caller.uid, client: client, bundle: bundle.name, table: table, locale: locale?.matchKey)
        if removed > 0 {
            events.publish(
                .addedStringsChanged(
                    owner: ClientKey(uid: caller.uid, client: client), bundle: bundle.name, tables: table.map { [$0] },
                    locales: locale.map { [$0.tag] }))
        }
        return .init(removed: removed)
    }

    /// What a subscription receives: the events of its filter, after `ready`.
    package struct Subscription: Sendable {
        package let uid: UInt32
        package let client: String?
        package let bundle: String?
        /// The first reply.
        package let ready: ServiceEvent
    }

    /// Checks a subscription's filter; the events come from the ``EventSink``.
    package func subscribe(_ call: Localization.Subscribe.Parameters, caller: Caller) throws(ServiceError) -> Subscription {
        let client = try clientID(call.client)
        if let bundle = call.bundle {
            _ = try self.bundle(bundle)
            noteUse(of: client, bundle: bundle, by: caller)
        }
        return Subscription(
            uid: caller.uid, client: client, bundle: call.bundle,
            ready: .ready(generation: served.snapshot.generation, client: client, bundle: call.bundle))
    }
}
