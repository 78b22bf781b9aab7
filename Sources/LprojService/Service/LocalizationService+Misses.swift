internal import Foundation
internal import LprojEngine
package import LprojInterface
internal import LprojLocales
internal import LprojStore
internal import Synchronization

extension LocalizationService {
    /// The misses lookups met: everyone's for root and lprojd's own user,
    /// the caller's own for anyone else.
    package func getMisses(_ call: Localization.GetMisses.Parameters, caller: Caller) throws(ServiceError) -> Answer<
        Localization.GetMisses.Reply
    > {
        let limit = call.limit ?? 100
        guard (1...10_000).contains(limit) else { throw .invalidParameter("limit") }
        if let bundle = call.bundle, !BundleConfiguration.isValidName(bundle) { throw .invalidParameter("bundle") }
        // Recorded under the canonical tag, as lookups resolve it.
        let locale = try call.locale.map { text throws(ServiceError) in try self.locale(text).tag }
        let since = call.since?.double
        if let since, !since.isFinite { throw .invalidParameter("since") }
        let uid: UInt32? = caller.uid == 0 || caller.uid == daemonUID ? nil : caller.uid
        return .later { [misses] in
            let found = misses.misses(uid: uid, bundle: call.bundle, locale: locale, since: since, limit: limit)
            return .init(
                misses: found.misses.map { miss in
                    .init(
                        bundle: miss.bundle, locale: miss.locale, table: miss.table, key: miss.key, count: miss.count,
                        clients: miss.clients,
                        firstSeen: miss.firstSeen, lastSeen: miss.lastSeen)
                },
                unknownKeys: found.unknownKeys.map { .init(bundle: $0.bundle, count: $0.count, sample: $0.sample) },
                dropped: found.dropped)
        }
    }

    /// Forgets the misses (of one bundle, or all), in memory and saved.
    package func resetMisses(_ call: Localization.ResetMisses.Parameters, caller: Caller) throws(ServiceError) -> Answer<
        Localization.ResetMisses.Reply
    > {
        guard caller.uid == 0 || caller.uid == daemonUID else { throw .permissionDenied("ResetMisses") }
        if let bundle = call.bundle, !BundleConfiguration.isValidName(bundle) { throw .invalidParameter("bundle") }
        logger.info("misses reset by uid \(caller.uid)", metadata: ["bundle.name": "\(call.bundle ?? "*")"])
        return committing { [misses, store] in
            let removed = Mutex(0)
            try await store.deleteMisses(bundle: call.bundle) {
                removed.withLock { $0 = misses.reset(bundle: call.bundle) }
            }
            return .init(removed: removed.withLock { $0 })
        }
    }

    /// Saves at most `limit` of the misses that changed since the last
    /// save (the rest stay for the next). Rows a save could not write, or
    /// that a reset overtook, are kept to be saved next time (the reset's
    /// own are gone from memory by then). The saved misses are read first,
    /// if the database was not open when lprojd started.
    package func saveMisses(limit: Int = .max) async {
        guard restoreMisses() else { return }
        let changes = misses.takeChanges(limit: limit)
        guard !changes.misses.isEmpty || !changes.unknownKeys.isEmpty else { return }
        do {
            let written = try await store.saveMisses(changes.misses, unknownKeys: changes.unknownKeys) { [misses] in
                misses.epoch == changes.epoch
            }
            if !written { misses.markChanged(changes.misses, unknownKeys: changes.unknownKeys) }
        } catch {
            misses.markChanged(changes.misses, unknownKeys: changes.unknownKeys)
            logger.warning("the misses cannot be saved now: \(error)")
        }
    }

    /// Takes in the misses saved before lprojd last stopped, once; their
    /// counts are added to what was counted meanwhile. Returns whether
    /// they are in (false while the database is unavailable).
    @discardableResult
    package func restoreMisses() -> Bool {
        guard !missesRestored.withLock({ $0 }) else { return true }
        do {
            let saved = try store.savedMisses()
            misses.restore(saved.misses, unknownKeys: saved.unknownKeys)
            missesRestored.withLock { $0 = true }
            return true
        } catch {
            logger.warning("the saved misses cannot be read yet: \(error)")
            return false
        }
    }
}
