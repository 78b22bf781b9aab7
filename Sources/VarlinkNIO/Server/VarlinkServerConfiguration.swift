package import ClientBudget
package import LprojLimits
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
    /// Sizes, connections, streams and timeouts (``ServerLimits``).
    package var limits = ServerLimits()
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
