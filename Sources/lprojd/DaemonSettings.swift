import Foundation
import Logging
import LprojConfiguration
import LprojEngine
import LprojFiles
import LprojLocales

/// What lprojd runs with: the configuration file, then the options.
struct DaemonSettings: Sendable {

    var configuration: DaemonConfiguration
    /// Where to bind; nil only when the service manager passed the socket.
    var socketPath: String?
    var stateDirectory: String
    var logLevel: Logger.Level

    /// - Parameter socketActivated: whether the service manager passed a
    ///   listening socket, which then needs no path.
    init(
        configPath: String?, socket: String?, stateDirectory: String?, bundles: [String], pseudoLocales: Bool = false, logLevel: String?,
        environment: [String: String],
        socketActivated: Bool = false
    ) throws {
        let isRoot = getuid() == 0
        let candidates = DefaultPaths.configurationFiles(environment: environment, isRoot: isRoot)
        let path = configPath ?? candidates.first { FileManager.default.fileExists(atPath: $0) } ?? ConfigurationFile.defaultPath
        if configPath != nil || FileManager.default.fileExists(atPath: path) {
            configuration = try ConfigurationFile.read(path: path)
        } else {
            configuration = DaemonConfiguration()
        }
        for argument in bundles {
            var bundle = try Self.bundle(argument, limits: configuration.limits)
            bundle.pseudoLocales = pseudoLocales
            configuration.setBundle(bundle)
        }
        if let socket { configuration.socketPath = socket }
        if let stateDirectory { configuration.stateDirectory = stateDirectory }
        if let logLevel { configuration.logLevel = logLevel }

        let socketPath = configuration.socketPath ?? DefaultPaths.socket(environment: environment, isRoot: isRoot)
        if socketPath == nil && !socketActivated {
            throw SettingsError(description: "no socket path: pass --socket, set socket in the configuration, or set XDG_RUNTIME_DIR")
        }
        guard let state = configuration.stateDirectory ?? DefaultPaths.stateDirectory(environment: environment) else {
            throw SettingsError(description: "no state directory: pass --state-directory, or set STATE_DIRECTORY or HOME")
        }
        self.socketPath = socketPath
        self.stateDirectory = state
        let level = configuration.logLevel ?? "info"
        guard let parsed = Logger.Level(rawValue: level) else {
            throw SettingsError(description: "'\(level)' is not a log level (trace, debug, info, notice, warning, error, critical)")
        }
        self.logLevel = parsed
        if configuration.bundles.isEmpty {
            throw SettingsError(description: "no bundles to serve: add some to \(path) or pass --bundle NAME=DIR")
        }
    }

    /// What differs from `running` in ways a reload cannot apply: the
    /// socket, the state directory and the limits are fixed at start-up.
    func changesNeedingRestart(from running: DaemonSettings) -> [String] {
        var changes: [String] = []
        if socketPath != running.socketPath { changes.append("the socket path") }
        if stateDirectory != running.stateDirectory { changes.append("the state directory") }
        if configuration.countMisses != running.configuration.countMisses { changes.append("count-misses") }
        // The table file size limit is part of each bundle's configuration:
        // a reload reads every bundle again under the new one, at once.
        var runningLimits = running.configuration.limits
        runningLimits.maximumTableFileSize = configuration.limits.maximumTableFileSize
        if configuration.limits != runningLimits { changes.append("a limit other than max-table-file-size") }
        return changes
    }

    /// `NAME=DIR` or `NAME=DIR@LOCALE`. Without a locale, the development
    /// locale is `en` if the bundle has `en.lproj` (or `English.lproj`), else
    /// its first locale folder, else `en`.
    static func bundle(_ argument: String, limits: DaemonConfiguration.Limits) throws -> BundleConfiguration {
        guard let equals = argument.firstIndex(of: "=") else {
            throw SettingsError(description: "--bundle \(argument): expected NAME=DIR")
        }
        let name = String(argument[..<equals])
        var directory = String(argument[argument.index(after: equals)...])
        var development: LocaleIdentifier?
        if let at = directory.lastIndex(of: "@") {
            let text = String(directory[directory.index(after: at)...])
            do { development = try LocaleIdentifier(text) } catch { throw SettingsError(description: "--bundle \(argument): \(error)") }
            directory = String(directory[..<at])
        }
        guard BundleConfiguration.isValidName(name) else {
            throw SettingsError(description: "--bundle \(argument): '\(name)' is not a bundle name (letters, digits, '.', '_' and '-')")
        }
        guard !directory.isEmpty else { throw SettingsError(description: "--bundle \(argument): the directory is missing") }
        let absolute = URL(fileURLWithPath: directory).standardizedFileURL.path
        return BundleConfiguration(
            name: name, directory: absolute, developmentLocale: try development ?? Self.guessDevelopmentLocale(absolute),
            maximumFileSize: limits.maximumTableFileSize)
    }

    static func guessDevelopmentLocale(_ directory: String) throws -> LocaleIdentifier {
        let folders = (try? DiskFileTree().lprojFolders(in: directory)) ?? []
        if folders.contains("en.lproj") || folders.contains("English.lproj") { return try LocaleIdentifier("en") }
        for folder in folders {
            if case .locale(let locale)? = try? LprojName(folderName: folder) { return locale }
        }
        return try LocaleIdentifier("en")
    }
}

struct SettingsError: Error, CustomStringConvertible {
    let description: String
}
