internal import Foundation
package import Logging
package import LprojEngine
package import LprojFiles
internal import LprojTables
internal import LprojWatch
package import ServiceLifecycle

/// Follows the bundles on disk with inotify and publishes every change.
///
/// It watches each bundle directory (for `.lproj` folders that appear or
/// vanish, and String Catalogs at its top level), each folder (for tables
/// written in place, renamed over, created or deleted), the other folders a
/// bundle's String Catalogs may be in (``StringCatalogFiles``), and each
/// bundle's parent (so that a deleted bundle directory is noticed when it
/// comes back). A batch of events becomes one reload of
/// only what changed; the new snapshot is published first, and only then
/// are subscribers told, so a lookup made on receipt sees the new strings.
/// On `IN_Q_OVERFLOW` everything is read again.
package actor CatalogWatcher: Service {
    private enum Target: Hashable {
        case bundle(String)
        case folder(bundle: String, folder: String)
        /// A folder other than a top-level `.lproj` one, watched for String
        /// Catalogs; its path is relative to the bundle directory.
        case catalogFolder(bundle: String, path: String)
        case parent(bundle: String, child: String)
    }

    private let catalog: Catalog
    private let hub: any EventSink
    private let loader: BundleLoader
    private let logger: Logger
    private let inotify: InotifyWatcher
    private var targets: [Int32: Set<Target>] = [:]
    private var watches: [Target: Int32] = [:]
    private var configurations: [String: BundleConfiguration]
    /// Table files deleted or created and not yet whole (``SettlingFiles``).
    private var settling = Settling()
    private typealias Settling = SettlingFiles<ContinuousClock.Instant>
    /// Wakes the loop that reads settling files when their wait ends.
    private let settlingChanged = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))

    private static let bundleMask: InotifyMask = [
        .closeWrite, .create, .delete, .movedFrom, .movedTo, .deleteSelf, .moveSelf, .onlyDirectory,
    ]
    private static let folderMask: InotifyMask = [
        .closeWrite, .modify, .movedTo, .movedFrom, .delete, .create, .deleteSelf, .moveSelf, .onlyDirectory,
    ]
    private static let parentMask: InotifyMask = [.create, .movedTo, .onlyDirectory]

    /// Creates the watcher and puts its watches in place at once: create it
    /// before loading the catalog, so that a change made while the bundles
    /// are read waits in inotify's queue instead of being missed.
    package init(
        catalog: Catalog, events hub: any EventSink, configurations: [BundleConfiguration], loader: BundleLoader = BundleLoader(),
        logger: Logger
    ) throws {
        self.catalog = catalog
        self.hub = hub
        self.loader = loader
        self.logger = logger
        let inotify = try InotifyWatcher()
        self.inotify = inotify
        self.configurations = Dictionary(uniqueKeysWithValues: configurations.map { ($0.name, $0) })
        var registry = WatchRegistry(inotify: inotify, files: loader.files, logger: logger)
        for configuration in configurations { registry.watch(configuration) }
        self.targets = registry.targets
        self.watches = registry.watches
    }

    package func run() async throws {
        let inotify = self.inotify
        let settlingChanged = self.settlingChanged.continuation
        await withTaskCancellationOrGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.readSettledFiles() }
                for await batch in inotify.events {
                    await self.handle(batch)
                }
                // Stopping: files still settling are not waited for.
                settlingChanged.finish()
                group.cancelAll()
            }
        } onCancelOrGracefulShutdown: {
            inotify.close()
            settlingChanged.finish()
        }
    }

    /// Reads each settling file once its wait is over. A wait that begins
    /// while this one sleeps is at most ``SettlingFiles/returnGrace`` late.
    private func readSettledFiles() async {
        for await _ in settlingChanged.stream {
            while let deadline = settling.nextDeadline {
                let wake = min(deadline, ContinuousClock.now.advanced(by: settling.returnGrace))
                do { try await Task.sleep(until: wake, clock: .continuous) } catch { return }
                var changes: [String: BundleChanges] = [:]
                for file in settling.expired(at: .now) {
                    changes[file.bundle, default: BundleChanges()].file(file.name, in: file.folder)
                }
                apply(changes)
            }
        }
    }

    // MARK: Watches

    private func watch(_ configuration: BundleConfiguration) {
        var registry = WatchRegistry(inotify: inotify, files: loader.files, logger: logger, targets: targets, watches: watches)
        registry.watch(configuration)
        (targets, watches) = (registry.targets, registry.watches)
    }

    private func add(_ target: Target, path: String, mask: InotifyMask) {
        var registry = WatchRegistry(inotify: inotify, files: loader.files, logger: logger, targets: targets, watches: watches)
        registry.add(target, path: path, mask: mask)
        (targets, watches) = (registry.targets, registry.watches)
    }

    private func remove(_ target: Target) {
        var registry = WatchRegistry(inotify: inotify, files: loader.files, logger: logger, targets: targets, watches: watches)
        registry.remove(target)
        (targets, watches) = (registry.targets, registry.watches)
    }

    private func unwatch(bundle name: String, keepingParent: Bool) {
        for target in watches.keys {
            switch target {
            case .bundle(let bundle) where bundle == name: remove(target)
            case .folder(let bundle, _) where bundle == name: remove(target)
            case .catalogFolder(let bundle, _) where bundle == name: remove(target)
            case .parent(let bundle, _) where bundle == name && !keepingParent: remove(target)
            default: break
            }
        }
    }

    /// The bookkeeping of watches: which descriptor watches what.
    private struct WatchRegistry {
        let inotify: InotifyWatcher
        let files: any FileTree
        let logger: Logger
        var targets: [Int32: Set<Target>] = [:]
        var watches: [Target: Int32] = [:]

        mutating func add(_ target: Target, path: String, mask: InotifyMask) {
            guard watches[target] == nil else { return }
            do {
                let watch = try inotify.add(path: path, mask: mask)
                watches[target] = watch
                targets[watch, default: []].insert(target)
            } catch {
                logger.debug("not watching \(path): \(error)")
            }
        }

        mutating func remove(_ target: Target) {
            guard let watch = watches.removeValue(forKey: target) else { return }
            targets[watch]?.remove(target)
            if targets[watch]?.isEmpty ?? false {
                targets[watch] = nil
                inotify.remove(watch: watch)
            }
        }

        mutating func watch(_ configuration: BundleConfiguration) {
            let directory = URL(fileURLWithPath: configuration.directory, isDirectory: true)
            add(
                .parent(bundle: configuration.name, child: directory.lastPathComponent), path: directory.deletingLastPathComponent().path,
                mask: CatalogWatcher.parentMask)
            add(.bundle(configuration.name), path: directory.path, mask: CatalogWatcher.bundleMask)
            let folders = (try? files.lprojFolders(in: directory.path)) ?? []
            for folder in folders {
                add(
                    .folder(bundle: configuration.name, folder: folder), path: directory.appendingPathComponent(folder).path,
                    mask: CatalogWatcher.folderMask)
            }
            for path in files.catalogFolders(in: directory.path) where !path.isEmpty && !folders.contains(path) {
                add(
                    .catalogFolder(bundle: configuration.name, path: path), path: directory.appendingPathComponent(path).path,
                    mask: CatalogWatcher.folderMask)
            }
        }
    }

    // MARK: Events

    func handle(_ batch: [InotifyEvent]) {
        var changes: [String: BundleChanges] = [:]
        for event in batch {
            if event.mask.contains(.queueOverflow) {
                logger.warning("inotify's queue overflowed; reading every bundle again")
                for name in configurations.keys {
                    changes[name, default: BundleChanges()].everything = true
                    unwatch(bundle: name, keepingParent: true)
                    if let configuration = configurations[name] { watch(configuration) }
                }
                continue
            }
            for target in targets[event.watch] ?? [] {
                note(event, for: target, into: &changes)
            }
            if event.mask.contains(.ignored), let gone = targets.removeValue(forKey: event.watch) {
                for target in gone { watches[target] = nil }
            }
        }
        apply(changes)
    }

    private func note(_ event: InotifyEvent, for target: Target, into changes: inout [String: BundleChanges]) {
        switch target {
        case .bundle(let name):
            if event.mask.contains(.deleteSelf) || event.mask.contains(.moveSelf) {
                logger.warning("the bundle directory is gone", metadata: ["bundle.name": "\(name)"])
                unwatch(bundle: name, keepingParent: true)
                changes[name, default: BundleChanges()].everything = true
            } else if StringCatalogFiles.tableName(of: event.name) != nil {
                if !event.mask.contains(.create) { changes[name, default: BundleChanges()].stringCatalog(event.name) }
            } else if event.mask.contains(.isDirectory) && !event.name.hasSuffix(".lproj") {
                subfolderCameOrWent(event.name, bundle: name, into: &changes)
            } else if event.name.hasSuffix(".lproj") {
                changes[name, default: BundleChanges()].folder(event.name)
                if event.mask.contains(.create) || event.mask.contains(.movedTo) {
                    // Catalogs in folders below it are watched as well.
                    subfolderCameOrWent(event.name, bundle: name, into: &changes)
                }
                let folderTarget = Target.folder(bundle: name, folder: event.name)
                if event.mask.contains(.create) || event.mask.contains(.movedTo), let configuration = configurations[name] {
                    remove(folderTarget)
                    add(
                        folderTarget, path: URL(fileURLWithPath: configuration.directory).appendingPathComponent(event.name).path,
                        mask: Self.folderMask)
                } else if event.mask.contains(.delete) || event.mask.contains(.movedFrom) {
                    remove(folderTarget)
                }
            }
        case .folder(let name, let folder):
            if event.mask.contains(.deleteSelf) || event.mask.contains(.moveSelf) {
                changes[name, default: BundleChanges()].folder(folder)
            } else if TableFileKind(fileName: event.name) != nil {
                // A file is read when its writer closes it or renames it into
                // place, never half-written at its creation, nor missing
                // while it is being rewritten (``SettlingFiles``).
                let file = Settling.File(bundle: name, folder: folder, name: event.name)
                if event.mask.contains(.movedTo) {
                    settling.settled(file)
                    changes[name, default: BundleChanges()].file(event.name, in: folder)
                } else {
                    if event.mask.contains(.create) || event.mask.contains(.modify) {
                        settling.beingWritten(file, at: .now)
                    } else if event.mask.contains(.delete) || event.mask.contains(.movedFrom) {
                        settling.vanished(file, at: .now)
                    } else if event.mask.contains(.closeWrite) {
                        settling.closed(file, at: .now)
                    }
                    settlingChanged.continuation.yield()
                }
            } else if StringCatalogFiles.tableName(of: event.name) != nil, !event.mask.contains(.create), !event.mask.contains(.modify) {
                // Read when closed or renamed into place, not at each write.
                changes[name, default: BundleChanges()].stringCatalog("\(folder)/\(event.name)")
            } else if event.mask.contains(.isDirectory) {
                subfolderCameOrWent("\(folder)/\(event.name)", bundle: name, into: &changes)
            }
        case .catalogFolder(let name, let path):
            if event.mask.contains(.deleteSelf) || event.mask.contains(.moveSelf) {
                changes[name, default: BundleChanges()].stringCatalog(path)
            } else if StringCatalogFiles.tableName(of: event.name) != nil, !event.mask.contains(.create), !event.mask.contains(.modify) {
                changes[name, default: BundleChanges()].stringCatalog("\(path)/\(event.name)")
            } else if event.mask.contains(.isDirectory) {
                subfolderCameOrWent("\(path)/\(event.name)", bundle: name, into: &changes)
            }
        case .parent(let name, let child):
            guard event.name == child, event.mask.contains(.create) || event.mask.contains(.movedTo),
                let configuration = configurations[name]
            else { return }
            logger.info("the bundle directory is back", metadata: ["bundle.name": "\(name)"])
            unwatch(bundle: name, keepingParent: true)
            watch(configuration)
            changes[name, default: BundleChanges()].everything = true
        }
    }

    /// A folder appeared in a bundle or vanished from it: watch what is
    /// there now, and look for catalogs again (the path, which names no
    /// catalog, makes the loader search).
    private func subfolderCameOrWent(_ path: String, bundle name: String, into changes: inout [String: BundleChanges]) {
        if let configuration = configurations[name] { watch(configuration) }
        changes[name, default: BundleChanges()].stringCatalog(path)
    }

    /// Reloads what changed, publishes it, then tells subscribers.
    private func apply(_ changes: [String: BundleChanges]) {
        for (name, bundleChanges) in changes where bundleChanges.everything { settling.forget(bundle: name) }
        let snapshot = catalog.snapshot
        var updated: [LoadedBundle] = []
        var summaries: [(String, ReloadSummary, wasMissing: Bool, isMissing: Bool)] = []
        for (name, bundleChanges) in changes where !bundleChanges.isEmpty {
            guard let previous = snapshot.bundles[name] else { continue }
            let (bundle, summary) = loader.update(previous, with: bundleChanges)
            updated.append(bundle)
            summaries.append((name, summary, Self.isMissing(previous), Self.isMissing(bundle)))
        }
        guard !updated.isEmpty else { return }
        let generation = catalog.publish(updated)
        for (name, summary, wasMissing, isMissing) in summaries {
            announce(summary, bundle: name, generation: generation, wasMissing: wasMissing, isMissing: isMissing)
        }
    }

    private static func isMissing(_ bundle: LoadedBundle) -> Bool {
        bundle.problems.contains { $0.code == "bundle-missing" }
    }

    private func announce(_ summary: ReloadSummary, bundle name: String, generation: Int, wasMissing: Bool, isMissing: Bool) {
        if isMissing != wasMissing {
            hub.publish(
                .bundleChanged(
                    bundle: name, generation: generation,
                    message: isMissing ? "the bundle directory is gone" : "the bundle directory is back"))
        }
        if !summary.addedLocales.isEmpty || !summary.removedLocales.isEmpty {
            hub.publish(.localesChanged(bundle: name, added: summary.addedLocales, removed: summary.removedLocales, generation: generation))
        }
        if !summary.tables.isEmpty {
            let tables = summary.tables.sorted(), locales = summary.locales.sorted()
            hub.publish(.tablesChanged(bundle: name, tables: tables, locales: locales, generation: generation))
            logger.info(
                "reloaded \(tables.joined(separator: ", ")) (\(locales.joined(separator: ", ")))",
                metadata: ["bundle.name": "\(name)", "generation": "\(generation)"])
        }
        for report in summary.reports {
            for diagnostic in report.errors {
                hub.publish(
                    .tableError(
                        bundle: name, file: report.path, line: diagnostic.location?.line, column: diagnostic.location?.column,
                        message: diagnostic.message, generation: generation))
                logger.error(
                    "\(report.path)\(diagnostic.location.map { ":\($0)" } ?? ""): \(diagnostic.message)\(report.failed ? "; keeping its last good version" : "")",
                    metadata: ["bundle.name": "\(name)"])
            }
        }
    }

    // MARK: Requests

    /// Returns at once. The watchdog calls it to prove that this actor, which
    /// applies every reload, is not stuck.
    package func checkIn() {}

    /// Reads bundles again from scratch (all, or one); returns them.
    package func reload(bundle: String?) -> [LoadedBundle] {
        var changes: [String: BundleChanges] = [:]
        for name in configurations.keys where bundle == nil || bundle == name {
            var everything = BundleChanges()
            everything.everything = true
            changes[name] = everything
            unwatch(bundle: name, keepingParent: true)
            if let configuration = configurations[name] { watch(configuration) }
        }
        apply(changes)
        let snapshot = catalog.snapshot
        return changes.keys.sorted().compactMap { snapshot.bundles[$0] }
    }

    /// Serves a new set of bundles (a configuration reload): new ones are
    /// loaded, removed ones dropped, changed ones read again.
    package func reconfigure(_ newConfigurations: [BundleConfiguration]) {
        let incoming = Dictionary(newConfigurations.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        var loaded: [LoadedBundle] = []
        var removed: [String] = []
        for name in configurations.keys where incoming[name] == nil {
            unwatch(bundle: name, keepingParent: false)
            removed.append(name)
        }
        for (name, configuration) in incoming where configurations[name] != configuration {
            unwatch(bundle: name, keepingParent: false)
            loaded.append(loader.load(configuration))
        }
        configurations = incoming
        for bundle in loaded { watch(bundle.configuration) }
        guard !loaded.isEmpty || !removed.isEmpty else { return }
        let generation = catalog.publish(loaded, removing: removed)
        for name in removed.sorted() {
            hub.publish(.bundleChanged(bundle: name, generation: generation, message: "the bundle is no longer served"))
        }
        for bundle in loaded {
            hub.publish(
                .bundleChanged(
                    bundle: bundle.name, generation: generation, message: "the bundle is served from \(bundle.configuration.directory)"))
        }
        logger.info("configuration applied: \(incoming.count) bundles", metadata: ["generation": "\(generation)"])
    }
}
