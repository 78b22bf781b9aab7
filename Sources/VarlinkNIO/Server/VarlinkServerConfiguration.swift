package import ClientBudget
package import NIOCore
package import VarlinkProtocol

/// A limit the server enforces.
package enum VarlinkLimit: Sendable, Equatable {
    /// A message larger than this many bytes.
    case messageSize(Int)
    /// A message of more JSON values than this.
    case messageValues(Int)
    /// More connections than this in all.
    case connections(Int)
    /// More connections than this from one user.
    case connectionsPerUID(Int)
    /// A stream whose unread replies exceed this many bytes.
    case streamQueue(Int)
    /// More open streams than this from one user.
    case streamsPerUID(Int)
    /// A reply larger than this many bytes.
    case replySize(Int)
    /// An unfinished message that received nothing for this many seconds.
    case incompleteMessageTimeout(Int)
    /// One of the per-uid or overall budgets (``BudgetLimits``).
    case budget(BudgetError)
}

/// How a ``VarlinkServer`` behaves at its limits and when it stops.
package struct VarlinkServerConfiguration: Sendable {
    /// The largest message, in bytes (systemd allows 16 MiB; lprojd's
    /// largest request is far smaller).
    package var maximumMessageSize = 1 << 20
    /// The most JSON values one message may hold: parsed, a message takes
    /// memory by its values, not its bytes.
    package var maximumMessageValues = 65_536
    /// The largest reply, in bytes: a larger one is replaced by a
    /// `replySize` limit error.
    package var maximumReplySize = 16 << 20
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
    package var incompleteMessageTimeout: TimeAmount = .seconds(30)
    /// Messages larger than this are decoded and answered off the event
    /// loop, where their parsing cannot hold it.
    package var largeMessageSize = 64 << 10
    /// How the event loops are shared among connections.
    package var turns = TurnBudgets()
    /// Workers answering calls off the event loops.
    package var workers = 4
    /// Permissions of the socket file when the server binds it.
    package var socketMode: UInt32 = 0o666
    /// The error sent when a limit is exceeded.
    package var limitError: @Sendable (VarlinkLimit) -> VarlinkError = { limit in
        VarlinkError("org.varlink.service.InvalidParameter", ["parameter": .string("\(limit)")])
    }
    /// The last reply of every open stream when the server stops.
    package var shutdownReply = VarlinkReply(parameters: [:])

    /// The defaults.
    package init() {}
}

/// How long a connection's turn on its event loop, and a run of turns, may
/// last (see `LoopScheduler`).
package struct TurnBudgets: Sendable, Equatable {
    /// One connection's turn.
    package var turn: TimeAmount = .microseconds(250)
    /// A run of turns between two polls of the loop's sockets.
    package var run: TimeAmount = .milliseconds(2)
    /// The pause after a run that used its whole budget.
    package var pause: TimeAmount = .microseconds(50)

    package init() {}
}
