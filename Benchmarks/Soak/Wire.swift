import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A Varlink connection on a plain socket, as a hostile client or a probe
/// uses it: it may write without reading, read with a deadline, and leave
/// messages unfinished.
final class Wire {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private(set) var closedByPeer = false

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < 107 { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw SoakFailure("cannot connect to \(path): \(reason)")
        }
    }

    deinit { close(descriptor) }

    /// Writes everything, blocking; false if the peer closed.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 {
                closedByPeer = true
                return false
            }
            offset += written
        }
        return true
    }

    /// Writes what the kernel takes now, without blocking; returns how much.
    func sendSome(_ bytes: ArraySlice<UInt8>) -> Int {
        let written = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if written < 0, errno != EAGAIN, errno != EWOULDBLOCK { closedByPeer = true }
        return max(0, written)
    }

    /// Sends one call (its JSON text; the NUL is added).
    @discardableResult
    func call(_ json: String) -> Bool { send(Array(json.utf8) + [0]) }

    /// The next message, or nil at EOF or when `timeout` passes.
    func receive(timeout: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let terminator = buffer.firstIndex(of: 0) {
                let message = String(decoding: buffer[..<terminator], as: UTF8.self)
                buffer.removeSubrange(...terminator)
                return message
            }
            let remaining = deadline.timeIntervalSinceNow
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(0, min(remaining * 1000, 1_000_000))))
            if ready <= 0 {
                if remaining <= 0 { return nil }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 {
                closedByPeer = true
                return nil
            }
            buffer += chunk[..<count]
        }
    }

    /// The error name of a reply, if it is one.
    static func errorName(_ reply: String?) -> String? {
        guard let reply, let data = reply.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["error"] as? String
    }

    /// A reply's `parameters.limit`, for LimitExceeded.
    static func limitName(_ reply: String?) -> String? {
        guard let reply, let data = reply.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let parameters = object["parameters"] as? [String: Any]
        else { return nil }
        return parameters["limit"] as? String
    }
}

/// Why the soak could not go on.
struct SoakFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// JSON text for a string.
func jsonString(_ text: String) -> String {
    // Most payloads need no escaping; Foundation is slow on megabytes.
    if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
        return "\"" + text + "\""
    }
    let data = try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
    let array = String(decoding: data, as: UTF8.self)
    return String(array.dropFirst().dropLast())
}

/// A call's JSON text.
func callText(_ method: String, _ parameters: String = "{}", oneway: Bool = false, more: Bool = false) -> String {
    var text = #"{"method":"org.lprojd.Localization.\#(method)","parameters":\#(parameters)"#
    if oneway { text += #","oneway":true"# }
    if more { text += #","more":true"# }
    return text + "}"
}
