internal import Foundation
internal import Logging
internal import LprojWatch

/// The inotify watches on the drop-in directories: each directory that
/// exists, and for each that does not, its nearest ancestor that does, so
/// that the directory is read as soon as it is made (`mkdir -p
/// /etc/lprojd/bundles.d`, or a package's first drop-in).
struct DropInWatches {
    /// What a watch is for.
    enum Target: Hashable {
        /// The drop-in directory of this index.
        case directory(Int)
        /// An ancestor of the missing drop-in directory of this index; the
        /// name of its child on the way there.
        case ancestor(Int, child: String)
    }

    /// Every watch has the same mask: a watch on an inode already watched
    /// (an ancestor of one directory may be another directory) replaces its
    /// mask, so one mask serves every target.
    static let mask: InotifyMask = [
        .closeWrite, .movedTo, .movedFrom, .delete, .create, .attributes, .deleteSelf, .moveSelf, .onlyDirectory,
    ]

    let inotify: InotifyWatcher
    let logger: Logger
    private(set) var targets: [Int32: Set<Target>] = [:]
    private var watches: [Target: Int32] = [:]

    init(inotify: InotifyWatcher, logger: Logger) {
        self.inotify = inotify
        self.logger = logger
    }

    /// Watches the drop-in directory `index` at `path`, or its nearest
    /// ancestor while it does not exist; returns whether it exists.
    @discardableResult
    mutating func watch(_ index: Int, path: String) -> Bool {
        forget(index)
        if add(.directory(index), path: path) { return true }
        var child = URL(fileURLWithPath: path).standardizedFileURL
        while child.path != "/" {
            let parent = child.deletingLastPathComponent()
            if add(.ancestor(index, child: child.lastPathComponent), path: parent.path) { return false }
            child = parent
        }
        return false
    }

    /// Stops every watch of directory `index`.
    mutating func forget(_ index: Int) {
        for target in watches.keys {
            switch target {
            case .directory(let watched) where watched == index: remove(target)
            case .ancestor(let watched, _) where watched == index: remove(target)
            default: break
            }
        }
    }

    /// The kernel dropped a watch (its directory is gone): what it was for.
    mutating func dropped(_ watch: Int32) -> Set<Target> {
        let gone = targets.removeValue(forKey: watch) ?? []
        for target in gone { watches[target] = nil }
        return gone
    }

    private mutating func add(_ target: Target, path: String) -> Bool {
        do {
            let watch = try inotify.add(path: path, mask: Self.mask)
            watches[target] = watch
            targets[watch, default: []].insert(target)
            return true
        } catch {
            logger.trace("not watching \(path): \(error)")
            return false
        }
    }

    private mutating func remove(_ target: Target) {
        guard let watch = watches.removeValue(forKey: target) else { return }
        targets[watch]?.remove(target)
        if targets[watch]?.isEmpty ?? false {
            targets[watch] = nil
            inotify.remove(watch: watch)
        }
    }
}
