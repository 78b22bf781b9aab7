import Foundation
import Testing
@testable import LprojWatch

@Suite struct InotifyWatcherTests {
    /// Waits for an event matching `predicate`, or fails after a timeout.
    func next(_ iterator: inout AsyncStream<[InotifyEvent]>.Iterator, where predicate: (InotifyEvent) -> Bool) async throws -> InotifyEvent {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            guard let batch = await iterator.next() else { break }
            if let match = batch.first(where: predicate) { return match }
        }
        throw CancellationError()
    }

    @Test func reportsWritesRenamesAndDeletions() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let watcher = try InotifyWatcher()
        defer { watcher.close() }
        let watch = try watcher.add(path: directory.path, mask: [.closeWrite, .movedTo, .movedFrom, .create, .delete, .deleteSelf, .onlyDirectory])
        var events = watcher.events.makeAsyncIterator()

        try Data("a".utf8).write(to: directory.appendingPathComponent("Localizable.strings"))
        let written = try await next(&events) { $0.mask.contains(.closeWrite) && $0.name == "Localizable.strings" }
        #expect(written.watch == watch)

        // Editors and git write a temporary file and rename it over.
        try Data("b".utf8).write(to: directory.appendingPathComponent(".tmp"))
        rename(directory.appendingPathComponent(".tmp").path, directory.appendingPathComponent("Localizable.strings").path)
        _ = try await next(&events) { $0.mask.contains(.movedTo) && $0.name == "Localizable.strings" }

        try FileManager.default.createDirectory(at: directory.appendingPathComponent("de.lproj"), withIntermediateDirectories: false)
        let created = try await next(&events) { $0.mask.contains(.create) && $0.name == "de.lproj" }
        #expect(created.mask.contains(.isDirectory))

        try FileManager.default.removeItem(at: directory.appendingPathComponent("Localizable.strings"))
        _ = try await next(&events) { $0.mask.contains(.delete) && $0.name == "Localizable.strings" }
    }

    @Test func closingEndsTheEvents() async throws {
        let watcher = try InotifyWatcher()
        watcher.close()
        var iterator = watcher.events.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }

    @Test func watchingAMissingPathIsAnError() throws {
        let watcher = try InotifyWatcher()
        defer { watcher.close() }
        #expect(throws: InotifyWatcher.Failure.self) { try watcher.add(path: "/nonexistent/lprojd", mask: [.create]) }
    }
}
