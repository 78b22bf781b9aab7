package import ClientBudget
internal import Foundation
package import Logging
internal import LprojEngine
internal import LprojFormatStrings
internal import LprojInterface
package import LprojLimits
internal import LprojLocales
package import LprojStore
internal import Synchronization

/// The methods of `org.lprojd.Localization`, typed: each takes the
/// interface's parameters and the caller, and returns the interface's reply
/// or throws a ``ServiceError``. There is no Varlink and no JSON here; the
/// Varlink adapter (`LprojVarlink`) reads calls into these types and writes
/// the replies.
///
/// Lookups, tables and listings are answered from the served bundles' current
/// snapshot; what writes the store or reloads files is an ``Answer/later(_:)``,
/// whose reply comes once that is done.
package final class LocalizationService: Sendable {
    let served: ServedBundles
    let watcher: any BundleReloading
    let events: any EventSink
    let store: ClientStore
    let added: AddedStringsRegistry
    /// The client and bundle pairs each uid used lately (``RecentClients``).
    package let recent: RecentClients
    /// Each uid's desktop languages, as the daemon's watcher reads them.
    package let desktop: DesktopLanguages
    /// The lookups that missed their key, for translators.
    package let misses: MissLedger
    /// Whether lookups are counted in ``misses`` (`count-misses`).
    let countsMisses: Bool
    /// Whether the misses saved before this start are in ``misses``.
    let missesRestored = Mutex(false)
    let limits: ServiceLimits
    let budget: BudgetBook
    /// The snapshot files clients map (`GetSnapshot`).
    let snapshots: SnapshotStore
    /// Lines a client's calls make lprojd log, per uid.
    let logLimit = PerUIDRateLimit(burst: 20, perSecond: 2)
    /// Changes to clients' state, per uid (``ServiceLimits/changesPerSecondPerUID``).
    let changeRate: PerUIDRateLimit
    let logger: Logger
    let startTime = Date()
    let daemonUID: UInt32
    /// Open connections, from the server.
    /// Open connections: of one uid, or all (nil).
    let connectionCount: @Sendable (UInt32?) -> Int

    /// Creates the service over the daemon's parts.
    package init(
        served: ServedBundles, watcher: any BundleReloading, events: any EventSink, store: ClientStore, added: AddedStringsRegistry,
        misses: MissLedger = MissLedger(), countsMisses: Bool = true, limits: ServiceLimits = ServiceLimits(),
        budget: BudgetBook = BudgetBook(limits: BudgetLimits()), recent: RecentClients? = nil,
        snapshots: SnapshotStore = SnapshotStore(directory: nil),
        desktop: DesktopLanguages = DesktopLanguages(),
        daemonUID: UInt32, connectionCount: @escaping @Sendable (UInt32?) -> Int = { _ in 0 }, logger: Logger
    ) {
        self.recent = recent ?? RecentClients(budget: budget)
        self.desktop = desktop
        self.served = served
        self.watcher = watcher
        self.events = events
        self.store = store
        self.added = added
        self.misses = misses
        self.countsMisses = countsMisses
        self.limits = limits
        self.snapshots = snapshots
        self.changeRate = PerUIDRateLimit(
            burst: limits.requests.changeBurstPerUID, perSecond: Double(limits.requests.changesPerSecondPerUID))
        self.budget = budget
        self.daemonUID = daemonUID
        self.connectionCount = connectionCount
        self.logger = logger
    }

    // MARK: Shared checks

    /// Counts a change a uid makes to its clients' state (and the event it
    /// causes); refused past the uid's rate.
    func allowChange(by caller: Caller) throws(ServiceError) {
        guard changeRate.allow(caller.uid).allowed else {
            throw .limitExceeded(.changesPerSecond, maximum: limits.requests.changesPerSecondPerUID)
        }
    }

    func bundle(_ name: String) throws(ServiceError) -> LoadedBundle {
        try bundle(name, in: served.snapshot)
    }

    func bundle(_ name: String, in snapshot: ServedBundles.Snapshot) throws(ServiceError) -> LoadedBundle {
        // Bundle names are at most 128 bytes: a longer one is not hashed.
        guard name.utf8.count <= 128, let bundle = snapshot.bundles[name] else { throw .bundleNotFound(name) }
        return bundle
    }

    /// A text limited in bytes, as sent.
    func limited(_ text: String, _ name: Localization.Limit, maximum: Int) throws(ServiceError) -> String {
        guard text.utf8.count <= maximum else { throw .limitExceeded(name, maximum: maximum) }
        return text
    }

    /// A list limited in entries.
    func limited<T>(_ list: [T], _ name: Localization.Limit, maximum: Int) throws(ServiceError) -> [T] {
        guard list.count <= maximum else { throw .limitExceeded(name, maximum: maximum) }
        return list
    }

    /// Resolves a locale for a caller: the answer is cached for the text,
    /// and the cache entry is charged to the caller's uid (a uid over its
    /// cache budget gets answers, uncached).
    func resolve(_ text: String, in bundle: LoadedBundle, for caller: Caller) throws(LookupError) -> ResolvedLocale {
        try bundle.resolve(locale: text) { [budget] in
            try? budget.hold(LoadedBundle.cacheCost(ofLocaleText: text), of: .caches, for: caller.uid)
        }
    }

    /// A locale a client names, resolved in a bundle.
    func resolveNamed(_ text: String, in bundle: LoadedBundle, for caller: Caller) throws(ServiceError) -> ResolvedLocale {
        do {
            return try resolve(text, in: bundle, for: caller)
        } catch {
            if case .invalidLocale(let reason) = error { throw .invalidLocale(text, reason) }
            throw .invalidParameter("locale")
        }
    }

    /// A client id, checked (it is part of what is saved).
    func clientID(_ client: String) throws(ServiceError) -> String {
        guard ClientKey.isValidClientID(client) else { throw .invalidParameter("client") }
        return client
    }

    func clientID(_ client: String?) throws(ServiceError) -> String? {
        guard let client else { return nil }
        return try clientID(client)
    }

    /// Records that a call named a client and a bundle (``RecentClients``);
    /// the first time a uid does, its desktop's languages are followed.
    func noteUse(of client: String?, bundle: String, by caller: Caller, languages: [LocaleIdentifier]? = nil) {
        guard let client else { return }
        if recent.record(uid: caller.uid, client: client, bundle: bundle, languages: languages) { desktop.follow(uid: caller.uid) }
    }

    func tableName(_ table: String?) throws(ServiceError) -> String {
        let table = table ?? TableName.defaultTable
        guard TableName.isValid(table) else { throw .invalidParameter("table") }
        return table
    }

    /// The locale a call reads: the one it names, else its client's
    /// selection while the bundle has it (as `GetSelection` answers without
    /// preferred languages), else the bundle's development locale.
    func resolvedLocale(_ locale: String?, client: String?, bundle: LoadedBundle, caller: Caller) throws(ServiceError) -> ResolvedLocale {
        if let locale { return try resolveNamed(locale, in: bundle, for: caller) }
        if let client, let saved = store.selection(for: ClientKey(uid: caller.uid, client: client), bundle: bundle.name) {
            let choice = SelectionPolicy.current(in: bundle, saved: saved.locale, preferred: [])
            if choice.reason == .saved, let resolved = try? resolve(choice.locale.tag, in: bundle, for: caller) { return resolved }
        }
        return bundle.developmentLocale
    }

    func locale(_ text: String) throws(ServiceError) -> LocaleIdentifier {
        do {
            return try LocaleIdentifier(text)
        } catch {
            throw .invalidLocale(text, error)
        }
    }

    /// Store work, answered once done: a write over the uid's budget is
    /// `LimitExceeded`, a state that cannot be written `StateUnavailable`,
    /// anything else is logged and reported without details.
    func committing<Reply: Sendable>(_ work: @escaping @Sendable () async throws -> Reply) -> Answer<Reply> {
        .later { [logger] () async throws(ServiceError) -> Reply in
            do {
                return try await work()
            } catch let error as ServiceError {
                throw error
            } catch .overBudget(let refusal) as ClientStoreError {
                throw .limitExceeded(refusal)
            } catch .unavailable(let reason) as ClientStoreError {
                logger.error("cannot save a client's state: \(reason)")
                throw .stateUnavailable(reason)
            } catch {
                logger.error("writing the client store failed: \(error)")
                throw .internalError
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
