import ClientBudget
import Foundation
import Logging
import LprojConfiguration
import LprojService
import LprojVarlink
import LprojStore
import LprojSystemd
import LprojVersion
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import UnixSignals
import VarlinkProtocol
import VarlinkNIO

/// Wires lprojd's parts together and runs them.
///
/// Start-up: logging (the journal when stderr is connected to it), the
/// state directory and its SQLite store, watches, every bundle loaded, the
/// socket (bound, or the one systemd passed), and only then `READY=1`.
/// Then a service group runs the watcher, the event delivery, the server,
/// the SIGHUP reloader, state recovery, the watchdog (when systemd asks for
/// one) and the service-manager lifecycle until SIGTERM or SIGINT, which
/// stop them in reverse: `STOPPING=1` first, then the server (no more
/// calls), the delivery (what waits goes out) and the watcher.
struct Daemon {
    let settings: DaemonSettings
    var activatedSocket: ActivatedSocket?
    var notifier: ServiceNotifier = .system
    var rereadSettings: (@Sendable () throws -> DaemonSettings)?

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        raiseFileDescriptorLimit(toServe: settings.configuration.limits.service.server.maximumConnections)
        let logLevel = LogLevelControl(settings.logLevel)
        let logger = bootstrapLogging(logLevel)
        // Trap the signals first: one that arrives while the bundles load
        // waits for the service group instead of killing the daemon (the
        // default action of SIGTERM, SIGINT and SIGHUP).
        let stopSignals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let hangups = await UnixSignalsSequence(trapping: .sighup)

        // Everything a client makes lprojd hold is charged to its uid here.
        let budget = BudgetBook(limits: settings.configuration.limits.budget)
        let store = openStore(budget: budget, logger: logger)
        let events = EventDelivery(clock: ContinuousClock(), book: budget, logger: logger)
        // The drop-in directories are watched and read before the bundles
        // load, and follow them once the bundles are loaded.
        let dropIns = try DropInWatcher(
            directories: settings.dropInDirectories, reader: settings.dropInReader, configured: settings.configuredBundles,
            logger: logger)
        let (served, watcher) = try loadBundles(dropIns.bundles, events: events, logger: logger)
        await dropIns.applyChanges { await watcher.reconfigure($0) }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        LoopLagMonitor.startIfAsked(group: group, environment: ProcessInfo.processInfo.environment, logger: logger)
        // The desktop's languages: a user's lprojd follows its own user's,
        // the system's each uid that has clients.
        let desktopWatcher = DesktopLanguageWatcher(logger: logger)
        let desktop: DesktopLanguages
        if settings.instance == .system {
            desktop = DesktopLanguages(follow: { desktopWatcher.follow(uid: $0) })
        } else {
            desktop = DesktopLanguages()
            desktopWatcher.follow(uid: getuid())
        }
        let (server, service) = try await serve(
            served: served, watcher: watcher, events: events, store: store, budget: budget, desktop: desktop, group: group,
            logger: logger)

        let status = StatusReporter(notifier: notifier) {
            StatusReporter.summary(of: served.snapshot, connections: server.connectionCount, subscribers: events.subscriberCount)
        }
        let reloader = ConfigurationReloader(
            hangups: hangups, running: settings, rereadSettings: rereadSettings ?? { settings }, dropIns: dropIns,
            logLevel: logLevel, status: status, logger: logger)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: watcher), .init(service: dropIns), .init(service: events), .init(service: server), .init(service: reloader),
            .init(service: StateRecovery(store: store, logger: logger)),
            .init(service: MissSaver(service: service)),
            .init(service: desktopWatcher), .init(service: DesktopLanguageFollower(watcher: desktopWatcher, service: service)),
        ]
        if let interval = WatchdogRequest.interval() {
            logger.info("the watchdog expects a sign of life every \(interval); pinging every \(interval / 2)")
            services.append(
                .init(
                    service: Watchdog(
                        interval: interval, group: group, probe: { watcher.checkIn() },
                        ping: { [notifier] in notifier.notify(.watchdog) })))
        }
        // Last, so that it is the first to hear of the stop (STOPPING=1).
        services.append(.init(service: ServiceManagerLifecycle(status: status, logger: logger)))
        try await runUntilStopped(
            ServiceGroup(configuration: .init(services: services, logger: logger)), stopSignals: stopSignals, logger: logger)
        try await group.shutdownGracefully()
        logger.info("stopped")
    }

    /// The journal when stderr is connected to it, else plain lines on stderr.
    private func bootstrapLogging(_ level: LogLevelControl) -> Logger {
        let toJournal = JournalStream.isStandardErrorConnected(environment: ProcessInfo.processInfo.environment)
        LoggingSystem.bootstrap { label -> any LogHandler in
            if toJournal { return JournalLogHandler(label: label, identifier: "lprojd", threshold: level) }
            return PlainLogHandler(label: label, threshold: level)
        }
        return Logger(label: "lprojd")
    }

    /// The SQLite store in the state directory. A state directory that cannot
    /// be made, or a store that cannot be opened, leaves the store
    /// unavailable (said in the log and on the wire): lookups need none, and
    /// StateRecovery opens it once the fault is fixed.
    private func openStore(budget: BudgetBook, logger: Logger) -> ClientStore {
        try? FileManager.default.createDirectory(
            atPath: settings.stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let store = ClientStore(path: "\(settings.stateDirectory)/lprojd.sqlite", budget: budget)
        if store.prunedAtStart > 0 {
            logger.warning("removed \(store.prunedAtStart) saved rows beyond their users' budget (max-saved-state-bytes-per-uid)")
        }
        return store
    }

    /// Watches first, then loads every bundle: a change made while loading
    /// waits in inotify's queue, unmissed. Each bundle's log line says the
    /// file that defines it.
    private func loadBundles(_ sourced: [SourcedBundle], events: any EventSink, logger: Logger) throws -> (
        ServedBundles, BundleWatcher<ContinuousClock>
    ) {
        let bundles = sourced.map(\.configuration)
        let sources = Dictionary(sourced.map { ($0.name, $0.source) }, uniquingKeysWith: { $1 })
        let started = ContinuousClock.now
        let served = ServedBundles()
        let watcher = try BundleWatcher(
            served: served, events: events, configurations: bundles, trust: settings.instance == .system ? .system : .anyOwner,
            clock: ContinuousClock(), logger: logger)
        logger.info("loading \(bundles.count) bundle\(bundles.count == 1 ? "" : "s")")
        watcher.loadAll()
        let snapshot = served.snapshot
        for (name, bundle) in snapshot.bundles.sorted(by: { $0.key < $1.key }) {
            logger.info(
                "bundle \(name) from \(sources[name] ?? "?"): \(bundle.localizations.count) folders, \(bundle.entryCount) entries in \(bundle.configuration.directory)",
                metadata: ["bundle.name": "\(name)"])
            for problem in bundle.problems { logger.warning("\(problem.message)", metadata: ["bundle.name": "\(name)"]) }
            for report in bundle.fileReports {
                for diagnostic in report.errors {
                    logger.error(
                        "\(report.path)\(diagnostic.location.map { ":\($0)" } ?? ""): \(diagnostic.message)",
                        metadata: ["bundle.name": "\(name)"])
                }
            }
        }
        logger.info("ready in \(ContinuousClock.now - started)")
        return (served, watcher)
    }

    /// The service, its Varlink adapter and the server, listening.
    private func serve(
        served: ServedBundles, watcher: BundleWatcher<ContinuousClock>, events: EventDelivery<ContinuousClock>, store: ClientStore,
        budget: BudgetBook,
        desktop: DesktopLanguages, group: MultiThreadedEventLoopGroup, logger: Logger
    ) async throws -> (VarlinkServer, LocalizationService) {
        let limits = settings.configuration.limits
        let added = AddedStringsRegistry(limits: limits.service.addedStrings, budget: budget)
        let snapshots = SnapshotStore(directory: settings.snapshotDirectory.map(Self.makingParent))
        if let problem = snapshots.problem { logger.notice("snapshots are not written: \(problem)") }
        // The status method counts connections of a server made after it.
        let serverReference = ServerReference()
        let service = LocalizationService(
            served: served, watcher: watcher, events: events, store: store, added: added,
            countsMisses: settings.configuration.countMisses, limits: limits.service, budget: budget, snapshots: snapshots,
            desktop: desktop,
            daemonUID: getuid(),
            connectionCount: { uid in serverReference.connectionCount(uid: uid) }, logger: logger)
        service.restoreMisses()
        let dispatcher = VarlinkDispatcher(
            info: .init(vendor: "lprojd", product: "lprojd", version: LprojVersion.current, url: "https://github.com/lprojd/lprojd"),
            interfaces: [LocalizationVarlinkInterface(service: service, subscriptions: events)])
        let server = VarlinkServer(
            listener: try listener(logger: logger), dispatcher: dispatcher, configuration: serverConfiguration(limits), group: group,
            budget: budget, logger: logger)
        serverReference.set(server)
        do {
            try await server.listen()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        return (server, service)
    }

    /// Runs the services until SIGTERM or SIGINT asks for a graceful stop.
    private func runUntilStopped(_ services: ServiceGroup, stopSignals: UnixSignalsSequence, logger: Logger) async throws {
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                for await signal in stopSignals {
                    logger.info("\(signal): stopping gracefully")
                    await services.triggerGracefulShutdown()
                }
            }
            try await services.run()
            tasks.cancelAll()
        }
    }

    /// A path whose parent folder exists: `$XDG_RUNTIME_DIR/lprojd` may
    /// not yet (the snapshot store makes the last folder itself).
    static func makingParent(_ path: String) -> String {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: parent) { mkdir(parent, 0o755) }
        return path
    }

    /// The socket systemd passed, or else the configured path.
    func listener(logger: Logger) throws -> VarlinkServer.Listener {
        if let activatedSocket {
            guard SocketActivation.isListeningStreamSocket(activatedSocket.descriptor) else {
                throw SocketActivationError(
                    description:
                        "the socket passed by the service manager (fd \(activatedSocket.descriptor), \(activatedSocket.name)) is not a listening stream socket",
                    code: ENOTSOCK)
            }
            if let path = settings.socketPath, settings.configuration.socketPath != nil {
                logger.notice("serving the socket passed by the service manager; the configured \(path) is not used")
            }
            return .descriptor(activatedSocket.descriptor)
        }
        guard let path = settings.socketPath else {
            throw SettingsError(description: "no socket path and no socket passed by the service manager")
        }
        return .path(path)
    }

    /// The soft limit on open files is usually 1024, which would cap the
    /// connections long before `max-connections`; raise it towards the hard
    /// limit (systemd's default hard limit is 524288).
    func raiseFileDescriptorLimit(toServe connections: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = rlim_t(connections + 256)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }

    func serverConfiguration(_ limits: DaemonConfiguration.Limits) -> VarlinkServerConfiguration {
        var server = VarlinkServerConfiguration()
        server.limits = limits.service.server
        server.socketMode = settings.instance == .system ? 0o666 : 0o600
        server.limitError = LocalizationVarlinkInterface.limitError
        server.shutdownReply = LocalizationVarlinkInterface.shutdownReply
        return server
    }
}

/// The server, for the status method, which is created before it.
final class ServerReference: Sendable {
    private let server = Mutex<VarlinkServer?>(nil)

    func set(_ server: VarlinkServer) {
        self.server.withLock { $0 = server }
    }

    /// Open connections: of one uid, or all (nil).
    func connectionCount(uid: UInt32?) -> Int {
        server.withLock { server in
            guard let server else { return 0 }
            return uid.map { server.connectionCount(uid: $0) } ?? server.connectionCount
        }
    }
}
