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
        daemonUID: UInt32, connectionCount: @escaping @Sendable () -> Int, logger: Logger
    ) {
        self.catalog = catalog
        self.watcher = watcher
        self.hub = hub
        self.store = store
        self.added = added
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
            case "GetStatus": return try status(call.parameters)
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
        guard let bundle = catalog.snapshot.bundles[name] else { throw LocalizationErrors.bundleNotFound(name) }
        return bundle
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
                return try bundle.resolve(locale: locale)
            } catch {
                if case .invalidLocale(let reason) = error { throw LocalizationErrors.invalidLocale(locale, reason) }
                throw .invalidParameter("locale")
            }
        }
        if let client, let saved = store.selection(for: ClientKey(uid: caller.uid, client: client), bundle: bundle.name),
           let resolved = try? bundle.resolve(locale: saved.locale) {
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

    /// Runs store work; a failure is logged and reported without details.
    func committing(_ work: @escaping @Sendable () async throws -> VarlinkOutcome) -> VarlinkOutcome {
        .deferred { [logger] in
            do {
                return try await work()
            } catch let error as VarlinkError {
                return .error(error)
            } catch {
                logger.error("writing the client store failed: \(error)")
                return .error(LocalizationErrors.internalError)
            }
        }
    }
}
