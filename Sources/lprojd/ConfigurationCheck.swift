import Foundation
import LprojConfiguration

/// `lprojd --check-config`: the configuration and every drop-in read as
/// lprojd would read them, as `nginx -t` does. Each problem goes to stderr,
/// an error as `file:line:column: message`, a warning as `file: warning:
/// message`; then stdout says what lprojd would serve, and from where.
enum ConfigurationCheck {
    /// Checks; returns the exit status: 1 when there is an error, else 0.
    static func run(_ readSettings: () throws -> DaemonSettings) -> Int32 {
        let settings: DaemonSettings
        do {
            settings = try readSettings()
        } catch {
            report("\(error)")
            return 1
        }
        let dropIns = DropIns.read(directories: settings.dropInDirectories, reader: settings.dropInReader)
        let (errors, refused) = dropIns.problems
        let (bundles, unused) = dropIns.resolve(configured: settings.configuredBundles)
        var warnings = refused + unused
        for bundle in bundles where !isDirectory(bundle.configuration.directory) {
            warnings.append(
                ConfigurationWarning(
                    file: bundle.source,
                    message:
                        "the bundle '\(bundle.name)' has no directory \(bundle.configuration.directory) yet (it is served once there is)"
                ))
        }
        for error in errors { report("\(error)") }
        for warning in warnings { report("\(warning.file): warning: \(warning.message)") }

        var summary = "\(bundles.count) bundle\(bundles.count == 1 ? "" : "s")"
        summary += ", read from \(settings.configurationPath ?? "no configuration file")"
        summary +=
            " and \(settings.dropInDirectories.isEmpty ? "no drop-in directory" : settings.dropInDirectories.joined(separator: ", "))\n"
        for bundle in bundles.sorted(by: { $0.name < $1.name }) { summary += "  \(bundle.name) from \(bundle.source)\n" }
        summary +=
            errors.isEmpty ? "the configuration is fine" : "the configuration has \(errors.count) error\(errors.count == 1 ? "" : "s")"
        summary += warnings.isEmpty ? "\n" : " (\(warnings.count) warning\(warnings.count == 1 ? "" : "s"))\n"
        FileHandle.standardOutput.write(Data(summary.utf8))
        return errors.isEmpty ? 0 : 1
    }

    private static func report(_ line: String) {
        FileHandle.standardError.write(Data("\(line)\n".utf8))
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
