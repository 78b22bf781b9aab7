import Logging
import ServiceLifecycle

/// Saves the misses that changed every `interval`, at most
/// `rowsPerSave` rows at a time, and all of them when lprojd stops
/// gracefully, so that they survive a restart. The cap bounds what any
/// number of busy clients make lprojd write to disk (a record a client
/// keeps missing changes on every save): a crash loses at most an
/// interval's counts, or what the cap held back.
package struct MissSaver: Service {
    let service: LocalizationService
    let interval: Duration
    let rowsPerSave: Int

    package init(service: LocalizationService, interval: Duration = .seconds(15), rowsPerSave: Int = 500) {
        self.service = service
        self.interval = interval
        self.rowsPerSave = rowsPerSave
    }

    package func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                break
            }
            await service.saveMisses(limit: rowsPerSave)
        }
        await service.saveMisses()
    }
}
