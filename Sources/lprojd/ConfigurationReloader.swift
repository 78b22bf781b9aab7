import Logging
import LprojConfiguration
import LprojSystemd
import ServiceLifecycle
import UnixSignals

/// Re-reads the configuration on `SIGHUP` (`systemctl reload lprojd`, whose
/// `ExecReload=` sends it), between `RELOADING=1` and `READY=1`.
///
/// Bundles are added, removed or re-read as the file and the drop-ins now
/// say (every drop-in directory is read again), and subscribers hear of
/// each (`bundleChanged`); the log level changes at
/// once. Connections stay open throughout, and lookups never wait: the new
/// bundles are swapped in as one snapshot. `max-table-file-size` applies at
/// once (every bundle is read again under it); the socket, the state
/// directory and the other limits are fixed at start-up, and a change to
/// them is logged as taking effect at the next start. A file that does not parse changes
/// nothing: the daemon keeps serving the configuration it had.
struct ConfigurationReloader: Service {
    let hangups: UnixSignalsSequence
    let running: DaemonSettings
    let rereadSettings: @Sendable () throws -> DaemonSettings
    let dropIns: DropInWatcher
    let logLevel: LogLevelControl
    let status: StatusReporter
    let logger: Logger

    func run() async throws {
        for await _ in hangups.cancelOnGracefulShutdown() {
            await reload()
        }
    }

    func reload() async {
        logger.info("SIGHUP: reading the configuration again")
        status.notify([.reloading, .monotonicNow], status: "Reloading the configuration")
        do {
            let settings = try rereadSettings()
            for change in settings.changesNeedingRestart(from: running) {
                logger.warning("\(change) changed in the configuration; the change takes effect at the next start")
            }
            logLevel.level = settings.logLevel
            await dropIns.reload(
                configured: settings.configuredBundles, directories: settings.dropInDirectories, reader: settings.dropInReader)
            status.notify(.ready)
        } catch {
            logger.error("the configuration reload failed, so the previous configuration stays: \(error)")
            status.notify([.ready], status: "Reload failed, serving the previous configuration: \(error)")
        }
    }
}
