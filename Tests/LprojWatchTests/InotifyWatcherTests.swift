import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import Testing
@testable import LprojWatch

@Suite struct InotifyWatcherTests {
    /// Waits for an event matching `predicate`, or fails after a timeout.
    func next(_ iterator: inout InotifyEvents.AsyncIterator, where predicate: (InotifyEvent) -> Bool) async throws -> InotifyEvent {
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
        let watch = try watcher.add(
            path: directory.path, mask: [.closeWrite, .movedTo, .movedFrom, .create, .delete, .deleteSelf, .onlyDirectory])
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

    @Test func nothingIsWatchedOnceClosed() throws {
        let watcher = try InotifyWatcher()
        watcher.close()
        // The descriptor's number may already be someone else's.
        #expect(throws: InotifyError.self) { try watcher.add(path: FileManager.default.temporaryDirectory.path, mask: [.create]) }
    }

    /// A failing poll() ends the reader, which closes its descriptors: the
    /// events end, and the watcher is closed.
    @Test func aFailedPollClosesTheDescriptors() async throws {
        let watcher = try InotifyWatcher(
            maximumPendingEvents: 16,
            poll: { _, _, _ in
                errno = EINVAL
                return -1
            }, startsReading: true)
        var iterator = watcher.events.makeAsyncIterator()
        #expect(await iterator.next() == nil)
        #expect(throws: InotifyError.self) { try watcher.add(path: FileManager.default.temporaryDirectory.path, mask: [.create]) }
    }

    /// Events pile up only so far: past the limit they become one overflow,
    /// which tells the consumer to read everything again.
    @Test func aConsumerThatFallsBehindGetsOneOverflow() async {
        let pending = PendingEvents(limit: 10)
        let event = InotifyEvent(watch: 1, mask: .closeWrite, cookie: 0, name: "a.strings")
        pending.append(Array(repeating: event, count: 6))
        pending.append(Array(repeating: event, count: 6))
        pending.append(Array(repeating: event, count: 100))
        #expect(pending.count == 1)
        #expect(await pending.next() == [PendingEvents.overflow])
        pending.append([event])
        #expect(await pending.next() == [event])
    }

    /// When the kernel's own queue overflows (more events than
    /// fs.inotify.max_queued_events before anyone reads), the reader passes
    /// its IN_Q_OVERFLOW on.
    @Test func theKernelsOverflowIsPassedOn() async throws {
        let limit =
            Int(
                (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))?.trimmingCharacters(
                    in: .whitespacesAndNewlines) ?? "") ?? 16384
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("overflow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let watcher = try InotifyWatcher(maximumPendingEvents: 1 << 20, poll: { Glibc.poll($0, $1, $2) }, startsReading: false)
        defer { watcher.close() }
        try watcher.add(path: directory.path, mask: [.create, .onlyDirectory])
        for index in 0...(limit + 100) {
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("f\(index)").path, contents: nil)
        }
        watcher.startReading()
        var iterator = watcher.events.makeAsyncIterator()
        let overflow = try await next(&iterator) { $0.mask.contains(.queueOverflow) }
        #expect(overflow.watch == -1)
    }

    @Test func watchingAMissingPathIsAnError() throws {
        let watcher = try InotifyWatcher()
        defer { watcher.close() }
        #expect(throws: InotifyError.self) { try watcher.add(path: "/nonexistent/lprojd", mask: [.create]) }
    }
}
