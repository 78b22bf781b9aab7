import Logging
import LprojService
import LprojSystemd
import ServiceLifecycle
import Synchronization
import VarlinkNIO

/// The one-line summary `systemctl status` shows (`STATUS=`), sent when it
/// changes.
final class StatusReporter: Sendable {
    private let notifier: ServiceNotifier
    private let summary: @Sendable () -> String
    private let lastSent = Mutex<String?>(nil)

    init(notifier: ServiceNotifier, summary: @escaping @Sendable () -> String) {
        self.notifier = notifier
        self.summary = summary
    }

    /// "2 bundles, 40 tables, 1234 entries; 3 connections, 1 subscriber".
    static func summary(of snapshot: ServedBundles.Snapshot, connections: Int, subscribers: Int) -> String {
        func count(_ value: Int, _ one: String, _ many: String) -> String { "\(value) \(value == 1 ? one : many)" }
        return "\(count(snapshot.bundles.count, "bundle", "bundles")), \(count(snapshot.tableCount, "table", "tables")), "
            + "\(count(snapshot.entryCount, "entry", "entries")); "
            + "\(count(connections, "connection", "connections")), \(count(subscribers, "subscriber", "subscribers"))"
    }

    /// Sends `states` with the current summary, in one datagram.
    func notify(_ states: ServiceState...) {
        let text = summary()
        lastSent.withLock { $0 = text }
        notifier.notify(states + [.status(text)])
    }

    /// Sends `states` with a status of their own (a reload in progress, a
    /// failure), which the next change of the summary replaces.
    func notify(_ states: [ServiceState], status: String) {
        lastSent.withLock { $0 = status }
        notifier.notify(states + [.status(status)])
    }

    /// Sends the summary if it differs from the last status sent.
    func refresh() {
        let text = summary()
        let changed = lastSent.withLock { last in
            defer { last = text }
            return last != text
        }
        if changed { notifier.notify(.status(text)) }
    }
}

/// Start and stop as the service manager sees them: `READY=1` when this
/// service starts (lprojd starts the service group only once every bundle is
/// loaded and the socket accepts connections), `STATUS=` kept current, and
/// `STOPPING=1` as soon as a graceful stop begins. It is the group's last
/// service, so it is the first to hear of the stop.
struct ServiceManagerLifecycle: Service {
    let status: StatusReporter
    let logger: Logger
    var refreshInterval: Duration = .seconds(1)

    func run() async throws {
        status.notify(.ready)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: refreshInterval) }
            } catch {
                break
            }
            status.refresh()
        }
        logger.info("stopping: finishing calls in progress and ending subscriptions")
        status.notify([.stopping], status: "Stopping: finishing calls in progress")
    }
}
