public import ClientBudget
internal import Foundation
public import Logging
internal import LprojEngine
internal import LprojFormat
internal import LprojLocales
public import LprojStore
public import VarlinkProtocol

/// `org.lprojd.Localization`: the methods lprojd serves.
///
/// Lookups, tables and listings are answered on the caller's event loop from
/// the catalog's current snapshot; only what writes the store (selections)
/// or reloads files is deferred, and its reply comes once that is done.
public final class LocalizationInterface: VarlinkInterface {
    public let name = "org.lprojd.Localization"
    /// The interface definition, served verbatim: `org.lprojd.Localization.varlink`.
    public let description = String(decoding: PackageResources.org_lprojd_Localization_varlink, as: UTF8.self)

    let catalog: Catalog
    let watcher: CatalogWatcher?
    let hub: SubscriptionHub
    let store: ClientStore
    let added: AddedStringsRegistry
    let limits: ServiceLimits
    let budget: BudgetBook
    /// Lines a client's calls make lprojd log, per uid.
    let logLimit = PerUIDRateLimit(burst: 20, perSecond: 2)
    let logger: Logger
    let startTime = Date()
    let daemonUID: UInt32
    /// Open connections, from the server.
    let connectionCount: @Sendable () -> Int

    /// lprojd's version.
    public static let version = "0.1.0"

    /// Creates the interface over the daemon's parts.
    public init(
        catalog: Catalog, watcher: CatalogWatcher?, hub: SubscriptionHub, store: ClientStore, added: AddedStringsRegistry,
        limits: ServiceLimits = ServiceLimits(), budget: BudgetBook = BudgetBook(limits: BudgetLimits()),
        daemonUID: UInt32, connectionCount: @escaping @Sendable () -> Int, logger: Logger
    ) {
        self.catalog = catalog
        self.watcher = watcher
        self.hub = hub
        self.store = store
        self.added = added
        self.limits = limits
        self.budget = budget
        self.daemonUID = daemonUID
        self.connectionCount = connectionCount
        self.logger = logger
    }

    public func handle(_ method: Substring, call: VarlinkCall, caller: VarlinkCaller) -> VarlinkOutcome {
        do {
            switch method {
            case "Lookup": return try lookup(call.parameters, caller: caller)
            case "GetTable": return try getTable(call.parameters, caller: caller)
            case "GetSelection": return try getSelection(call.parameters, caller: caller)
            case "SelectLocale": return try selectLocale(call.parameters, caller: caller)
            case "ResetSelection": return try resetSelection(call.parameters, caller: caller)
            case "ListBundles": return try listBundles(call.parameters)
            case "Negotiate": return try negotiate(call.parameters)
            case "AddStrings": return try addStrings(call.parameters, caller: caller)
            case "RemoveAddedStrings": return try removeAddedStrings(call.parameters, caller: caller)
            case "Subscribe": return try subscribe(call.parameters, caller: caller)
            case "Reload": return try reload(call.parameters, caller: caller)
            case "GetStatus": return try status(call.parameters, caller: caller)
            case "Format": return try format(call.parameters, caller: caller)
            case "ParseDate": return try parseDate(call.parameters, caller: caller)
            case "GetPreferences": return try getPreferences(call.parameters, caller: caller)
            case "SetPreferences": return try setPreferences(call.parameters, caller: caller)
            case "SupportedLocales": return try supportedLocales(call.parameters, caller: caller)
            default: return .error(.methodNotFound(call.method))
            }
        } catch {
            return .error(error)
        }
    }

    // MARK: Shared checks

    func bundle(_ name: String) throws(VarlinkError) -> LoadedBundle {
        // Bundle names are at most 128 bytes: a longer one is not hashed.
        guard name.utf8.count <= 128, let bundle = catalog.snapshot.bundles[name] else { throw LocalizationErrors.bundleNotFound(name) }
        return bundle
    }

    /// A text limited in bytes, as sent.
    func limited(_ text: String, _ name: String, maximum: Int) throws(VarlinkError) -> String {
        guard text.utf8.count <= maximum else { throw LocalizationErrors.limitExceeded(name, maximum: maximum) }
        return text
    }

    /// A list limited in entries.
    func limited<T>(_ list: [T], _ name: String, maximum: Int) throws(VarlinkError) -> [T] {
        guard list.count <= maximum else { throw LocalizationErrors.limitExceeded(name, maximum: maximum) }
        return list
    }

    /// Resolves a locale for a caller: the answer is cached for the text,
    /// and the cache entry is charged to the caller's uid (a uid over its
    /// cache budget gets answers, uncached).
    func resolve(_ text: String, in bundle: LoadedBundle, for uid: UInt32) throws(LookupError) -> ResolvedLocale {
        try bundle.resolve(locale: text) { [budget] in
            try? budget.hold(LoadedBundle.cacheCost(ofLocaleText: text), of: .caches, for: uid)
        }
    }

    func clientID(_ client: String?) throws(VarlinkError) -> String? {
        guard let client else { return nil }
        guard ClientKey.isValidClientID(client) else { throw .invalidParameter("client") }
        return client
    }

    func tableName(_ table: String?) throws(VarlinkError) -> String {
        let table = table ?? TableName.defaultTable
        guard TableName.isValid(table) else { throw .invalidParameter("table") }
        return table
    }

    /// The locale a call reads: the one it names, else its client's
    /// selection, else the bundle's development locale.
    func resolvedLocale(_ locale: String?, client: String?, bundle: LoadedBundle, caller: VarlinkCaller) throws(VarlinkError) -> ResolvedLocale {
        if let locale {
            do {
                return try resolve(locale, in: bundle, for: caller.uid)
            } catch {
                if case .invalidLocale(let reason) = error { throw LocalizationErrors.invalidLocale(locale, reason) }
                throw .invalidParameter("locale")
            }
        }
        if let client, let saved = store.selection(for: ClientKey(uid: caller.uid, client: client), bundle: bundle.name),
           let resolved = try? resolve(saved.locale, in: bundle, for: caller.uid) {
            return resolved
        }
        return bundle.developmentLocale
    }

    func locale(_ text: String) throws(VarlinkError) -> LocaleIdentifier {
        do {
            return try LocaleIdentifier(text)
        } catch {
            throw LocalizationErrors.invalidLocale(text, error)
        }
    }

    /// Runs store work; a write over the uid's budget is `LimitExceeded`,
    /// any other failure is logged and reported without details.
    func committing(_ work: @escaping @Sendable () async throws -> VarlinkOutcome) -> VarlinkOutcome {
        .deferred { [logger] in
            do {
                return try await work()
            } catch let error as VarlinkError {
                return .error(error)
            } catch let error as ClientStore.OverBudget {
                return .error(LocalizationErrors.limitExceeded(error.refusal))
            } catch let error as ClientStore.Unavailable {
                logger.error("cannot save a client's state: \(error.reason)")
                return .error(LocalizationErrors.stateUnavailable(error.reason))
            } catch {
                logger.error("writing the client store failed: \(error)")
                return .error(LocalizationErrors.internalError)
            }
        }
    }

    /// Logs a line a client's call caused, at most as often as its uid's
    /// share allows.
    func log(_ level: Logger.Level, _ message: @autoclosure () -> String, uid: UInt32, metadata: Logger.Metadata = [:]) {
        let (allowed, suppressed) = logLimit.allow(uid)
        guard allowed else { return }
        var metadata = metadata
        metadata["client.uid"] = "\(uid)"
        if suppressed > 0 { metadata["suppressed"] = "\(suppressed)" }
        logger.log(level: level, "\(message())", metadata: metadata)
    }
}
