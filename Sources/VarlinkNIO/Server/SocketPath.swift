#if canImport(Glibc)
    import Glibc
#endif

/// Why a socket path cannot be used.
package struct SocketPathError: Error, CustomStringConvertible {
    package let description: String
    /// The errno that best names the problem (`EADDRINUSE` for a live
    /// socket), for a service manager's `ERRNO=`.
    package let code: Int32
}

/// Prepares a path for binding a Unix socket.
enum SocketPath {

    /// Creates the parent directory if needed; replaces a stale socket left
    /// by a crashed run; refuses a live one (another server answering) and
    /// anything that is not a socket.
    static func prepare(_ path: String) throws {
        guard path.utf8.count < 108 else {
            throw SocketPathError(description: "the socket path \(path) is longer than 107 bytes", code: ENAMETOOLONG)
        }
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !parent.isEmpty { try makeDirectories(parent) }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw SocketPathError(description: "\(path) exists and is not a socket; remove it or choose another path", code: EEXIST)
        }
        if isAnswering(path) {
            throw SocketPathError(description: "another server is already answering on \(path)", code: EADDRINUSE)
        }
        guard unlink(path) == 0 || errno == ENOENT else {
            let code = errno
            throw SocketPathError(description: "cannot remove the stale socket \(path): \(String(cString: strerror(code)))", code: code)
        }
    }

    private static func makeDirectories(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/\(component)"
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                let code = errno
                throw SocketPathError(description: "cannot create the directory \(current): \(String(cString: strerror(code)))", code: code)
            }
        }
    }

    /// Whether something accepts connections on the socket.
    private static func isAnswering(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return result == 0
    }
}
