internal import ClientBudget
internal import Foundation
internal import LprojEngine
internal import LprojLocales
internal import Yams

/// Reads lprojd's configuration file (YAML; see `etc/lprojd/lprojd.conf`).
package enum ConfigurationFile {

    /// The file lprojd reads when `--config` is not given.
    package static let defaultPath = "/etc/lprojd/lprojd.conf"

    /// The settings the file may hold at its top level, and in each of its
    /// `bundles` (those of `limits` are ``LimitSetting``'s). lprojd.conf(5)
    /// describes each; a test holds it to these.
    static var settings: (file: [String], bundle: [String]) {
        (FileModel.CodingKeys.allCases.map(\.rawValue), BundleModel.CodingKeys.allCases.map(\.rawValue))
    }

    /// Reads a configuration file. Relative bundle directories are taken
    /// relative to the file's own directory.
    package static func read(path: String) throws(ConfigurationError) -> DaemonConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(description: "\(path): cannot be read")
        }
        return try parse(
            String(decoding: data, as: UTF8.self), name: path, baseDirectory: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// Parses configuration text.
    package static func parse(_ text: String, name: String, baseDirectory: String) throws(ConfigurationError) -> DaemonConfiguration {
        let file: FileModel
        do {
            // A file of comments only is an empty configuration.
            guard try Yams.compose(yaml: text) != nil else { return DaemonConfiguration() }
            file = try YAMLDecoder().decode(FileModel.self, from: text)
        } catch let error as DecodingError {
            throw ConfigurationError(description: "\(name): \(describe(error))")
        } catch {
            throw ConfigurationError(description: "\(name): \(error)")
        }
        var configuration = DaemonConfiguration()
        configuration.socketPath = file.socket
        configuration.stateDirectory = file.stateDirectory
        configuration.logLevel = file.logLevel
        configuration.countMisses = file.countMisses ?? true
        if let limits = file.limits {
            configuration.limits = try self.limits(limits, name: name)
        }
        var names: Set<String> = []
        for (index, bundle) in (file.bundles ?? []).enumerated() {
            let place = "bundles[\(index)]"
            guard BundleConfiguration.isValidName(bundle.name) else {
                throw ConfigurationError(
                    description: "\(name): \(place).name '\(bundle.name)' is not a bundle name (letters, digits, '.', '_' and '-')")
            }
            guard names.insert(bundle.name).inserted else {
                throw ConfigurationError(description: "\(name): \(place): the bundle '\(bundle.name)' is defined twice")
            }
            let directory =
                bundle.directory.hasPrefix("/")
                ? bundle.directory : URL(fileURLWithPath: baseDirectory).appendingPathComponent(bundle.directory).standardizedFileURL.path
            let development: LocaleIdentifier
            do {
                development = try LocaleIdentifier(bundle.developmentLocale ?? "en")
            } catch {
                throw ConfigurationError(description: "\(name): \(place).development-locale: \(error)")
            }
            var custom: [String: LocaleIdentifier] = [:]
            for (given, standard) in bundle.customLocales ?? [:] {
                do {
                    let key = try LocaleIdentifier(given)
                    let target = try LocaleIdentifier(standard)
                    guard KnownLocales.isKnown(target) else {
                        throw ConfigurationError(
                            description: "\(name): \(place).custom-locales.\(given): '\(standard)' is not a standard locale")
                    }
                    custom[key.tag] = target
                } catch let problem as ConfigurationError {
                    throw problem
                } catch {
                    throw ConfigurationError(description: "\(name): \(place).custom-locales.\(given): \(error)")
                }
            }
            var bundleConfiguration = BundleConfiguration(
                name: bundle.name, directory: directory, developmentLocale: development, customLocales: custom,
                maximumFileSize: configuration.limits.maximumTableFileSize)
            if let conflicts = bundle.catalogConflicts {
                guard let conflict = CatalogConflict(rawValue: conflicts) else {
                    throw ConfigurationError(
                        description:
                            "\(name): \(place).catalog-conflicts: '\(conflicts)' is not one of \(CatalogConflict.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                }
                bundleConfiguration.catalogConflict = conflict
            }
            bundleConfiguration.catalogAllStates = bundle.catalogAllStates ?? false
            bundleConfiguration.pseudoLocales = bundle.pseudoLocales ?? false
            configuration.bundles.append(bundleConfiguration)
        }
        return configuration
    }

    private static func positive(_ value: Int, _ key: String, _ name: String) throws(ConfigurationError) -> Int {
        guard value > 0 else { throw ConfigurationError(description: "\(name): \(key) must be a positive number") }
        return value
    }

    /// The `limits:` section: every limit lprojd enforces, by name.
    private static func limits(_ model: [String: ByteCount], name: String) throws(ConfigurationError) -> DaemonConfiguration.Limits {
        var limits = DaemonConfiguration.Limits()
        for (key, value) in model {
            let path = "limits.\(key)"
            guard let setting = LimitSetting(rawValue: key) else {
                throw ConfigurationError(
                    description:
                        "\(name): \(path): unknown setting '\(key)' (the limits are: \(LimitSetting.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            guard let bytes = value.bytes else {
                throw ConfigurationError(
                    description: "\(name): \(path): '\(value.text)' is not a number (a count, or bytes such as 16 MiB)")
            }
            let amount = try positive(bytes, path, name)
            setting.apply(amount, to: &limits)
        }
        // A connection's cost follows from the connections a uid may open.
        limits.budget.perUID[.connections] = limits.maximumConnectionsPerUID * BudgetLimits.connectionCost
        limits.budget.total[.connections] = limits.maximumConnections * BudgetLimits.connectionCost
        return limits
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(
                in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context).isEmpty ? "" : path(context) + ": ")'\(key.stringValue)' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { "\($0)" } ?? context.debugDescription
            return path(context).isEmpty ? underlying : "\(path(context)): \(underlying)"
        @unknown default:
            return "\(error)"
        }
    }

    /// The file as written; every field optional except where noted.
    private struct FileModel: Decodable {
        var socket: String?
        var stateDirectory: String?
        var logLevel: String?
        var countMisses: Bool?
        var bundles: [BundleModel]?
        var limits: [String: ByteCount]?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case socket, bundles, limits
            case stateDirectory = "state-directory"
            case logLevel = "log-level"
            case countMisses = "count-misses"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            for key in container.allKeys where CodingKeys(rawValue: key.stringValue) == nil {
                throw DecodingError.dataCorrupted(.init(codingPath: [key], debugDescription: "unknown setting '\(key.stringValue)'"))
            }
            let known = try decoder.container(keyedBy: CodingKeys.self)
            socket = try known.decodeIfPresent(String.self, forKey: .socket)
            stateDirectory = try known.decodeIfPresent(String.self, forKey: .stateDirectory)
            logLevel = try known.decodeIfPresent(String.self, forKey: .logLevel)
            countMisses = try known.decodeIfPresent(Bool.self, forKey: .countMisses)
            bundles = try known.decodeIfPresent([BundleModel].self, forKey: .bundles)
            limits = try known.decodeIfPresent([String: ByteCount].self, forKey: .limits)
        }
    }

    private struct BundleModel: Decodable {
        var name: String
        var directory: String
        var developmentLocale: String?
        var customLocales: [String: String]?
        var catalogConflicts: String?
        var catalogAllStates: Bool?
        var pseudoLocales: Bool?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, directory
            case developmentLocale = "development-locale"
            case customLocales = "custom-locales"
            case catalogConflicts = "catalog-conflicts"
            case catalogAllStates = "catalog-all-states"
            case pseudoLocales = "pseudo-locales"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            for key in container.allKeys where CodingKeys(rawValue: key.stringValue) == nil {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath + [key], debugDescription: "unknown setting '\(key.stringValue)'"))
            }
            let known = try decoder.container(keyedBy: CodingKeys.self)
            name = try known.decode(String.self, forKey: .name)
            directory = try known.decode(String.self, forKey: .directory)
            developmentLocale = try known.decodeIfPresent(String.self, forKey: .developmentLocale)
            customLocales = try known.decodeIfPresent([String: String].self, forKey: .customLocales)
            catalogConflicts = try known.decodeIfPresent(String.self, forKey: .catalogConflicts)
            catalogAllStates = try known.decodeIfPresent(Bool.self, forKey: .catalogAllStates)
            pseudoLocales = try known.decodeIfPresent(Bool.self, forKey: .pseudoLocales)
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) {
            self.stringValue = String(intValue)
            self.intValue = intValue
        }
    }
}

/// A configuration that cannot be used, with what is wrong and where.
package struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String
}
