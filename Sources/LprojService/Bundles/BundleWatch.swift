internal import BackgroundThreads
internal import ClientBudget
internal import Foundation
internal import Logging
internal import LprojEngine
internal import LprojFiles
internal import LprojTables
internal import LprojWatch
internal import Synchronization

/// Who may own a bundle's directory, and what happens otherwise.
package enum BundleTrust: Sendable {
    /// A user's own lprojd: it reads only what its user could.
    case anyOwner
    /// The system's lprojd, which may read as root: a bundle that one user
    /// besides root can change is served with a warning (lprojd reads only
    /// inside the directory it opened, which that user controls anyway);
    /// one that several users, or anyone, can change is refused, since one
    /// of them could put a link to another's private folder in its place.
    case system
}

/// One bundle as lprojd follows it: its directory, opened once; its watches;
/// the changes seen since its last reload (``BundleReloadSchedule``); and its
/// reloads, which run one at a time on the background threads, apart from
/// every other bundle's.
///
/// The router (``BundleWatcher``) hands it each inotify event in O(1); its
/// own task, ``run()``, reloads when the schedule says, publishes the new
/// snapshot, and only then tells subscribers.
final class BundleWatch<C: Clock>: Sendable where C.Duration == Duration {
    let configuration: BundleConfiguration
    private let served: ServedBundles
    private let hub: any EventSink
    private let registry: WatchRegistry
    private let executor: BackgroundExecutor
    private let trust: BundleTrust
    private let clock: C
    private let logger: Logger
    private let logLimit: RateLimit<String>
    private let alarm: Alarm<C>
    private let turns = TurnLock()

    private struct State {
        var schedule: BundleReloadSchedule<C.Instant>
        /// The directory, open; nil until opened, or once it went away.
        var root: BundleRoot?
        /// The folders changed shape: watch what is there now.
        var structureChanged = true
        /// The last limit it went over, as logged.
        var overLimit: BundleLimitExceeded.Limit?
        var stopping = false
        var started = false
        var ended = false
        var endWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    static var bundleMask: InotifyMask { [.closeWrite, .create, .delete, .movedFrom, .movedTo, .deleteSelf, .moveSelf, .onlyDirectory] }
    static var folderMask: InotifyMask {
        [.closeWrite, .modify, .movedTo, .movedFrom, .delete, .create, .deleteSelf, .moveSelf, .onlyDirectory]
    }
    static var parentMask: InotifyMask { [.create, .movedTo, .onlyDirectory] }

    init(
        configuration: BundleConfiguration, served: ServedBundles, hub: any EventSink, registry: WatchRegistry,
        executor: BackgroundExecutor,
        trust: BundleTrust, clock: C, schedule: BundleReloadSchedule<C.Instant> = BundleReloadSchedule(), logLimit: RateLimit<String>,
        logger: Logger
    ) {
        self.configuration = configuration
        self.served = served
        self.hub = hub
        self.registry = registry
        self.executor = executor
        self.trust = trust
        self.clock = clock
        self.logLimit = logLimit
        var logger = logger
        logger[metadataKey: "bundle.name"] = "\(configuration.name)"
        self.logger = logger
        self.alarm = Alarm(clock: clock)
        self.state = Mutex(State(schedule: schedule))
    }

    var name: String { configuration.name }

    // MARK: The bundle's task

    /// Reloads as the schedule says until ``stop()``.
    func run() async {
        state.withLock { $0.started = true }
        while !state.withLock({ $0.stopping }) && !Task.isCancelled {
            let decision = state.withLock { $0.schedule.next(at: clock.now) }
            switch decision {
            case .reload(let changes):
                await turns.run { await reload(changes) }
            case .wait(let deadline):
                await alarm.wait(until: deadline)
            case .idle:
                await alarm.wait(until: nil)
            }
        }
        let waiters = state.withLock { state in
            state.ended = true
            defer { state.endWaiters = [] }
            return state.endWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Ends ``run()`` once the reload under way, if any, is published;
    /// returns then. A watch whose task has not started returns at once
    /// (its task, if it starts, ends at once).
    func stop() async {
        state.withLock { $0.stopping = true }
        alarm.poke()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = state.withLock { state in
                if state.ended || !state.started { return true }
                state.endWaiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }

    // MARK: Reloads asked for

    /// Opens the directory, watches it and loads the whole bundle, in the
    /// calling thread: lprojd's start-up, before it serves (folders are read
    /// on every core).
    func loadAtStartUp() {
        var loader = BundleLoader(files: DiskFileTree())
        loader.readsInParallel = true
        _ = reloadSynchronously(everythingChanges, loader: loader)
    }

    /// Reads the whole bundle again now, whatever the pace (an
    /// administrator's `Reload`, a new configuration), on the background
    /// threads; returns once it is published.
    func reloadNow() async {
        await turns.run {
            let changes = state.withLock { $0.schedule.reloadNow() }
            await reload(changes)
        }
        alarm.poke()  // changes seen meanwhile
    }

    private var everythingChanges: BundleChanges {
        var changes = BundleChanges()
        changes.everything = true
        return changes
    }

    // MARK: Events, from the router

    /// One inotify event for one of this bundle's watches: noted in O(1);
    /// the reload comes when the schedule says.
    func noted(_ event: InotifyEvent, for target: WatchTarget) {
        let now = clock.now
        var message: String?
        state.withLock { state in
            switch target {
            case .bundle:
                if event.mask.contains(.deleteSelf) || event.mask.contains(.moveSelf) {
                    message = "the bundle directory is gone"
                    state.root = nil
                    state.structureChanged = true
                    state.schedule.everything()
                } else if StringCatalogFiles.tableName(of: event.name) != nil {
                    if !event.mask.contains(.create) { state.schedule.stringCatalog(event.name) }
                } else if event.name.hasSuffix(".lproj") {
                    state.schedule.folder(event.name)
                    if !event.mask.intersection([.create, .movedTo, .delete, .movedFrom]).isEmpty {
                        state.structureChanged = true
                        // Catalogs in folders below it are looked for again.
                        state.schedule.stringCatalog(event.name)
                    }
                } else if event.mask.contains(.isDirectory) {
                    state.structureChanged = true
                    state.schedule.stringCatalog(event.name)
                }
            case .folder(_, let folder):
                if event.mask.contains(.deleteSelf) || event.mask.contains(.moveSelf) {
                    state.schedule.folder(folder)
                } else if TableFileKind(fileName: event.name) != nil {
                    // A file is read when its writer closes it or renames it into
                    // place, never half-written at its creation, nor missing
                    // while it is being rewritten (``SettlingFiles``).
                    if event.mask.contains(.movedTo) {
                        state.schedule.fileWhole(event.name, in: folder)
                    } else if event.mask.contains(.create) || event.mask.contains(.modify) {
                        state.schedule.fileBeingWritten(event.name, in: folder, at: now)
                    } else if event.mask.contains(.delete) || event.mask.contains(.movedFrom) {
                        state.schedule.fileVanished(event.name, in: folder, at: now)
                    } else if event.mask.contains(.closeWrite) {
                        state.schedule.fileClosed(event.name, in: folder, at: now)
                    }
                } else if StringCatalogFiles.tableName(of: event.name) != nil {
                    // Read when closed or renamed into place, not at each write.
                    if !event.mask.contains(.create) && !event.mask.contains(.modify) {
                        state.schedule.stringCatalog("\(folder)/\(event.name)")
                    }
                } else if event.mask.contains(.isDirectory) {
                    state.structureChanged = true
                    state.schedule.stringCatalog("\(folder)/\(event.name)")
                }
            case .catalogFolder(_, let path):
                if event.mask.contains(.deleteSelf) || event.mask.contains(.moveSelf) {
                    state.structureChanged = true
                    state.schedule.stringCatalog(path)
                } else if StringCatalogFiles.tableName(of: event.name) != nil {
                    if !event.mask.contains(.create) && !event.mask.contains(.modify) {
                        state.schedule.stringCatalog("\(path)/\(event.name)")
                    }
                } else if event.mask.contains(.isDirectory) {
                    state.structureChanged = true
                    state.schedule.stringCatalog("\(path)/\(event.name)")
                }
            case .parent(_, let child):
                guard event.name == child, event.mask.contains(.create) || event.mask.contains(.movedTo) else { return }
                message = "the bundle directory is back"
                state.root = nil
                state.structureChanged = true
                state.schedule.everything()
            }
        }
        if let message { log(.info, message) }
        alarm.poke()
    }

    /// Events were lost (inotify's queue overflowed): read everything again.
    func eventsLost() {
        state.withLock { state in
            state.structureChanged = true
            state.schedule.everything()
        }
        alarm.poke()
    }

    // MARK: Reloading

    /// Runs one reload on the background threads, then paces the next.
    private func reload(_ changes: BundleChanges) async {
        let started = clock.now
        let refused = await executor.run { [self] in
            var loader = BundleLoader(files: DiskFileTree())
            loader.readsInParallel = false
            return reloadSynchronously(changes, loader: loader)
        }
        let now = clock.now
        state.withLock { $0.schedule.reloaded(at: now, took: started.duration(to: now), refused: refused) }
    }

    /// Opens the directory if it must, watches what is there, reads what
    /// changed, publishes it and tells subscribers; returns whether the
    /// bundle was refused (over a limit, or not to be served). The loader
    /// given says only how to read; the files are the opened directory's.
    private func reloadSynchronously(_ changes: BundleChanges, loader pathLoader: BundleLoader) -> Bool {
        var changes = changes
        let previous = served.snapshot.bundles[name]
        var (root, structureChanged) = state.withLock { ($0.root, $0.structureChanged) }
        var warning: Diagnostic?
        if root == nil {
            switch openRoot() {
            case .opened(let opened, let trustWarning):
                root = opened
                warning = trustWarning
                structureChanged = true
                changes.everything = true
                state.withLock { $0.root = opened }
            case .missing(let problem):
                registry.removeAll(ofBundle: name, keepingParent: true)
                watchParent()
                publish(
                    LoadedBundle(configuration: configuration, localizations: [], fileReports: [], problems: [problem]), previous: previous)
                // Nothing was read: no reason to wait longer for its return.
                return false
            case .refused(let problem):
                registry.removeAll(ofBundle: name, keepingParent: true)
                watchParent()
                let kept = previous?.withProblems(previous!.loadProblems.filter { !Self.isDirectoryProblem($0) } + [problem])
                publish(
                    kept ?? LoadedBundle(configuration: configuration, localizations: [], fileReports: [], problems: [problem]),
                    previous: previous)
                return true
            }
        } else if let root {
            warning = Self.trustWarning(root.access, trust: trust, path: configuration.directory)
        }
        guard let root else { return true }
        if structureChanged || changes.everything {
            state.withLock { $0.structureChanged = false }
            watch(root)
        }
        var loader = BundleLoader(files: DiskFileTree(root: root))
        loader.readsInParallel = pathLoader.readsInParallel
        var bundle: LoadedBundle
        let summary: ReloadSummary
        if let previous, previous.configuration == configuration {
            (bundle, summary) = loader.update(previous, with: changes)
        } else {
            // The first load, or a new configuration: read afresh, under
            // the new configuration's limits.
            let loaded = loader.loadWithinLimits(configuration)
            bundle = loaded.bundle
            summary =
                loaded.exceeded.map { ReloadSummary(limitExceeded: $0) }
                ?? BundleLoader.difference(
                    from: previous ?? LoadedBundle(configuration: configuration, localizations: [], fileReports: [], problems: []),
                    to: bundle, touched: nil)
        }
        let problems = bundle.loadProblems.filter { !Self.isDirectoryProblem($0) } + (warning.map { [$0] } ?? [])
        if problems != bundle.loadProblems { bundle = bundle.withProblems(problems) }
        noteLimit(summary.limitExceeded)
        // A bundle's first load is announced as the bundle being served
        // (by whoever serves it), not as each of its tables changing.
        publish(bundle, previous: previous, summary: previous == nil ? nil : summary)
        return summary.limitExceeded != nil
    }

    /// Problems of the directory itself, which each opening says anew.
    private static func isDirectoryProblem(_ problem: Diagnostic) -> Bool {
        ["bundle-missing", "bundle-untrusted", "bundle-writable"].contains(problem.code)
    }

    private enum Opening {
        case opened(BundleRoot, warning: Diagnostic?)
        case missing(Diagnostic)
        case refused(Diagnostic)
    }

    /// Opens the directory, and says whether it may be served.
    private func openRoot() -> Opening {
        let root: BundleRoot
        do {
            root = try BundleRoot.open(configuration.directory)
        } catch {
            return .missing(
                Diagnostic(
                    severity: .error, location: nil, code: "bundle-missing",
                    message: "the bundle directory \(configuration.directory) cannot be read: \(error)"))
        }
        if case .shared(let reason) = root.access, case .system = trust {
            let message = "the bundle directory \(configuration.directory) is not served: \(reason), so others could swap it"
            log(.error, message)
            return .refused(Diagnostic(severity: .error, location: nil, code: "bundle-untrusted", message: message))
        }
        let warning = Self.trustWarning(root.access, trust: trust, path: configuration.directory)
        if let warning { log(.warning, warning.message) }
        return .opened(root, warning: warning)
    }

    private static func trustWarning(_ access: BundleAccess, trust: BundleTrust, path: String) -> Diagnostic? {
        guard case .system = trust, case .user(let uid) = access else { return nil }
        return Diagnostic(
            severity: .warning, location: nil, code: "bundle-writable",
            message:
                "uid \(uid) can change the bundle directory \(path) or the way to it: every user sees what it writes there (lprojd reads only inside the directory it opened)"
        )
    }

    // MARK: Watches

    /// Watches the directory, its `.lproj` folders and the folders its
    /// catalogs may be in, each opened beneath the root; stops watching
    /// what is no longer there.
    private func watch(_ root: BundleRoot) {
        watchParent()
        let files = DiskFileTree(root: root)
        let limit = configuration.limits.directoryEntries
        var wanted: Set<WatchTarget> = [.bundle(name)]
        add(.bundle(name), ".", in: root, mask: Self.bundleMask)
        let folders = (try? files.lprojFolders(in: configuration.directory, limit: limit)) ?? []
        for folder in folders.prefix(configuration.limits.locales) {
            wanted.insert(.folder(bundle: name, folder: folder))
            add(.folder(bundle: name, folder: folder), folder, in: root, mask: Self.folderMask)
        }
        let lproj = Set(folders)
        for path in files.catalogFolders(in: configuration.directory, limit: limit) where !path.isEmpty && !lproj.contains(path) {
            wanted.insert(.catalogFolder(bundle: name, path: path))
            add(.catalogFolder(bundle: name, path: path), path, in: root, mask: Self.folderMask)
        }
        for target in registry.targets(ofBundle: name) where !wanted.contains(target) {
            if case .parent = target { continue }
            registry.remove(target)
        }
    }

    private func add(_ target: WatchTarget, _ relative: String, in root: BundleRoot, mask: InotifyMask) {
        if registry.isWatched(target) { return }
        do {
            _ = try root.withWatchablePath(relative) { path throws(any Error) in try registry.add(target, path: path, mask: mask) }
        } catch {
            log(.debug, "not watching \(relative): \(error)")
        }
    }

    /// The folder holding the directory, for the directory coming back.
    private func watchParent() {
        let directory = URL(fileURLWithPath: configuration.directory, isDirectory: true)
        do {
            try registry.add(
                .parent(bundle: name, child: directory.lastPathComponent), path: directory.deletingLastPathComponent().path,
                mask: Self.parentMask)
        } catch {
            log(.debug, "not watching the folder of \(configuration.directory): \(error)")
        }
    }

    // MARK: Publishing

    private func publish(_ bundle: LoadedBundle, previous: LoadedBundle?, summary: ReloadSummary? = nil) {
        let generation = served.publish([bundle])
        let wasMissing = previous.map(Self.isMissing) ?? false, isMissing = Self.isMissing(bundle)
        if isMissing != wasMissing {
            hub.publish(
                .bundleChanged(
                    bundle: name, generation: generation,
                    message: isMissing ? "the bundle directory is gone" : "the bundle directory is back"))
        }
        guard let summary else { return }
        announce(summary, generation: generation)
    }

    private static func isMissing(_ bundle: LoadedBundle) -> Bool {
        bundle.problems.contains { $0.code == "bundle-missing" }
    }

    private func announce(_ summary: ReloadSummary, generation: Int) {
        if !summary.addedLocales.isEmpty || !summary.removedLocales.isEmpty {
            hub.publish(.localesChanged(bundle: name, added: summary.addedLocales, removed: summary.removedLocales, generation: generation))
        }
        if !summary.tables.isEmpty {
            let tables = summary.tables.sorted(), locales = summary.locales.sorted()
            hub.publish(.tablesChanged(bundle: name, tables: tables, locales: locales, generation: generation))
            log(.info, "reloaded \(tables.joined(separator: ", ")) (\(locales.joined(separator: ", ")))", generation: generation)
        }
        for report in summary.reports {
            for diagnostic in report.errors {
                hub.publish(
                    .tableError(
                        bundle: name, file: report.path, line: diagnostic.location?.line, column: diagnostic.location?.column,
                        message: diagnostic.message, generation: generation))
                log(
                    .error,
                    "\(report.path)\(diagnostic.location.map { ":\($0)" } ?? ""): \(diagnostic.message)\(report.failed ? "; keeping its last good version" : "")"
                )
            }
        }
    }

    /// Says once that the bundle went over a limit, and once that it is back within.
    private func noteLimit(_ exceeded: BundleLimitExceeded?) {
        let previous = state.withLock { state in
            defer { state.overLimit = exceeded?.limit }
            return state.overLimit
        }
        if let exceeded, exceeded.limit != previous {
            log(.warning, "the bundle is not read: \(exceeded); it keeps its last good version until its files change")
        } else if exceeded == nil, previous != nil {
            log(.notice, "the bundle is within its limits again")
        }
    }

    /// A log line whoever writes the bundle's files can cause: at most a
    /// burst of 20 and 2 a second per bundle, with a count of those left out.
    private func log(_ level: Logger.Level, _ message: String, generation: Int? = nil) {
        let (allowed, suppressed) = logLimit.allow(name)
        guard allowed else { return }
        var metadata: Logger.Metadata = [:]
        if let generation { metadata["generation"] = "\(generation)" }
        if suppressed > 0 { metadata["suppressed"] = "\(suppressed)" }
        logger.log(level: level, "\(message)", metadata: metadata)
    }
}
