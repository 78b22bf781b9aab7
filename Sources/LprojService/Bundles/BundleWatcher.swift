internal import BackgroundThreads
internal import ClientBudget
internal import Foundation
package import Logging
package import LprojEngine
internal import LprojWatch
import ServiceLifecycle
internal import Synchronization

/// Follows the bundles on disk with inotify and publishes every change,
/// each bundle apart from the others.
///
/// One inotify instance watches every bundle's directory (for `.lproj`
/// folders that appear or vanish, and String Catalogs at its top level),
/// its folders (for tables written in place, renamed over, created or
/// deleted), the other folders its String Catalogs may be in, and the
/// folder holding it (so that a directory that went away is noticed when
/// it comes back). This router takes each event to its bundle's
/// ``BundleWatch`` in O(1), and does nothing else: each bundle coalesces its
/// own events and reloads on its own task, on the background threads, at
/// its own pace, so one bundle's churn never delays another bundle's
/// reloads, the drop-ins or the watchdog. A bundle's new snapshot is
/// published first, and only then are subscribers told, so a lookup made on
/// receipt sees the new strings. On `IN_Q_OVERFLOW` every bundle is read
/// again.
/// Reloads leave the loops and Swift's shared pool alone: a few threads of
/// their own, at a lower priority, for the whole process. Each bundle has at
/// most one reload at a time, so one bundle never holds them all.
private let reloadExecutor = BackgroundExecutor(threads: max(2, ProcessInfo.processInfo.activeProcessorCount) + 1)

/// What the service asks of the watcher: read bundles again now (`Reload`).
package protocol BundleReloading: Sendable {
    /// Reads `bundle` (every bundle: nil) again and returns what is served after.
    func reload(bundle: String?) async -> [LoadedBundle]
}

package final class BundleWatcher<C: Clock>: Service, BundleReloading where C.Duration == Duration, C: Sendable {
    private let served: ServedBundles
    private let hub: any EventSink
    private let logger: Logger
    private let inotify: InotifyWatcher
    private let registry: WatchRegistry
    private let trust: BundleTrust
    /// The clock each bundle's settling and pacing runs on (a test's moves by hand).
    private let clock: C
    /// Log lines the files of a bundle cause, per bundle.
    private let logLimit = RateLimit<String>(burst: 20, perSecond: 2)

    private struct State {
        var watches: [String: BundleWatch<C>] = [:]
        /// Whether ``run()`` runs each watch's task (else reloads happen
        /// only when asked, as in tests that never run the watcher).
        var running = false
    }

    private let state = Mutex(State())
    /// Watches whose tasks ``run()`` must start.
    private let started = AsyncStream.makeStream(of: BundleWatch<C>.self)

    /// Creates the watcher, with a watch for each bundle; ``loadAll()``
    /// then opens and loads them, putting each watch in place before its
    /// files are read, so that no change made meanwhile is missed.
    package init(
        served: ServedBundles, events hub: any EventSink, configurations: [BundleConfiguration], trust: BundleTrust = .anyOwner,
        clock: C, logger: Logger
    ) throws {
        self.served = served
        self.clock = clock
        self.hub = hub
        self.logger = logger
        self.trust = trust
        let inotify = try InotifyWatcher()
        self.inotify = inotify
        self.registry = WatchRegistry(inotify: inotify)
        var watches: [String: BundleWatch<C>] = [:]
        for configuration in configurations { watches[configuration.name] = makeWatch(configuration) }
        state.withLock { $0.watches = watches }
    }

    private func makeWatch(_ configuration: BundleConfiguration) -> BundleWatch<C> {
        BundleWatch(
            configuration: configuration, served: served, hub: hub, registry: registry, executor: reloadExecutor, trust: trust,
            clock: clock, logLimit: logLimit, logger: logger)
    }

    /// Opens, watches and loads every bundle, folders on every core, and
    /// publishes them: lprojd's start-up, before it serves.
    package func loadAll() {
        let watches = state.withLock { Array($0.watches.values) }
        for watch in watches { watch.loadAtStartUp() }
    }

    package func run() async throws {
        let inotify = self.inotify
        let watches = state.withLock { state in
            state.running = true
            return Array(state.watches.values)
        }
        for watch in watches { started.continuation.yield(watch) }
        await withTaskCancellationOrGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await batch in inotify.events {
                        self.handle(batch)
                    }
                    // Stopping: each bundle's task ends after the reload under way.
                    self.started.continuation.finish()
                    let all = self.state.withLock { state in
                        state.running = false
                        return Array(state.watches.values)
                    }
                    for watch in all { await watch.stop() }
                }
                for await watch in self.started.stream {
                    group.addTask { await watch.run() }
                }
            }
        } onCancelOrGracefulShutdown: {
            inotify.close()
        }
    }

    // MARK: Events

    /// Takes each event to the bundles its watch stands for: O(1) each.
    func handle(_ batch: [InotifyEvent]) {
        let watches = state.withLock { $0.watches }
        for event in batch {
            if event.mask.contains(.queueOverflow) {
                // Whoever writes a bundle's files can make it overflow.
                let (allowed, suppressed) = logLimit.allow("")
                if allowed {
                    logger.warning(
                        "inotify's queue overflowed; reading every bundle again",
                        metadata: suppressed > 0 ? ["suppressed": "\(suppressed)"] : [:])
                }
                for watch in watches.values { watch.eventsLost() }
                continue
            }
            for target in registry.targets(of: event.watch) {
                watches[target.bundle]?.noted(event, for: target)
            }
            if event.mask.contains(.ignored) { registry.dropped(event.watch) }
        }
    }

    // MARK: Requests

    /// Returns at once: the watchdog calls it to prove that the router,
    /// which every bundle's events go through, is not stuck. No file work
    /// happens here, so no bundle's files can delay it.
    package func checkIn() {
        _ = state.withLock { $0.running }
    }

    /// Reads bundles again from scratch (all, or one), each on its own;
    /// returns them once published.
    package func reload(bundle: String?) async -> [LoadedBundle] {
        let watches = state.withLock { state in state.watches.values.filter { bundle == nil || $0.name == bundle } }
        await withDiscardingTaskGroup { group in
            for watch in watches { group.addTask { await watch.reloadNow() } }
        }
        let snapshot = served.snapshot
        return watches.map(\.name).sorted().compactMap { snapshot.bundles[$0] }
    }

    /// Serves a new set of bundles (a configuration reload): new ones are
    /// loaded, removed ones dropped, changed ones read again. Returns once
    /// every new one is served; bundles whose configuration did not change
    /// are not touched, nor waited for.
    package func reconfigure(_ newConfigurations: [BundleConfiguration]) async {
        let incoming = Dictionary(newConfigurations.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        let (old, added, running) = state.withLock { state in
            var old: [BundleWatch<C>] = []
            var added: [BundleWatch<C>] = []
            for (name, watch) in state.watches where incoming[name] != watch.configuration {
                old.append(watch)
                state.watches[name] = nil
            }
            for (name, configuration) in incoming where state.watches[name] == nil {
                let watch = makeWatch(configuration)
                state.watches[name] = watch
                added.append(watch)
            }
            return (old, added, state.running)
        }
        // A bundle whose configuration changed stops before its new watch
        // loads it; a removed one, before it is withdrawn.
        for watch in old {
            await watch.stop()
            if incoming[watch.name] == nil { registry.removeAll(ofBundle: watch.name, keepingParent: false) }
        }
        let removed = old.map(\.name).filter { incoming[$0] == nil }.sorted()
        guard !added.isEmpty || !removed.isEmpty else { return }
        if !removed.isEmpty {
            let generation = served.publish([], removing: removed)
            for name in removed {
                hub.publish(.bundleChanged(bundle: name, generation: generation, message: "the bundle is no longer served"))
            }
        }
        await withDiscardingTaskGroup { group in
            for watch in added { group.addTask { await watch.reloadNow() } }
        }
        if running { for watch in added { started.continuation.yield(watch) } }
        let snapshot = served.snapshot
        for watch in added.sorted(by: { $0.name < $1.name }) {
            hub.publish(
                .bundleChanged(
                    bundle: watch.name, generation: snapshot.bundleGenerations[watch.name] ?? snapshot.generation,
                    message: "the bundle is served from \(watch.configuration.directory)"))
        }
        logger.info(
            "configuration applied: \(incoming.count) bundle\(incoming.count == 1 ? "" : "s")",
            metadata: ["generation": "\(snapshot.generation)"]
        )
    }
}
