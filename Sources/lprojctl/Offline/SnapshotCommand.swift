import ArgumentParser
import Foundation
import LprojEngine
import LprojFiles
import LprojLocales
import LprojSnapshot

/// `lprojctl snapshot DIR -o OUT`: the snapshots an app ships in its package.
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Write a bundle's snapshots (one file per locale) for an app to ship, or check snapshot files.",
        discussion: """
            Each locale's snapshot, OUT/LOCALE.lprojsnap, holds the bundle's every
            table as lprojd resolves it for that locale (docs/snapshot-format.md). A
            localizer given OUT as its fallback directory serves them, plurals and
            formats included, when lprojd is not running. The same bundle always
            gives the same bytes. With --check, each file given is read and checked
            whole (its checksum, every entry, its index).
            """
    )

    @Argument(help: "The bundle directory (with --check: snapshot files).") var paths: [String]
    @Option(name: [.short, .customLong("output")], help: "The folder to write the snapshots in (made if missing).") var output: String?
    @Option(name: .customLong("locale"), help: "Write only this locale's snapshot (repeatable; default: every locale of the bundle).")
    var locales: [String] = []
    @Option(name: .customLong("development-locale"), help: "The locale the keys are written in (default: en, else the first folder's).")
    var developmentLocale: String?
    @Option(help: "The bundle's name, as lprojd serves it (default: the directory's name).") var name: String?
    @Flag(help: "Check the snapshot files given instead of writing any.") var check = false

    func run() throws {
        if check {
            for path in paths {
                let snapshot: Snapshot
                do {
                    snapshot = try Snapshot.open(path: path)  // its errors name the file
                } catch {
                    throw CommandError("\(error)")
                }
                do {
                    try snapshot.verify()
                } catch {
                    throw CommandError("\(path): \(error)")
                }
                Output.write(
                    Data(
                        "\(path): \(snapshot.bundle) \(snapshot.locale), \(snapshot.entryCount) entries, generation \(snapshot.generation)"
                            .utf8))
            }
            return
        }
        guard paths.count == 1, let directory = paths.first else { throw ValidationError("give one bundle directory") }
        guard let output else { throw ValidationError("say where to write the snapshots: -o DIR") }
        let (path, development) = try BundleFiles.bundleDirectory(directory, developmentLocale: developmentLocale)
        let bundleName = name ?? URL(fileURLWithPath: path).lastPathComponent
        let bundle = BundleLoader().load(BundleConfiguration(name: bundleName, directory: path, developmentLocale: development))
        for report in bundle.fileReports {
            for diagnostic in report.errors { Output.note("\(report.path): \(diagnostic.message)") }
        }
        if bundle.localizations.isEmpty && bundle.stringCatalogs.isEmpty {
            throw CommandError("\(directory): no .lproj folder or String Catalog to snapshot")
        }
        let wanted = locales.isEmpty ? bundle.supportedLocales.map(\.tag) : locales
        var writes: [(path: String, bytes: [UInt8])] = []
        for locale in wanted {
            let resolved: ResolvedLocale
            do {
                resolved = try bundle.resolve(locale: locale)
            } catch {
                throw CommandError("\(locale): \(error)")
            }
            let bytes = try SnapshotWriter.bytes(of: SnapshotContent(bundle: bundle, locale: resolved))
            writes.append(("\(output)/\(resolved.locale.tag).lprojsnap", bytes))
        }
        // Renamed into place whole, all together: an app that has an old one mapped keeps it.
        try BundleFiles.writeAtomically(writes)
        for write in writes { Output.write(Data("\(write.path): \(write.bytes.count) bytes".utf8)) }
    }
}
