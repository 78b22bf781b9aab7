#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Synchronization

/// One inotify event.
package struct InotifyEvent: Sendable, Hashable {
    /// The watch it belongs to.
    package let watch: Int32
    /// What happened (`IN_*` bits).
    package let mask: InotifyMask
    /// Pairs `IN_MOVED_FROM` with `IN_MOVED_TO`.
    package let cookie: UInt32
    /// The file's name inside the watched directory; empty for the directory itself.
    package let name: String

    /// An event (the reader makes them; tests may too).
    package init(watch: Int32, mask: InotifyMask, cookie: UInt32, name: String) {
        self.watch = watch
        self.mask = mask
        self.cookie = cookie
        self.name = name
    }
}

/// The inotify event bits lprojd uses.
package struct InotifyMask: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static let closeWrite = InotifyMask(rawValue: UInt32(IN_CLOSE_WRITE))
    package static let modify = InotifyMask(rawValue: UInt32(IN_MODIFY))
    package static let movedFrom = InotifyMask(rawValue: UInt32(IN_MOVED_FROM))
    package static let movedTo = InotifyMask(rawValue: UInt32(IN_MOVED_TO))
    package static let create = InotifyMask(rawValue: UInt32(IN_CREATE))
    package static let delete = InotifyMask(rawValue: UInt32(IN_DELETE))
    package static let deleteSelf = InotifyMask(rawValue: UInt32(IN_DELETE_SELF))
    package static let moveSelf = InotifyMask(rawValue: UInt32(IN_MOVE_SELF))
    /// Owner or mode changed (what the drop-in directories' trust depends on).
    package static let attributes = InotifyMask(rawValue: UInt32(IN_ATTRIB))
    package static let onlyDirectory = InotifyMask(rawValue: UInt32(IN_ONLYDIR))
    package static let isDirectory = InotifyMask(rawValue: UInt32(IN_ISDIR))
    package static let queueOverflow = InotifyMask(rawValue: UInt32(IN_Q_OVERFLOW))
    package static let ignored = InotifyMask(rawValue: UInt32(IN_IGNORED))
}

/// Watches files and directories with Linux's inotify: no polling.
///
/// A thread of its own waits in `poll()` on the inotify descriptor and hands
/// what it reads to ``events``. The descriptor lives under one lock with
/// the state that says whether it is open: ``add(path:mask:)`` never acts on
/// a descriptor number that ``close()`` has given back (and the kernel may
/// have handed to someone else), and the reader closes both of its
/// descriptors on every way out, a failed `poll()` included. Events wait in
/// a bounded queue: a consumer that falls behind by more than
/// `maximumPendingEvents` gets, instead of the lost events, one
/// `IN_Q_OVERFLOW`, as when the kernel's own queue overflows, and reads
/// everything again.
package final class InotifyWatcher: Sendable {

    private struct Descriptors {
        /// The inotify descriptor, or nil once closed.
        var inotify: Int32?
        var wakeWrite: Int32?
    }

    /// The descriptors, shared with the reader thread.
    private final class SharedDescriptors: Sendable {
        let state: Mutex<Descriptors>
        init(_ descriptors: Descriptors) { state = Mutex(descriptors) }
    }

    private let shared: SharedDescriptors
    private let pending: PendingEvents
    /// Batches of events, in the order the kernel reported them.
    package let events: InotifyEvents

    /// Opens an inotify instance and starts its reader thread.
    package convenience init(maximumPendingEvents: Int = 65_536) throws {
        try self.init(maximumPendingEvents: maximumPendingEvents, poll: { Glibc.poll($0, $1, $2) }, startsReading: true)
    }

    private let startReader: Mutex<(@Sendable () -> Void)?>

    /// Opens an inotify instance; its reader calls `poll` (tests make it
    /// fail) and starts now or at ``startReading()``.
    init(maximumPendingEvents: Int, poll: @escaping @Sendable (UnsafeMutablePointer<pollfd>, nfds_t, Int32) -> Int32, startsReading: Bool)
        throws
    {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw InotifyError(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        var pipeDescriptors: [Int32] = [0, 0]
        guard pipe(&pipeDescriptors) == 0 else {
            Glibc.close(descriptor)
            throw InotifyError(description: "pipe: \(String(cString: strerror(errno)))")
        }
        for end in pipeDescriptors {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        self.shared = SharedDescriptors(Descriptors(inotify: descriptor, wakeWrite: pipeDescriptors[1]))
        let pending = PendingEvents(limit: maximumPendingEvents)
        self.pending = pending
        self.events = InotifyEvents(pending: pending)
        let wakeRead = pipeDescriptors[0]
        let shared = self.shared
        let start: @Sendable () -> Void = {
            let thread = Thread {
                Self.readLoop(descriptor: descriptor, wake: wakeRead, pending: pending, poll: poll)
                // Closed under the lock, so that no add() can use the number afterwards.
                shared.state.withLock { state in
                    if let open = state.inotify { Glibc.close(open) }
                    state.inotify = nil
                }
            }
            thread.name = "lprojd-inotify"
            thread.start()
        }
        startReader = Mutex(startsReading ? nil : start)
        if startsReading { start() }
    }

    /// Starts the reader of a watcher made with `startsReading: false`.
    func startReading() {
        let start = startReader.withLock { start in
            defer { start = nil }
            return start
        }
        start?()
    }

    deinit {
        close()
    }

    /// Watches a path; returns the watch descriptor (the same one if the
    /// path's inode is already watched). Fails once the watcher is closed.
    @discardableResult
    package func add(path: String, mask: InotifyMask) throws -> Int32 {
        try shared.state.withLock { state throws(InotifyError) -> Int32 in
            guard let descriptor = state.inotify, state.wakeWrite != nil else {
                throw InotifyError(description: "watching \(path): the watcher is closed")
            }
            let watch = inotify_add_watch(descriptor, path, mask.rawValue)
            guard watch >= 0 else { throw InotifyError(description: "watching \(path): \(String(cString: strerror(errno)))") }
            return watch
        }
    }

    /// Stops a watch; harmless if the kernel already dropped it.
    package func remove(watch: Int32) {
        shared.state.withLock { state in
            guard let descriptor = state.inotify, state.wakeWrite != nil else { return }
            _ = inotify_rm_watch(descriptor, watch)
        }
    }

    /// Stops the reader thread and ends ``events``.
    package func close() {
        shared.state.withLock { state in
            guard let wakeWrite = state.wakeWrite else { return }
            state.wakeWrite = nil
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
            Glibc.close(wakeWrite)  // the byte stays readable; the reader closes its end
        }
    }

    /// Reads events until woken through `wake` or until `poll` fails, then
    /// closes `wake` and finishes the queue (the caller closes `descriptor`).
    static func readLoop(
        descriptor: Int32, wake: Int32, pending: PendingEvents,
        poll: (UnsafeMutablePointer<pollfd>, nfds_t, Int32) -> Int32
    ) {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer {
            buffer.deallocate()
            Glibc.close(wake)
            pending.finish()
        }
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while true {
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let ready = descriptors.withUnsafeMutableBufferPointer { poll($0.baseAddress!, 2, -1) }
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[1].revents != 0 { return }
            var batch: [InotifyEvent] = []
            while true {
                let count = read(descriptor, buffer, capacity)
                if count <= 0 { break }
                batch += parse(UnsafeRawBufferPointer(start: buffer, count: count))
            }
            pending.append(batch)
        }
    }

    /// Splits a read into `struct inotify_event`s.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        var offset = 0
        let header = 16  // int wd; uint32 mask, cookie, len
        while offset + header <= bytes.count {
            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            guard offset + header + length <= bytes.count else { break }
            let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[(offset + header)..<(offset + header + length)])
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            events.append(InotifyEvent(watch: watch, mask: InotifyMask(rawValue: mask), cookie: cookie, name: name))
            offset += header + length
        }
        return events
    }
}

/// Events read and not yet taken, at most `limit` of them: past it they
/// collapse into one `IN_Q_OVERFLOW`, which tells the consumer to read
/// everything again, as the kernel does when its own queue overflows.
final class PendingEvents: Sendable {
    private struct State {
        var events: [InotifyEvent] = []
        var overflowed = false
        var finished = false
        var waiter: CheckedContinuation<[InotifyEvent]?, Never>?
    }

    static let overflow = InotifyEvent(watch: -1, mask: .queueOverflow, cookie: 0, name: "")

    private let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    func append(_ batch: [InotifyEvent]) {
        guard !batch.isEmpty else { return }
        let handOver: (CheckedContinuation<[InotifyEvent]?, Never>, [InotifyEvent])? = state.withLock { state in
            if state.overflowed {
                // Nothing but the marker is worth keeping until it is taken.
            } else if state.events.count + batch.count > limit {
                state.events = [Self.overflow]
                state.overflowed = true
            } else {
                state.events += batch
            }
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            return (waiter, take(&state))
        }
        if let (waiter, events) = handOver { waiter.resume(returning: events) }
    }

    func finish() {
        let waiter: CheckedContinuation<[InotifyEvent]?, Never>? = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.events.isEmpty ? state.waiter : nil
        }
        waiter?.resume(returning: nil)
    }

    /// Events waiting now.
    var count: Int { state.withLock { $0.events.count } }

    /// The next batch; nil once the reader has stopped and all is taken.
    /// One consumer at a time.
    func next() async -> [InotifyEvent]? {
        await withCheckedContinuation { continuation in
            let ready: [InotifyEvent]?? = state.withLock { state in
                if !state.events.isEmpty { return .some(take(&state)) }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func take(_ state: inout State) -> [InotifyEvent] {
        defer {
            state.events = []
            state.overflowed = false
        }
        return state.events
    }
}

/// The batches of events an ``InotifyWatcher`` reads, for one consumer.
package struct InotifyEvents: AsyncSequence, Sendable {
    package typealias Element = [InotifyEvent]
    let pending: PendingEvents

    package struct AsyncIterator: AsyncIteratorProtocol {
        let pending: PendingEvents
        package mutating func next() async -> [InotifyEvent]? { await pending.next() }
    }

    package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pending: pending) }
}

/// A failed inotify call.
package struct InotifyError: Error, CustomStringConvertible {
    package let description: String
}
