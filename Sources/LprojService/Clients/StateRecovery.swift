package import Logging
package import LprojStore
import ServiceLifecycle

/// Opens the client store again while it is unavailable (a damaged file
/// moved away, a directory made writable again), every `interval`, and
/// says so in the log when that changes.
package struct StateRecovery: Service {
    let store: ClientStore
    let interval: Duration
    let logger: Logger

    package init(store: ClientStore, interval: Duration = .seconds(5), logger: Logger) {
        self.store = store
        self.interval = interval
        self.logger = logger
    }

    package func run() async throws {
        var reported = store.unavailableReason
        if let reported {
            logger.error("selections and preferences cannot be saved: \(reported); lookups go on, and lprojd tries again every \(interval)")
        }
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            guard let problem = store.unavailableReason else {
                reported = nil
                continue
            }
            do {
                try store.open()
                logger.notice("the state database is open again; selections and preferences are saved (was: \(problem))")
                reported = nil
            } catch {
                let still = error.description
                if still != reported { logger.error("selections and preferences cannot be saved: \(still)") }
                reported = still
            }
        }
    }
}
