import Foundation
import Synchronization
import LprojTestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// A datagram socket bound to a path, read on a thread of its own, keeping
/// every datagram with the time it arrived. Stands in for systemd's notify
/// socket and for journald's.
final class DatagramReceiver: @unchecked Sendable {
    struct Datagram: Sendable {
        let bytes: [UInt8]
        let arrival: ContinuousClock.Instant
    }

    /// What the reader thread shares with the tests: the datagrams, and the
    /// tasks waiting for the next one.
    private final class Shared: Sendable {
        struct State {
            var received: [Datagram] = []
            var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
            var nextWaiter: UInt64 = 0
        }
        let state = Mutex(State())
        let stopped = Atomic(false)

        func append(_ datagram: Datagram) {
            let waiters = state.withLock { state in
                state.received.append(datagram)
                defer { state.waiters = [:] }
                return state.waiters.values
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    let path: String
    private let descriptor: Int32
    private let shared = Shared()
    private var reader: Thread?

    init(path: String) throws {
        self.path = path
        unlink(path)
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw DaemonError(description: "cannot bind \(path): \(String(cString: strerror(errno)))")
        }
        // Other users (lprojd under DynamicUser in real life) send to it.
        chmod(path, 0o666)
        // deinit shuts the socket down, which wakes the reader; the receive
        // timeout is only a backstop.
        var interval = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        let reader = Thread { [descriptor, shared] in
            var buffer = [UInt8](repeating: 0, count: 1 << 17)
            while !shared.stopped.load(ordering: .relaxed) {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count > 0 {
                    shared.append(Datagram(bytes: Array(buffer[..<count]), arrival: .now))
                }
            }
            close(descriptor)
        }
        reader.start()
        self.reader = reader
    }

    deinit {
        shared.stopped.store(true, ordering: .relaxed)
        // Wakes the reader, which closes the socket.
        shutdown(descriptor, Int32(SHUT_RDWR))
        unlink(path)
    }

    var datagrams: [Datagram] { shared.state.withLock { $0.received } }

    /// Returns once more than `count` datagrams have arrived, or the task is cancelled.
    private func arrival(after count: Int) async {
        let shared = self.shared
        let id = shared.state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let now = shared.state.withLock { state -> Bool in
                    if state.received.count > count || Task.isCancelled { return true }
                    state.waiters[id] = waiter
                    return false
                }
                if now { waiter.resume() }
            }
        } onCancel: {
            shared.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Waits until `predicate` holds for what has arrived, looking again at
    /// each new datagram.
    func wait<T: Sendable>(seconds: Double = 15, _ what: String, until predicate: @escaping @Sendable ([Datagram]) -> T?) async throws -> T
    {
        try await withTimeout(seconds: seconds, "waiting for \(what)") {
            while true {
                let arrived = self.datagrams
                if let found = predicate(arrived) { return found }
                await self.arrival(after: arrived.count)
                try Task.checkCancellation()
            }
        }
    }
}

/// The `NOTIFY_SOCKET` end of sd_notify: `KEY=VALUE` lines per datagram.
final class NotifyListener: Sendable {
    struct Message: Sendable, CustomStringConvertible {
        let fields: [String: String]
        let text: String
        let arrival: ContinuousClock.Instant

        subscript(key: String) -> String? { fields[key] }
        var description: String { text.replacingOccurrences(of: "\n", with: " | ") }
    }

    private let receiver: DatagramReceiver
    var path: String { receiver.path }

    init(directory: URL) throws {
        receiver = try DatagramReceiver(path: directory.appendingPathComponent("notify.sock").path)
    }

    var messages: [Message] { receiver.datagrams.map(Self.message) }

    static func message(_ datagram: DatagramReceiver.Datagram) -> Message {
        let text = String(decoding: datagram.bytes, as: UTF8.self)
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return Message(fields: fields, text: text, arrival: datagram.arrival)
    }

    /// The first message, from the `after`-th on, that has `key` (with
    /// `value` if given, and passing `where`); returns it and its index.
    func next(
        _ key: String, _ value: String? = nil, after start: Int = 0, seconds: Double = 15,
        where predicate: @escaping @Sendable (Message) -> Bool = { _ in true }
    ) async throws -> (Message, Int) {
        try await receiver.wait(seconds: seconds, "\(key)\(value.map { "=\($0)" } ?? "") after message \(start); got \(messages)") {
            datagrams in
            let messages = datagrams.map(Self.message)
            guard start < messages.count else { return nil }
            for index in start..<messages.count {
                let message = messages[index]
                if let found = message[key], value == nil || found == value, predicate(message) { return (message, index) }
            }
            return nil
        }
    }
}

/// journald's native socket, as sd_journal_sendv writes to it: per entry a
/// datagram of fields, each `NAME=value\n`, or `NAME\n` + a little-endian
/// 64-bit length + the value + `\n` when the value holds a newline.
final class FakeJournal: Sendable {
    private let receiver: DatagramReceiver

    init(path: String) throws {
        receiver = try DatagramReceiver(path: path)
    }

    var entries: [[String: String]] { receiver.datagrams.compactMap { Self.entry($0.bytes) } }

    /// The fields of one entry. A name sent twice (journald would keep both
    /// values) is listed under the key `duplicates`.
    static func entry(_ bytes: [UInt8]) -> [String: String]? {
        var pairs: [(String, String)] = []
        var index = 0
        while index < bytes.count {
            guard let end = bytes[index...].firstIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "=") }) else { return nil }
            let name = String(decoding: bytes[index..<end], as: UTF8.self)
            if bytes[end] == UInt8(ascii: "=") {
                guard let newline = bytes[end...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                pairs.append((name, String(decoding: bytes[(end + 1)..<newline], as: UTF8.self)))
                index = newline + 1
            } else {
                guard end + 9 <= bytes.count else { return nil }
                var length = 0
                for offset in 0..<8 { length |= Int(bytes[end + 1 + offset]) << (8 * offset) }
                let start = end + 9
                guard start + length < bytes.count else { return nil }
                pairs.append((name, String(decoding: bytes[start..<(start + length)], as: UTF8.self)))
                index = start + length + 1
            }
        }
        var fields = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        let names = pairs.map(\.0)
        let repeated = Set(names.filter { name in names.filter { $0 == name }.count > 1 })
        if !repeated.isEmpty { fields["duplicates"] = repeated.sorted().joined(separator: ",") }
        return fields
    }

    func entry(seconds: Double = 15, where predicate: @escaping @Sendable ([String: String]) -> Bool) async throws -> [String: String] {
        try await receiver.wait(seconds: seconds, "a journal entry; got \(entries.map { $0["MESSAGE"] ?? "?" })") { datagrams in
            datagrams.lazy.compactMap { FakeJournal.entry($0.bytes) }.first(where: predicate)
        }
    }
}
