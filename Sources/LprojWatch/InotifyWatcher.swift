#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// One inotify event.
public struct InotifyEvent: Sendable, Hashable {
    /// The watch it belongs to.
    public let watch: Int32
    /// What happened (`IN_*` bits).
    public let mask: InotifyMask
    /// Pairs `IN_MOVED_FROM` with `IN_MOVED_TO`.
    public let cookie: UInt32
    /// The file's name inside the watched directory; empty for the directory itself.
    public let name: String

    /// An event (the reader makes them; tests may too).
    public init(watch: Int32, mask: InotifyMask, cookie: UInt32, name: String) {
        self.watch = watch
        self.mask = mask
        self.cookie = cookie
        self.name = name
    }
}

/// The inotify event bits lprojd uses.
public struct InotifyMask: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let closeWrite = InotifyMask(rawValue: UInt32(IN_CLOSE_WRITE))
    public static let movedFrom = InotifyMask(rawValue: UInt32(IN_MOVED_FROM))
    public static let movedTo = InotifyMask(rawValue: UInt32(IN_MOVED_TO))
    public static let create = InotifyMask(rawValue: UInt32(IN_CREATE))
    public static let delete = InotifyMask(rawValue: UInt32(IN_DELETE))
    public static let deleteSelf = InotifyMask(rawValue: UInt32(IN_DELETE_SELF))
    public static let moveSelf = InotifyMask(rawValue: UInt32(IN_MOVE_SELF))
    public static let attributes = InotifyMask(rawValue: UInt32(IN_ATTRIB))
    public static let onlyDirectory = InotifyMask(rawValue: UInt32(IN_ONLYDIR))
    public static let isDirectory = InotifyMask(rawValue: UInt32(IN_ISDIR))
    public static let queueOverflow = InotifyMask(rawValue: UInt32(IN_Q_OVERFLOW))
    public static let ignored = InotifyMask(rawValue: UInt32(IN_IGNORED))
}

/// Watches files and directories with Linux's inotify: no polling.
///
/// A thread of its own waits in `poll()` on the inotify descriptor and hands
/// each batch of events to ``events``; ``close()`` wakes it through a pipe.
public final class InotifyWatcher: Sendable {
    /// A failed inotify call.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let descriptor: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let closed = Mutex(false)
    /// Batches of events, in the order the kernel reported them.
    public let events: AsyncStream<[InotifyEvent]>
    private let continuation: AsyncStream<[InotifyEvent]>.Continuation

    /// Opens an inotify instance and starts its reader thread.
    public init() throws {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw Failure(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        var pipeDescriptors: [Int32] = [0, 0]
        guard pipe(&pipeDescriptors) == 0 else {
            Glibc.close(descriptor)
            throw Failure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        for end in pipeDescriptors {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        self.descriptor = descriptor
        self.wakeRead = pipeDescriptors[0]
        self.wakeWrite = pipeDescriptors[1]
        (events, continuation) = AsyncStream.makeStream(of: [InotifyEvent].self, bufferingPolicy: .unbounded)
        let thread = Thread { [descriptor, wakeRead = pipeDescriptors[0], continuation] in
            Self.readLoop(descriptor: descriptor, wake: wakeRead, continuation: continuation)
        }
        thread.name = "lprojd-inotify"
        thread.start()
    }

    deinit {
        close()
    }

    /// Watches a path; returns the watch descriptor (the same one if the
    /// path's inode is already watched).
    @discardableResult
    public func add(path: String, mask: InotifyMask) throws -> Int32 {
        let watch = inotify_add_watch(descriptor, path, mask.rawValue)
        guard watch >= 0 else { throw Failure(description: "watching \(path): \(String(cString: strerror(errno)))") }
        return watch
    }

    /// Stops a watch; harmless if the kernel already dropped it.
    public func remove(watch: Int32) {
        _ = inotify_rm_watch(descriptor, watch)
    }

    /// Stops the reader thread and ends ``events``.
    public func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        Glibc.close(wakeWrite)  // the byte stays readable; the reader closes its end
    }

    private static func readLoop(descriptor: Int32, wake: Int32, continuation: AsyncStream<[InotifyEvent]>.Continuation) {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer {
            buffer.deallocate()
            continuation.finish()
        }
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while true {
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[1].revents != 0 { break }
            var batch: [InotifyEvent] = []
            while true {
                let count = read(descriptor, buffer, capacity)
                if count <= 0 { break }
                batch += parse(UnsafeRawBufferPointer(start: buffer, count: count))
            }
            if !batch.isEmpty { continuation.yield(batch) }
        }
        Glibc.close(descriptor)
        Glibc.close(wake)
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
