package import LprojEngine
import LprojFiles
internal import Synchronization

/// Every bundle lprojd serves, as one immutable snapshot.
///
/// Lookups take the current snapshot (one reference, under a lock held for
/// nanoseconds) and read it undisturbed; a reload builds new bundles off the
/// lookup path and swaps in a new snapshot with a higher generation, so a
/// lookup sees either all of a change or none of it.
package final class ServedBundles: Sendable {
    /// The bundles at one moment.
    package final class Snapshot: Sendable {
        /// Increases with every change to any bundle.
        package let generation: Int
        /// Bundles by name.
        package let bundles: [String: LoadedBundle]
        /// The generation at which each bundle last changed.
        package let bundleGenerations: [String: Int]

        init(generation: Int, bundles: [String: LoadedBundle], bundleGenerations: [String: Int]) {
            self.generation = generation
            self.bundles = bundles
            self.bundleGenerations = bundleGenerations
        }

        /// Bundle names, sorted.
        package var names: [String] { bundles.keys.sorted() }

        /// Tables over every bundle, counting each locale's copy of a table.
        package var tableCount: Int {
            bundles.values.reduce(0) { total, bundle in total + bundle.localizations.reduce(0) { $0 + $1.tables.count } }
        }

        /// Entries over every bundle and table.
        package var entryCount: Int { bundles.values.reduce(0) { $0 + $1.entryCount } }
    }

    private let current: Mutex<Snapshot>

    /// No bundle yet; see ``load(_:loader:)``.
    package init() {
        current = Mutex(Snapshot(generation: 0, bundles: [:], bundleGenerations: [:]))
    }

    /// These bundles, loaded.
    package convenience init(configurations: [BundleConfiguration], loader: BundleLoader = BundleLoader()) {
        self.init()
        load(configurations, loader: loader)
    }

    /// Loads every bundle (folders in parallel) and publishes them. lprojd
    /// does this before it accepts a single connection, and after its
    /// watches are in place, so that no change on disk goes unseen.
    package func load(_ configurations: [BundleConfiguration], loader: BundleLoader = BundleLoader()) {
        publish(configurations.map { loader.load($0) })
    }

    /// The current snapshot.
    package var snapshot: Snapshot { current.withLock { $0 } }

    /// Publishes a new version of some bundles (and removes others); returns
    /// the new generation.
    @discardableResult
    package func publish(_ changed: [LoadedBundle], removing removed: [String] = []) -> Int {
        current.withLock { snapshot in
            let generation = snapshot.generation + 1
            var bundles = snapshot.bundles
            var generations = snapshot.bundleGenerations
            for name in removed {
                bundles[name] = nil
                generations[name] = nil
            }
            for bundle in changed {
                bundles[bundle.name] = bundle
                generations[bundle.name] = generation
            }
            snapshot = Snapshot(generation: generation, bundles: bundles, bundleGenerations: generations)
            return generation
        }
    }
}
