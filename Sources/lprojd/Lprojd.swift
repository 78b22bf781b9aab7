import ArgumentParser
import Foundation
import LprojSystemd
import LprojVersion

/// lprojd: the localization daemon.
@main
struct Lprojd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lprojd",
        abstract: "Serve Apple .lproj localization bundles over Varlink.",
        discussion: """
            Runs in the foreground. Options override the configuration file. Under systemd it \
            notifies readiness (Type=notify), serves a socket passed by socket activation, pings \
            the watchdog, logs to the journal, and re-reads its configuration on SIGHUP.
            """,
        version: LprojVersion.current
    )

    @Option(help: "The configuration file (YAML). A missing default file is fine.")
    var config: String?

    @Option(help: "The Unix socket to serve on (ignored when systemd passes the socket).")
    var socket: String?

    @Option(name: .customLong("state-directory"), help: "Where to keep each client's selected locale.")
    var stateDirectory: String?

    @Option(
        name: .customLong("bundle"),
        help: ArgumentHelp("A bundle to serve, as NAME=DIR or NAME=DIR@LOCALE (the development locale). Repeatable.", valueName: "name=dir")
    )
    var bundles: [String] = []

    @Flag(
        name: .customLong("pseudo-locales"),
        help: "Offer the pseudo-locales en-XA and ar-XB in the bundles given with --bundle (pseudo-locales: true in a configuration).")
    var pseudoLocales = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    @Option(
        name: .customLong("drop-in-directory"),
        help: ArgumentHelp(
            "A directory of drop-in bundle files (NAME.conf), watched; the first given wins. Repeatable; replaces the defaults.",
            valueName: "dir"))
    var dropInDirectories: [String] = []

    @Flag(help: "Run as the system's lprojd when not root (the system unit's dynamic user): its default paths, root's drop-ins only.")
    var system = false

    @Flag(
        name: .customLong("check-config"),
        help:
            "Read the configuration and every drop-in as lprojd would, print each problem as file:line:column: message, and exit: 1 on an error, 0 otherwise."
    )
    var checkConfig = false

    @Argument(help: ArgumentHelp("With --check-config: the configuration file to check (as --config).", valueName: "file"))
    var checkedFile: String?

    func validate() throws {
        if checkedFile != nil && !checkConfig {
            throw ValidationError("a FILE argument goes with --check-config; lprojd takes --config FILE")
        }
        if checkedFile != nil && config != nil {
            throw ValidationError("give the file to check once: --check-config FILE or --config FILE")
        }
    }

    func run() async throws {
        if checkConfig {
            throw ExitCode(ConfigurationCheck.run { try daemonSettings(configPath: checkedFile ?? config, socketActivated: true) })
        }
        MemoryReturn.configure()
        let notifier = ServiceNotifier.system
        // Take the activated sockets first: reading them unsets LISTEN_*.
        let activated: ActivatedSocket?
        do {
            activated = try SocketActivation.socket(named: "varlink", in: SocketActivation.takeListeningSockets())
        } catch let problem as SocketActivationError {
            fail(problem.description, errno: problem.code, notifier: notifier)
            throw ExitCode(1)
        }

        let command = self
        let readSettings: @Sendable () throws -> DaemonSettings = {
            try command.daemonSettings(configPath: command.config, socketActivated: activated != nil)
        }
        let settings: DaemonSettings
        do {
            settings = try readSettings()
        } catch {
            fail("\(error)", errno: EINVAL, notifier: notifier)
            throw ExitCode(2)
        }
        do {
            try await Daemon(settings: settings, activatedSocket: activated, notifier: notifier, rereadSettings: readSettings).run()
        } catch {
            fail("\(error)", errno: StartupErrno.errno(for: error), notifier: notifier)
            throw ExitCode(1)
        }
    }

    /// The settings the options and the configuration say, read again at each `SIGHUP`.
    private func daemonSettings(configPath: String?, socketActivated: Bool) throws -> DaemonSettings {
        try DaemonSettings(
            configPath: configPath, socket: socket, stateDirectory: stateDirectory, bundles: bundles, pseudoLocales: pseudoLocales,
            logLevel: logLevel, dropInDirectories: dropInDirectories, system: system, environment: ProcessInfo.processInfo.environment,
            socketActivated: socketActivated)
    }

    /// Says why lprojd cannot run: on stderr (the journal, under systemd)
    /// and to the service manager, which shows the errno and status.
    private func fail(_ message: String, errno: Int32, notifier: ServiceNotifier) {
        FileHandle.standardError.write(Data("lprojd: \(message)\n".utf8))
        notifier.notify(.errno(errno), .status("Failed: \(message)"))
    }
}
