internal import Foundation
package import Logging
package import LprojEngine
internal import LprojWatch
internal import ServiceLifecycle

/// Follows the drop-in directories with inotify, and has lprojd serve what
/// they say as it changes: a file renamed into place or closed after
/// writing is read at once, a file deleted or renamed away withdraws its
/// bundle, and a directory made later is read when it appears. Files that
/// do not end in `.conf` (dpkg's `.dpkg-new`, editors' files) are ignored.
///
/// Each change gives one new list of bundles (``DropIns/resolve(configured:)``),
/// which goes to `apply` (`BundleWatcher.reconfigure`, which reads again
/// only the bundles whose configuration changed, and tells subscribers).
/// Lists are applied one at a time and in order; a `SIGHUP` reload
/// (``reload(configured:directories:reader:)``) returns once its list is
/// applied.
package actor DropInWatcher: Service {
    /// Serves a list of bundles (`BundleWatcher.reconfigure`).
    package typealias Apply = @Sendable ([BundleConfiguration]) async -> Void

    private let inotify: InotifyWatcher
    private let logger: Logger
    private var watches: DropInWatches
    private var reader: DropInReader
    private var dropIns: DropIns
    private var configured: [SourcedBundle]
    private var apply: Apply = { _ in }

    /// The bundles served, by name, and the warnings given, as last applied.
    private var served: [String: SourcedBundle] = [:]
    private var warned: Set<ConfigurationWarning> = []
    /// Changes made, and applied: a change waits for the one being applied.
    private var version = 0
    private var appliedVersion = 0
    private var isApplying = false
    private var waiting: [(version: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// The bundles to serve at start-up: `configured` and the drop-ins.
    package nonisolated let bundles: [SourcedBundle]

    /// Watches `directories` (the one that wins first), then reads them,
    /// so that a file dropped meanwhile is not missed; logs each drop-in
    /// that is refused or does not parse, and each bundle defined twice.
    package init(directories: [String], reader: DropInReader, configured: [SourcedBundle], logger: Logger) throws {
        let inotify = try InotifyWatcher()
        var watches = DropInWatches(inotify: inotify, logger: logger)
        for (index, directory) in directories.enumerated() { watches.watch(index, path: directory) }
        let dropIns = DropIns.read(directories: directories, reader: reader)
        for record in dropIns.records { Self.log(record, logger: logger) }
        let (bundles, warnings) = dropIns.resolve(configured: configured)
        for warning in warnings { logger.warning("\(warning)") }
        self.inotify = inotify
        self.logger = logger
        self.watches = watches
        self.reader = reader
        self.dropIns = dropIns
        self.configured = configured
        self.bundles = bundles
        self.served = Dictionary(bundles.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        self.warned = Set(warnings)
    }

    /// Where changes go from now on; call it before ``run()``.
    package func applyChanges(with apply: @escaping Apply) {
        self.apply = apply
    }

    package func run() async throws {
        let inotify = self.inotify
        await withTaskCancellationOrGracefulShutdownHandler {
            for await batch in inotify.events {
                await self.handle(batch)
            }
        } onCancelOrGracefulShutdown: {
            inotify.close()
        }
    }

    /// Reads every drop-in again, with a new configuration (`SIGHUP`), and
    /// returns once lprojd serves what they say.
    package func reload(configured: [SourcedBundle], directories: [String], reader: DropInReader) async {
        self.configured = configured
        self.reader = reader
        if directories != dropIns.directories {
            for index in dropIns.directories.indices { watches.forget(index) }
            dropIns = DropIns(directories: directories)
        }
        for index in directories.indices { rescan(index) }
        await changed(forcing: true)
    }

    // MARK: Events

    func handle(_ batch: [InotifyEvent]) async {
        let before = dropIns
        var rescans: Set<Int> = []
        // A file's last event in the batch says whether to read it or to
        // see whether it is gone.
        var files: [Int: [String: Bool]] = [:]
        for event in batch {
            if event.mask.contains(.queueOverflow) {
                logger.warning("inotify's queue overflowed; reading every drop-in directory again")
                rescans.formUnion(dropIns.directories.indices)
                continue
            }
            for target in watches.targets[event.watch] ?? [] {
                switch target {
                case .directory(let index) where event.name.isEmpty:
                    // The directory itself: gone, or its mode or owner changed.
                    if !event.mask.intersection([.deleteSelf, .moveSelf, .attributes]).isEmpty { rescans.insert(index) }
                case .directory(let index):
                    guard DropInFile.bundleName(ofFile: event.name) != nil else { continue }
                    if !event.mask.intersection([.movedTo, .closeWrite, .attributes]).isEmpty {
                        files[index, default: [:]][event.name] = true
                    } else if !event.mask.intersection([.delete, .movedFrom]).isEmpty {
                        files[index, default: [:]][event.name] = false
                    } else if event.mask.contains(.create), Self.isLink("\(dropIns.directories[index])/\(event.name)") {
                        // A link is whole once made; a file is read when closed.
                        files[index, default: [:]][event.name] = true
                    }
                case .ancestor(let index, let child):
                    if event.name == child && !event.mask.intersection([.create, .movedTo]).isEmpty { rescans.insert(index) }
                }
            }
            if event.mask.contains(.ignored) {
                // The kernel dropped the watch (its directory is gone): watch
                // what there is now instead.
                for target in watches.dropped(event.watch) {
                    switch target {
                    case .directory(let index), .ancestor(let index, _): rescans.insert(index)
                    }
                }
            }
        }
        for index in rescans.sorted() { rescan(index) }
        for (index, names) in files where !rescans.contains(index) {
            for (file, read) in names.sorted(by: { $0.key < $1.key }) { update(file, in: index, read: read) }
        }
        if dropIns != before { await changed(forcing: false) }
    }

    /// Watches directory `index` again (or its ancestor) and reads it whole.
    private func rescan(_ index: Int) {
        let directory = dropIns.directories[index]
        let previous = dropIns.files[index]
        let exists = watches.watch(index, path: directory)
        let records = exists ? reader.readDirectory(directory, previous: previous) ?? [:] : [:]
        for (name, record) in records where record != previous[name] { Self.log(record, logger: logger) }
        for (name, record) in previous where records[name] == nil {
            logger.info("\(record.path) is gone", metadata: ["bundle.name": "\(name)"])
        }
        dropIns.files[index] = records
    }

    /// Reads one file again (`read`), or drops it if it is gone.
    private func update(_ file: String, in index: Int, read: Bool) {
        guard let name = DropInFile.bundleName(ofFile: file) else { return }
        let directory = dropIns.directories[index]
        let previous = dropIns.files[index][name]
        // Deleted, yet there again: a writer is making it anew, and its
        // close or rename will say when it is whole.
        if !read && FileManager.default.fileExists(atPath: "\(directory)/\(file)") { return }
        let record = read ? reader.read(file, in: directory, previous: previous) : nil
        if let record, record != previous { Self.log(record, logger: logger) }
        if record == nil, let previous { logger.info("\(previous.path) is gone", metadata: ["bundle.name": "\(name)"]) }
        dropIns.files[index][name] = record
    }

    private static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// One log line for a drop-in that lprojd cannot take.
    private static func log(_ record: DropInRecord, logger: Logger) {
        switch record.state {
        case .read:
            break
        case .invalid(let error, let lastGood):
            let kept: String =
                switch lastGood {
                case .bundle?: "; its bundle keeps the configuration it last had"
                case .masked?: "; it still masks its bundle"
                case nil: "; its bundle is not served from it"
                }
            logger.error("\(error)\(kept)")
        case .refused(let reason):
            logger.warning("\(record.path): refused: \(reason)")
        }
    }

    // MARK: Applying

    /// Applies the drop-ins as they are now, after any list being applied.
    private func changed(forcing: Bool) async {
        version += 1
        let mine = version
        if isApplying {
            await withCheckedContinuation { waiting.append((mine, $0)) }
            return
        }
        isApplying = true
        var force = forcing
        while appliedVersion < version {
            let target = version
            let (bundles, warnings) = dropIns.resolve(configured: configured)
            for warning in warnings where !warned.contains(warning) { logger.warning("\(warning)") }
            warned = Set(warnings)
            let next = Dictionary(bundles.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
            if force || next != served {
                logChanges(from: served, to: next)
                served = next
                await apply(bundles.map(\.configuration))
            }
            force = false
            appliedVersion = target
            let done = waiting.filter { $0.version <= target }
            waiting.removeAll { $0.version <= target }
            for waiter in done { waiter.continuation.resume() }
        }
        isApplying = false
    }

    private func logChanges(from old: [String: SourcedBundle], to new: [String: SourcedBundle]) {
        for (name, bundle) in new.sorted(by: { $0.key < $1.key }) where old[name] != bundle {
            logger.info("bundle \(name) from \(bundle.source)", metadata: ["bundle.name": "\(name)"])
        }
        for (name, bundle) in old.sorted(by: { $0.key < $1.key }) where new[name] == nil {
            logger.info("bundle \(name) is no longer served (it was from \(bundle.source))", metadata: ["bundle.name": "\(name)"])
        }
    }
}
