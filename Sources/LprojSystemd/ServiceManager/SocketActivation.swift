#if canImport(Glibc)
    import Glibc
#endif
import CSystemd

/// A listening socket passed by the service manager (socket activation).
package struct ActivatedSocket: Sendable, Equatable {
    /// The descriptor, from `SD_LISTEN_FDS_START` (3) on.
    package let descriptor: CInt
    /// Its `FileDescriptorName=` (systemd's default is the socket unit's
    /// name; `unknown` when the manager gave none).
    package let name: String

    package init(descriptor: CInt, name: String) {
        self.descriptor = descriptor
        self.name = name
    }
}

/// Socket activation: the sockets systemd (or `systemd-socket-activate`)
/// opened for the daemon, read once from `LISTEN_PID`, `LISTEN_FDS` and
/// `LISTEN_FDNAMES`.
package enum SocketActivation {

    /// Takes the passed sockets and unsets the `LISTEN_*` variables, so that
    /// a child process does not believe they are its own. Empty when the
    /// daemon was not socket-activated (or the sockets are for another
    /// process: `LISTEN_PID` differs).
    package static func takeListeningSockets() throws -> [ActivatedSocket] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = lprojd_listen_fds_with_names(&names)
        guard count >= 0 else {
            throw SocketActivationError(
                description: "cannot read the sockets passed by the service manager: \(String(cString: strerror(-count)))", code: -count)
        }
        defer { lprojd_free_names(names, count) }
        return (0..<count).map { index in
            let name = names?[Int(index)].map { String(cString: $0) } ?? "unknown"
            return ActivatedSocket(descriptor: CInt(SD_LISTEN_FDS_START) + index, name: name)
        }
    }

    /// The socket to serve Varlink on: the one named `name`, or the only
    /// one passed, whatever its name (a unit without
    /// `FileDescriptorName=`). Several unnamed sockets are ambiguous.
    package static func socket(named name: String, in sockets: [ActivatedSocket]) throws -> ActivatedSocket? {
        if let named = sockets.first(where: { $0.name == name }) { return named }
        if sockets.count == 1 { return sockets[0] }
        guard sockets.isEmpty else {
            let names = sockets.map(\.name).joined(separator: ", ")
            throw SocketActivationError(
                description:
                    "the service manager passed \(sockets.count) sockets (\(names)) and none is named '\(name)'; set FileDescriptorName=\(name) in the socket unit",
                code: EINVAL)
        }
        return nil
    }

    /// Whether the descriptor is a listening stream socket, which is what a
    /// `ListenStream=` unit passes; anything else is a unit mistake that is
    /// better reported than served.
    package static func isListeningStreamSocket(_ descriptor: CInt) -> Bool {
        sd_is_socket(descriptor, AF_UNSPEC, CInt(SOCK_STREAM.rawValue), 1) > 0
    }
}

package struct SocketActivationError: Error, CustomStringConvertible {
    package let description: String
    /// The errno to report to the service manager.
    package let code: Int32

    package init(description: String, code: Int32) {
        self.description = description
        self.code = code
    }
}
