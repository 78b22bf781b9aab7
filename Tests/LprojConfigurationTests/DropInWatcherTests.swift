import Foundation
import Logging
import LprojEngine
import Synchronization
import Testing
@testable import LprojConfiguration

#if canImport(Glibc)
    import Glibc
#endif

/// The watcher in process, on a directory of its own: what it hands to the
/// catalog, in order, and a reload that returns once its list is applied.
@Suite struct DropInWatcherTests {
    /// Every list the watcher applied.
    final class Applied: Sendable {
        private struct State {
            var lists: [[String]] = []
            var waiters: [(count: Int, continuation: CheckedContinuation<[String], Never>)] = []
        }

        private let state = Mutex(State())
        var lists: [[String]] { state.withLock { $0.lists } }

        func record(_ bundles: [BundleConfiguration]) {
            let ready: [(CheckedContinuation<[String], Never>, [String])] = state.withLock { state in
                state.lists.append(bundles.map(\.name).sorted())
                let lists = state.lists
                let ready = state.waiters.filter { $0.count <= lists.count }.map { ($0.continuation, lists[$0.count - 1]) }
                state.waiters.removeAll { $0.count <= lists.count }
                return ready
            }
            for (waiter, list) in ready { waiter.resume(returning: list) }
        }

        /// The `count`th list, once applied. Waited for, not polled: a run
        /// of the whole suite, whose tests that run programs hold Swift's
        /// threads for a minute at times, once took 68 s to get to the event
        /// (alone it takes milliseconds); the run's own deadline bounds it.
        func list(_ count: Int) async -> [String] {
            await withCheckedContinuation { continuation in
                let now: [String]? = state.withLock { state in
                    if state.lists.count >= count { return state.lists[count - 1] }
                    state.waiters.append((count, continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        }
    }

    @Test func changesAreAppliedInOrderAndAReloadReturnsOnceItsListIs() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dropin-watcher-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("bundles.d")
        let reader = DropInReader(
            trust: DropInTrust(instance: .of(uid: getuid(), system: false)), bundleLimits: BundleLimits(fileSize: 1 << 20))
        // The directory does not exist yet: its parent is watched.
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let watcher = try DropInWatcher(directories: [directory.path], reader: reader, configured: [], logger: Logger(label: "test"))
        #expect(watcher.bundles.isEmpty)
        let applied = Applied()
        await watcher.applyChanges { applied.record($0) }
        let running = Task { try await watcher.run() }
        defer { running.cancel() }

        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        chmod(directory.path, 0o755)
        let staged = directory.appendingPathComponent("org.example.Editor.conf.dpkg-new")
        try Data("directory: /opt/editor\n".utf8).write(to: staged)
        rename(staged.path, directory.appendingPathComponent("org.example.Editor.conf").path)
        #expect(await applied.list(1) == ["org.example.Editor"])
        unlink(directory.appendingPathComponent("org.example.Editor.conf").path)
        #expect(await applied.list(2) == [])

        let demo = SourcedBundle(
            BundleConfiguration(name: "demo", directory: "/opt/demo", developmentLocale: try .init("en")), source: "--bundle")
        await watcher.reload(configured: [demo], directories: [directory.path], reader: reader)
        // Applied before reload returned.
        #expect(applied.lists.last == ["demo"])
        #expect(applied.lists == [["org.example.Editor"], [], ["demo"]])
    }
}
