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
        let lists = Mutex<[[String]]>([])

        func record(_ bundles: [BundleConfiguration]) {
            lists.withLock { $0.append(bundles.map(\.name).sorted()) }
        }

        /// The `count`th list, once applied (within 60 s: a bound for a
        /// loaded machine, where a run of the whole suite once took 10 s to
        /// get to the event; alone it takes milliseconds).
        func list(_ count: Int) async throws -> [String] {
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                if let list = lists.withLock({ $0.count >= count ? $0[count - 1] : nil }) { return list }
                try await Task.sleep(for: .milliseconds(5))
            }
            throw CancellationError()
        }
    }

    @Test func changesAreAppliedInOrderAndAReloadReturnsOnceItsListIs() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dropin-watcher-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("bundles.d")
        let reader = DropInReader(trust: DropInTrust(instance: .of(uid: getuid(), system: false)), bundleLimits: BundleLimits(fileSize: 1 << 20))
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
        #expect(try await applied.list(1) == ["org.example.Editor"])
        unlink(directory.appendingPathComponent("org.example.Editor.conf").path)
        #expect(try await applied.list(2) == [])

        let demo = SourcedBundle(
            BundleConfiguration(name: "demo", directory: "/opt/demo", developmentLocale: try .init("en")), source: "--bundle")
        await watcher.reload(configured: [demo], directories: [directory.path], reader: reader)
        // Applied before reload returned.
        #expect(applied.lists.withLock { $0.last } == ["demo"])
        #expect(applied.lists.withLock { $0 } == [["org.example.Editor"], [], ["demo"]])
    }
}
