import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A minimal blocking Unix-socket client: what a C client would do, so the
/// benchmark measures the server, not the client's framework.
final class BenchSocket {
    let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (index, byte) in path.utf8.enumerated() { raw[index] = byte } }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw BenchmarkFailure("cannot connect to \(path): \(String(cString: strerror(errno)))")
        }
    }

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Reads through the next NUL; returns the message's length, or -1 at EOF.
    @discardableResult
    func receive() -> Int {
        var length = 0
        while true {
            if start < end {
                if let terminator = buffer[start..<end].firstIndex(of: 0) {
                    length += terminator - start
                    start = terminator + 1
                    return length
                }
                length += end - start
                start = end
            }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { return -1 }
            start = 0
            end = count
        }
    }

    /// Reads the next message as text.
    func receiveText() -> String? {
        var message: [UInt8] = []
        while true {
            if start < end {
                if let terminator = buffer[start..<end].firstIndex(of: 0) {
                    message += buffer[start..<terminator]
                    start = terminator + 1
                    return String(decoding: message, as: UTF8.self)
                }
                message += buffer[start..<end]
                start = end
            }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { return nil }
            start = 0
            end = count
        }
    }

    /// Whether a complete message is already buffered.
    var hasBufferedMessage: Bool { start < end && buffer[start..<end].contains(0) }
}

/// `lproj-bench --echo-server PATH`: the floor. Accepts one client at a time
/// and writes back every byte it reads, so a NUL-framed request comes back
/// as a NUL-framed reply.
enum EchoServer {
    static func run(path: String) -> Never {
        unlink(path)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (index, byte) in path.utf8.enumerated() { raw[index] = byte } }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        listen(listener, 16)
        FileHandle.standardOutput.write(Data("listening\n".utf8))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            while true {
                let count = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                var offset = 0
                while offset < count {
                    let written = buffer[offset..<count].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(client)
        }
    }
}
