internal import ClientBudget
internal import Foundation
internal import LprojEngine

/// Reads lprojd's configuration file (YAML; see `etc/lprojd/lprojd.conf`).
package enum ConfigurationFile {

    /// The file lprojd reads when `--config` is not given.
    package static let defaultPath = "/etc/lprojd/lprojd.conf"

    /// The settings the file may hold at its top level, and in each of its
    /// `bundles` (those of `limits` are ``LimitSetting``'s). lprojd.conf(5)
    /// describes each; a test holds it to these.
    static var settings: (file: [String], bundle: [String]) {
        (FileModel.CodingKeys.allCases.map(\.rawValue), BundleEntry.CodingKeys.allCases.map(\.rawValue))
    }

    /// Reads a configuration file. Relative bundle directories are taken
    /// relative to the file's own directory.
    package static func read(path: String) throws(ConfigurationError) -> DaemonConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(file: path, message: "cannot be read")
        }
        return try parse(
            String(decoding: data, as: UTF8.self), name: path, baseDirectory: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// Parses configuration text.
    package static func parse(_ text: String, name: String, baseDirectory: String) throws(ConfigurationError) -> DaemonConfiguration {
        let document = try YAMLDocument(text, file: name)
        // A file of comments only is an empty configuration.
        guard document.root != nil else { return DaemonConfiguration() }
        let file = try document.decode(FileModel.self)
        var configuration = DaemonConfiguration()
        configuration.socketPath = file.socket
        configuration.stateDirectory = file.stateDirectory
        configuration.logLevel = file.logLevel
        configuration.countMisses = file.countMisses ?? true
        configuration.dropInDirectories = file.dropInDirectories?.map { directory in
            directory.hasPrefix("/")
                ? directory : URL(fileURLWithPath: baseDirectory).appendingPathComponent(directory).standardizedFileURL.path
        }
        if let limits = file.limits {
            configuration.limits = try self.limits(limits, document: document)
        }
        var names: Set<String> = []
        for (index, bundle) in (file.bundles ?? []).enumerated() {
            let path: [any CodingKey] = [FileModel.CodingKeys.bundles, AnyKey(intValue: index)!]
            guard let bundleName = bundle.name else { throw document.error(at: path, "'name' is missing") }
            let bundleConfiguration = try bundle.configuration(
                named: bundleName, document: document, path: path, baseDirectory: baseDirectory,
                limits: configuration.limits.bundle)
            guard names.insert(bundleName).inserted else {
                throw document.error(at: path + [BundleEntry.CodingKeys.name], "the bundle '\(bundleName)' is defined twice")
            }
            configuration.bundles.append(bundleConfiguration)
        }
        return configuration
    }

    /// The `limits:` section: every limit lprojd enforces, by name.
    private static func limits(_ model: [String: ByteCount], document: YAMLDocument) throws(ConfigurationError)
        -> DaemonConfiguration.Limits
    {
        var limits = DaemonConfiguration.Limits()
        for (key, value) in model.sorted(by: { $0.key < $1.key }) {
            let path: [any CodingKey] = [FileModel.CodingKeys.limits, AnyKey(stringValue: key)]
            guard let setting = LimitSetting(rawValue: key) else {
                throw document.error(
                    at: path, key: true,
                    "unknown setting '\(key)' (the limits are: \(LimitSetting.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard let bytes = value.bytes else {
                throw document.error(at: path, "'\(value.text)' is not a number (a count, or bytes such as 16 MiB)")
            }
            guard bytes > 0 else { throw document.error(at: path, "must be a positive number") }
            setting.apply(bytes, to: &limits)
        }
        // A connection's cost follows from the connections a uid may open.
        limits.budget.perUID[.connections] = limits.service.server.maximumConnectionsPerUID * BudgetLimits.connectionCost
        limits.budget.total[.connections] = limits.service.server.maximumConnections * BudgetLimits.connectionCost
        return limits
    }

    /// The file as written; every field optional.
    private struct FileModel: Decodable {
        var socket: String?
        var stateDirectory: String?
        var logLevel: String?
        var countMisses: Bool?
        var dropInDirectories: [String]?
        var bundles: [BundleEntry]?
        var limits: [String: ByteCount]?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case socket, bundles, limits
            case stateDirectory = "state-directory"
            case logLevel = "log-level"
            case countMisses = "count-misses"
            case dropInDirectories = "drop-in-directories"
        }

        init(from decoder: any Decoder) throws {
            try decoder.container(keyedBy: AnyKey.self).refuseUnknownKeys(but: CodingKeys.self)
            let known = try decoder.container(keyedBy: CodingKeys.self)
            socket = try known.decodeIfPresent(String.self, forKey: .socket)
            stateDirectory = try known.decodeIfPresent(String.self, forKey: .stateDirectory)
            logLevel = try known.decodeIfPresent(String.self, forKey: .logLevel)
            countMisses = try known.decodeIfPresent(Bool.self, forKey: .countMisses)
            dropInDirectories = try known.decodeIfPresent([String].self, forKey: .dropInDirectories)
            bundles = try known.decodeIfPresent([BundleEntry].self, forKey: .bundles)
            limits = try known.decodeIfPresent([String: ByteCount].self, forKey: .limits)
        }
    }
}
