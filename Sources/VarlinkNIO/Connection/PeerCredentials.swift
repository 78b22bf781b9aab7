#if canImport(Glibc)
    import Glibc
#endif
import NIOCore
import VarlinkProtocol

/// The peer of a Unix socket, as `SO_PEERCRED` reports it.
///
/// Glibc's Swift module does not export `struct ucred`, so this mirrors its
/// layout: pid, uid, gid.
struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0

    /// Reads the credentials of an accepted Unix-socket channel.
    static func read(from channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
        return provider.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
    }
}
