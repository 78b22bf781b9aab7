internal import LprojWatch
internal import Synchronization

/// What one inotify watch of the bundle watcher stands for.
enum WatchTarget: Hashable, Sendable {
    /// A bundle's directory: `.lproj` folders and catalogs at its top level.
    case bundle(String)
    /// A bundle's `.lproj` folder (its name in the bundle directory).
    case folder(bundle: String, folder: String)
    /// A folder other than a top-level `.lproj` one, watched for String
    /// Catalogs; its path is relative to the bundle directory.
    case catalogFolder(bundle: String, path: String)
    /// The folder that holds a bundle's directory, for the directory's
    /// name (`child`) coming back.
    case parent(bundle: String, child: String)

    /// The bundle it belongs to.
    var bundle: String {
        switch self {
        case .bundle(let name), .folder(let name, _), .catalogFolder(let name, _), .parent(let name, _): name
        }
    }
}

/// Which inotify watch stands for what: read by the router for every
/// event, changed by each bundle's reloads as folders come and go. A
/// watch descriptor may stand for several targets (two bundles in one
/// directory, a parent shared by bundles).
final class WatchRegistry: Sendable {
    private struct State {
        var targets: [Int32: Set<WatchTarget>] = [:]
        var watches: [WatchTarget: Int32] = [:]
    }

    let inotify: InotifyWatcher
    private let state = Mutex(State())

    init(inotify: InotifyWatcher) {
        self.inotify = inotify
    }

    /// The targets a watch stands for.
    func targets(of watch: Int32) -> Set<WatchTarget> {
        state.withLock { $0.targets[watch] ?? [] }
    }

    /// Whether a target is watched.
    func isWatched(_ target: WatchTarget) -> Bool {
        state.withLock { $0.watches[target] != nil }
    }

    /// The targets of a bundle now watched.
    func targets(ofBundle bundle: String) -> [WatchTarget] {
        state.withLock { $0.watches.keys.filter { $0.bundle == bundle } }
    }

    /// Watches `path` for `target` (a path of `/proc/self/fd`, for a
    /// folder opened beneath a bundle's root); returns whether it is
    /// watched. A target watched already keeps its watch.
    @discardableResult
    func add(_ target: WatchTarget, path: String, mask: InotifyMask) throws -> Int32 {
        if let existing = state.withLock({ $0.watches[target] }) { return existing }
        let watch = try inotify.add(path: path, mask: mask)
        state.withLock { state in
            state.watches[target] = watch
            state.targets[watch, default: []].insert(target)
        }
        return watch
    }

    /// Stops watching for `target`; the watch goes once it stands for nothing.
    func remove(_ target: WatchTarget) {
        let unused: Int32? = state.withLock { state in
            guard let watch = state.watches.removeValue(forKey: target) else { return nil }
            state.targets[watch]?.remove(target)
            guard state.targets[watch]?.isEmpty ?? false else { return nil }
            state.targets[watch] = nil
            return watch
        }
        if let unused { inotify.remove(watch: unused) }
    }

    /// Stops watching for a bundle's targets (its parent too, unless kept).
    func removeAll(ofBundle bundle: String, keepingParent: Bool) {
        for target in targets(ofBundle: bundle) {
            if case .parent = target, keepingParent { continue }
            remove(target)
        }
    }

    /// The kernel dropped a watch (`IN_IGNORED`): its targets are no longer watched.
    func dropped(_ watch: Int32) {
        state.withLock { state in
            guard let gone = state.targets.removeValue(forKey: watch) else { return }
            for target in gone where state.watches[target] == watch { state.watches[target] = nil }
        }
    }
}
