public import Logging
public import ServiceLifecycle

/// Saves the misses that changed every `interval`, and once more when
/// lprojd stops gracefully, so that they survive a restart.
public struct MissSaver: Service {
    let service: LocalizationService
    let interval: Duration

    public init(service: LocalizationService, interval: Duration = .seconds(5)) {
        self.service = service
        self.interval = interval
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                break
            }
            await service.saveMisses()
        }
        await service.saveMisses()
    }
}
