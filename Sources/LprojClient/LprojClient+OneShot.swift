#if canImport(Glibc)
    import Glibc
#endif
import LprojInterface
public import VarlinkProtocol

extension LprojClient {
    /// Makes one call on a connection of its own and returns its reply,
    /// blocking the calling thread: no event loop, no threads, no task.
    ///
    /// For a process that asks one thing and exits (`lprojctl lookup`),
    /// where starting an event-loop group costs more than the call. A reply
    /// larger than `maximumReplyBytes` is refused (`.disconnected`), as is
    /// one that does not come within `timeoutMilliseconds`.
    public static func callOnce<Method: VarlinkMethod>(
        _ method: Method.Type, _ parameters: Method.Parameters, path: String? = nil, maximumReplyBytes: Int = 64 << 20,
        timeoutMilliseconds: Int32 = 30_000
    ) throws(LprojError) -> Method.Reply {
        let path = path ?? defaultSocketPath()
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .disconnected }
        defer { Glibc.close(descriptor) }
        guard connectSocket(descriptor, to: path) else { throw .disconnected }
        var message = VarlinkCall(method: Method.qualifiedName, parameters: parameters.varlinkObject).encoded()
        message.append(0)
        guard writeAll(descriptor, message) else { throw .disconnected }
        guard let frame = readFrame(descriptor, maximumBytes: maximumReplyBytes, timeoutMilliseconds: timeoutMilliseconds) else {
            throw .disconnected
        }
        let reply: VarlinkReply
        do {
            reply = try frame.withUnsafeBytes { bytes throws(VarlinkError) in try VarlinkReply.decode(bytes) }
        } catch {
            throw .disconnected
        }
        return try typedReply(Method.self, reply)
    }

    private static func connectSocket(_ descriptor: Int32, to path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, length) == 0 }
        }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }

    /// The bytes up to the first NUL, or nil if the connection ends, the
    /// reply grows past the limit, or nothing comes for the timeout.
    private static func readFrame(_ descriptor: Int32, maximumBytes: Int, timeoutMilliseconds: Int32) -> [UInt8]? {
        var frame: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, timeoutMilliseconds)
            if polled < 0, errno == EINTR { continue }
            guard polled > 0 else { return nil }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            if let end = chunk[..<count].firstIndex(of: 0) {
                frame += chunk[..<end]
                return frame.count <= maximumBytes ? frame : nil
            }
            frame += chunk[..<count]
            guard frame.count <= maximumBytes else { return nil }
        }
    }
}
