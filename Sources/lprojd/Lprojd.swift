import ArgumentParser
import Foundation
import Logging
import LprojConfiguration

/// lprojd: the localization daemon.
@main
struct Lprojd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lprojd",
        abstract: "Serve Apple .lproj localization bundles over Varlink.",
        discussion: "Runs in the foreground. Options override the configuration file.",
        version: "0.1.0"
    )

    @Option(help: "The configuration file (YAML). A missing default file is fine.")
    var config: String?

    @Option(help: "The Unix socket to serve on.")
    var socket: String?

    @Option(name: .customLong("state-directory"), help: "Where to keep each client's selected locale.")
    var stateDirectory: String?

    @Option(name: .customLong("bundle"), help: ArgumentHelp("A bundle to serve, as NAME=DIR or NAME=DIR@LOCALE (the development locale). Repeatable.", valueName: "name=dir"))
    var bundles: [String] = []

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    func run() async throws {
        let settings: DaemonSettings
        do {
            settings = try DaemonSettings(
                configPath: config, socket: socket, stateDirectory: stateDirectory, bundles: bundles, logLevel: logLevel,
                environment: ProcessInfo.processInfo.environment)
        } catch {
            FileHandle.standardError.write(Data("lprojd: \(error)\n".utf8))
            throw ExitCode(2)
        }
        do {
            try await Daemon(settings: settings).run()
        } catch {
            FileHandle.standardError.write(Data("lprojd: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
