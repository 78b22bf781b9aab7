/// What the Varlink server allows on its socket: message and reply sizes,
/// connections and streams, and how long a connection may hold an
/// unfinished message. The defaults are systemd's where it has one.
package struct ServerLimits: Sendable, Equatable {
    /// The largest message, in bytes (systemd allows 16 MiB; lprojd's
    /// largest request is far smaller).
    package var maximumMessageSize = 1 << 20
    /// The most JSON values one message may hold: parsed, a message takes
    /// memory by its values, not its bytes.
    package var maximumMessageValues = 65_536
    /// The largest reply, in bytes as sent: the service refuses a reply
    /// that would not fit before building it, and the server checks every
    /// reply again once it is encoded.
    package var maximumReplySize = 16 << 20
    /// Messages larger than this are decoded and answered off the event
    /// loop, where their parsing cannot hold it.
    package var largeMessageSize = 64 << 10

    /// Open connections at most (systemd: 4096).
    package var maximumConnections = 4096
    /// Open connections per uid at most.
    package var maximumConnectionsPerUID = 256
    /// New connections a uid may open at once, and then per second: setting
    /// a connection up and tearing it down costs the loops, so a uid that
    /// opens connections faster has them closed at accept, unserved.
    package var connectionBurstPerUID = 512
    package var connectionsPerSecondPerUID = 200.0

    /// Open streams (subscriptions) per uid at most.
    package var maximumStreamsPerUID = 128
    /// Bytes of unread replies a stream may have queued before it is dropped.
    package var maximumStreamQueueBytes = 1 << 20
    /// Calls a connection may have waiting before the server stops reading it.
    package var maximumPendingCalls = 256
    /// Bytes of calls a connection may have waiting before the server stops
    /// reading it.
    package var maximumPendingCallBytes = 256 << 10
    /// How long an unfinished message may go without a byte before its
    /// connection is closed.
    package var incompleteMessageTimeout: Duration = .seconds(30)

    /// The defaults.
    package init() {}
}
