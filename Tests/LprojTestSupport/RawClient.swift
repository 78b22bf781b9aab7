package import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A deliberately simple Varlink client on a blocking socket, with a read
/// timeout so that a test fails instead of hanging.
package final class RawClient {
    package let descriptor: Int32
    private var buffer: [UInt8] = []

    package init(path: String, timeout: TimeInterval = 5) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw ClientError(description: "connect failed: \(String(cString: strerror(errno)))")
        }
        var interval = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - floor(timeout)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    package struct ClientError: Error, CustomStringConvertible { package let description: String }

    package func send(_ text: String) throws {
        try sendBytes(Array(text.utf8) + [0])
    }

    package func sendBytes(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a server that closed the connection (over a
            // limit, say) is an error here, not a SIGPIPE that ends the tests.
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw ClientError(description: "write failed: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// The next message, or nil when the server closed the connection.
    /// The blocking read runs on a thread of its own, so that it does not
    /// hold one of the few threads Swift's concurrency runs tasks on.
    package func receive() async throws -> String? {
        try await offload { try self.receiveBlocking() }
    }

    /// The next message, parsed.
    package func receiveJSON() async throws -> [String: Any]? {
        guard let text = try await receive() else { return nil }
        return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    private func receiveBlocking() throws -> String? {
        while true {
            if let terminator = buffer.firstIndex(of: 0) {
                let message = String(decoding: buffer[..<terminator], as: UTF8.self)
                buffer.removeSubrange(...terminator)
                return message
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return nil }
            if count < 0 {
                if errno == ECONNRESET { return nil }
                throw ClientError(description: "read failed or timed out: \(String(cString: strerror(errno)))")
            }
            buffer += chunk[..<count]
        }
    }

}

/// Runs blocking work on a dedicated thread.
package func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try work()) } catch { continuation.resume(throwing: error) }
        }
        thread.start()
    }
}

extension RawClient: @unchecked Sendable {}
