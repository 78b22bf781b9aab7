import Foundation
import Logging
import LprojConfiguration
import LprojEngine
import LprojFiles
import LprojLocales

/// What lprojd runs with: the configuration file, then the options, and
/// where to find drop-in bundle files.
struct DaemonSettings: Sendable {

    var configuration: DaemonConfiguration
    /// The file read, if any.
    var configurationPath: String?
    /// The bundles of the file and of `--bundle`, each with where it is
    /// defined; drop-ins come on top (``DropIns``).
    var configuredBundles: [SourcedBundle]
    /// The system's lprojd, or a user's.
    var instance: DaemonInstance
    /// The drop-in directories, the one that wins first.
    var dropInDirectories: [String]
    /// How drop-in files are read, and whose are taken.
    var dropInReader: DropInReader
    /// Where to bind; nil only when the service manager passed the socket.
    var socketPath: String?
    var stateDirectory: String
    /// Where snapshots are written (`GetSnapshot`); nil: none are.
    var snapshotDirectory: String?
    var logLevel: Logger.Level

    /// - Parameters:
    ///   - dropInDirectories: `--drop-in-directory`, if given: they replace
    ///     the configuration's and the defaults.
    ///   - system: `--system`: the system's lprojd even when not root (the
    ///     system unit runs it as a dynamic user).
    ///   - socketActivated: whether the service manager passed a
    ///     listening socket, which then needs no path.
    init(
        configPath: String?, socket: String?, stateDirectory: String?, bundles: [String], pseudoLocales: Bool = false, logLevel: String?,
        dropInDirectories: [String] = [], system: Bool = false, environment: [String: String], socketActivated: Bool = false
    ) throws {
        let instance = DaemonInstance.of(uid: getuid(), system: system)
        self.instance = instance
        let candidates = DefaultPaths.configurationFiles(environment: environment, instance: instance)
        let path = configPath ?? candidates.first { FileManager.default.fileExists(atPath: $0) } ?? ConfigurationFile.defaultPath
        if configPath != nil || FileManager.default.fileExists(atPath: path) {
            configuration = try ConfigurationFile.read(path: path)
            configurationPath = path
        } else {
            configuration = DaemonConfiguration()
        }
        var sources = Dictionary(configuration.bundles.map { ($0.name, path) }, uniquingKeysWith: { $1 })
        for argument in bundles {
            var bundle = try Self.bundle(argument, limits: configuration.limits)
            bundle.pseudoLocales = pseudoLocales
            configuration.setBundle(bundle)
            sources[bundle.name] = "--bundle"
        }
        configuredBundles = configuration.bundles.map { SourcedBundle($0, source: sources[$0.name] ?? path) }
        if let socket { configuration.socketPath = socket }
        if let stateDirectory { configuration.stateDirectory = stateDirectory }
        if let logLevel { configuration.logLevel = logLevel }
        let given = dropInDirectories.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        var seen: Set<String> = []
        self.dropInDirectories =
            (given.isEmpty
            ? configuration.dropInDirectories ?? DefaultPaths.dropInDirectories(environment: environment, instance: instance)
            : given).filter { seen.insert($0).inserted }
        dropInReader = DropInReader(trust: DropInTrust(instance: instance), bundleLimits: configuration.limits.bundle)

        let socketPath = configuration.socketPath ?? DefaultPaths.socket(environment: environment, instance: instance)
        if socketPath == nil && !socketActivated {
            throw SettingsError(description: "no socket path: pass --socket, set socket in the configuration, or set XDG_RUNTIME_DIR")
        }
        guard let state = configuration.stateDirectory ?? DefaultPaths.stateDirectory(environment: environment) else {
            throw SettingsError(description: "no state directory: pass --state-directory, or set STATE_DIRECTORY or HOME")
        }
        self.socketPath = socketPath
        self.stateDirectory = state
        self.snapshotDirectory = DefaultPaths.snapshotDirectory(environment: environment)
        let level = configuration.logLevel ?? "info"
        guard let parsed = Logger.Level(rawValue: level) else {
            throw SettingsError(description: "'\(level)' is not a log level (trace, debug, info, notice, warning, error, critical)")
        }
        self.logLevel = parsed
        // With drop-in directories, lprojd may start with no bundle: a
        // package may drop one in later.
        if configuredBundles.isEmpty && self.dropInDirectories.isEmpty {
            throw SettingsError(
                description: "no bundles to serve: add some to \(path), pass --bundle NAME=DIR, or leave drop-in directories on")
        }
    }

    /// What differs from `running` in ways a reload cannot apply: the
    /// socket, the state directory and the limits are fixed at start-up.
    func changesNeedingRestart(from running: DaemonSettings) -> [String] {
        var changes: [String] = []
        if socketPath != running.socketPath { changes.append("the socket path") }
        if stateDirectory != running.stateDirectory { changes.append("the state directory") }
        if configuration.countMisses != running.configuration.countMisses { changes.append("count-misses") }
        // The bundles' limits are part of each bundle's configuration: a
        // reload reads every bundle again under the new ones, at once.
        var runningLimits = running.configuration.limits
        runningLimits.bundle = configuration.limits.bundle
        if configuration.limits != runningLimits { changes.append("a limit other than max-table-file-size and max-bundle-*") }
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
        var bundle = BundleConfiguration(
            name: name, directory: absolute, developmentLocale: try development ?? Self.guessDevelopmentLocale(absolute))
        bundle.limits = limits.bundle
        return bundle
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
