public import VarlinkProtocol

/// A limit the server enforces.
public enum VarlinkLimit: Sendable, Equatable {
    /// A message larger than this many bytes.
    case messageSize(Int)
    /// More connections than this in all.
    case connections(Int)
    /// More connections than this from one user.
    case connectionsPerUID(Int)
    /// A stream whose unread replies exceed this many bytes.
    case streamQueue(Int)
}

/// How a ``VarlinkServer`` behaves at its limits and when it stops.
public struct VarlinkServerConfiguration: Sendable {
    /// The largest message, in bytes (systemd: 16 MiB).
    public var maximumMessageSize = 16 << 20
    /// Open connections at most (systemd: 4096).
    public var maximumConnections = 4096
    /// Open connections per uid at most (systemd: 1024).
    public var maximumConnectionsPerUID = 1024
    /// Bytes of unread replies a stream may have queued before it is dropped.
    public var maximumStreamQueueBytes = 1 << 20
    /// Calls a connection may have waiting before the server stops reading it.
    public var maximumPendingCalls = 256
    /// Permissions of the socket file when the server binds it.
    public var socketMode: UInt32 = 0o666
    /// The error sent when a limit is exceeded.
    public var limitError: @Sendable (VarlinkLimit) -> VarlinkError = { limit in
        VarlinkError("org.varlink.service.InvalidParameter", ["parameter": .string("\(limit)")])
    }
    /// The last reply of every open stream when the server stops.
    public var shutdownReply = VarlinkReply(parameters: [:])

    /// The defaults.
    public init() {}
}
