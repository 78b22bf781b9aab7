import Foundation
import Logging
import LprojConfiguration
import LprojService
import LprojStore
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import VarlinkProtocol
import VarlinkNIO

/// Wires lprojd's parts together and runs them.
struct Daemon {
    let settings: DaemonSettings

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        raiseFileDescriptorLimit(toServe: settings.configuration.limits.maximumConnections)
        let level = settings.logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "lprojd")
        let configuration = settings.configuration

        try FileManager.default.createDirectory(atPath: settings.stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let store = try ClientStore(path: "\(settings.stateDirectory)/lprojd.sqlite")

        // Watch first, then load everything, then accept connections: a
        // change made while loading waits in inotify's queue, unmissed.
        let started = ContinuousClock.now
        let catalog = Catalog()
        let hub = SubscriptionHub(logger: logger)
        let watcher = try CatalogWatcher(catalog: catalog, hub: hub, configurations: configuration.bundles, logger: logger)
        catalog.load(configuration.bundles)
        let snapshot = catalog.snapshot
        for name in snapshot.names {
            let bundle = snapshot.bundles[name]!
            logger.info("loaded \(bundle.localizations.count) folders, \(bundle.entryCount) entries from \(bundle.configuration.directory)", metadata: ["bundle.name": "\(name)"])
            for problem in bundle.problems { logger.warning("\(problem.message)", metadata: ["bundle.name": "\(name)"]) }
            for report in bundle.fileReports {
                for diagnostic in report.errors {
                    logger.error("\(report.path)\(diagnostic.location.map { ":\($0)" } ?? ""): \(diagnostic.message)", metadata: ["bundle.name": "\(name)"])
                }
            }
        }
        logger.info("ready in \(ContinuousClock.now - started)")

        let added = AddedStringsRegistry(maximumStrings: configuration.limits.maximumAddedStrings, maximumLength: configuration.limits.maximumAddedStringLength)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let serverReference = ServerReference()
        let interface = LocalizationInterface(
            catalog: catalog, watcher: watcher, hub: hub, store: store, added: added, daemonUID: getuid(),
            connectionCount: { serverReference.connectionCount }, logger: logger)
        let dispatcher = VarlinkDispatcher(
            info: .init(vendor: "lprojd", product: "lprojd", version: LocalizationInterface.version, url: "https://github.com/lprojd/lprojd"),
            interfaces: [interface])
        let server = VarlinkServer(
            listener: .path(settings.socketPath), dispatcher: dispatcher, configuration: serverConfiguration(configuration.limits),
            group: group, logger: logger)
        serverReference.set(server)
        do {
            try await server.listen()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }

        let services = ServiceGroup(
            configuration: .init(
                services: [.init(service: watcher), .init(service: server)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await services.run()
        try await group.shutdownGracefully()
        logger.info("stopped")
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
        server.maximumMessageSize = limits.maximumMessageSize
        server.maximumConnections = limits.maximumConnections
        server.maximumConnectionsPerUID = limits.maximumConnectionsPerUID
        server.maximumStreamQueueBytes = limits.maximumSubscriberQueueBytes
        server.socketMode = getuid() == 0 ? 0o666 : 0o600
        server.limitError = { limit in
            switch limit {
            case .messageSize(let maximum): LocalizationErrors.limitExceeded("messageSize", maximum: maximum)
            case .connections(let maximum): LocalizationErrors.limitExceeded("connections", maximum: maximum)
            case .connectionsPerUID(let maximum): LocalizationErrors.limitExceeded("connectionsPerUID", maximum: maximum)
            case .streamQueue(let maximum): LocalizationErrors.limitExceeded("subscriberQueue", maximum: maximum)
            }
        }
        server.shutdownReply = VarlinkReply(parameters: ServiceEvent(.shutdown).parameters)
        return server
    }
}

/// The server, for the status method, which is created before it.
final class ServerReference: Sendable {
    private let server = Mutex<VarlinkServer?>(nil)

    func set(_ server: VarlinkServer) {
        self.server.withLock { $0 = server }
    }

    var connectionCount: Int {
        server.withLock { $0?.connectionCount ?? 0 }
    }
}
