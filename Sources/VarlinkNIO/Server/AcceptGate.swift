import NIOCore
import Synchronization

/// Bounds the connections accepted but not yet set up.
///
/// NIO accepts a connection on the listening socket's loop and hands its
/// set-up (registering it, reading its peer's credentials, refusing it
/// when its uid opens connections too fast) to one of the loops that serve
/// calls, as a task. A client that connects and closes as fast as it can
/// (tens of thousands a second, nearly all refused) would queue those
/// tasks faster than the loops run them, and a loop runs every task it has
/// before it looks at its sockets again: another uid's call then waited
/// 150 ms and more. The gate stops reading the listening socket while
/// ``maximumInFlight`` set-ups wait, and reads it again once they are down
/// to ``resumeAt``: the flood then waits in the kernel's backlog, at no cost
/// to the loops, and each loop holds a bounded queue of set-ups.
final class AcceptGate: Sendable {
    let maximumInFlight: Int
    let resumeAt: Int

    private struct State {
        var inFlight: Set<ObjectIdentifier> = []
        var paused = false
        var listening: (any Channel)?
    }

    private let state = Mutex(State())

    init(maximumInFlight: Int = 16, resumeAt: Int = 4) {
        self.maximumInFlight = maximumInFlight
        self.resumeAt = resumeAt
    }

    /// Set-ups accepted and not yet done.
    var inFlight: Int { state.withLock { $0.inFlight.count } }

    /// Whether the listening socket is not being read.
    var isPaused: Bool { state.withLock { $0.paused } }

    /// The handler that counts accepted connections, in the listening
    /// socket's pipeline (before the bootstrap's own).
    func handler() -> any ChannelInboundHandler & Sendable { Handler(gate: self) }

    /// A connection was accepted: its set-up starts.
    func accepted(_ connection: any Channel, on listening: any Channel) {
        let pause = state.withLock { state in
            state.listening = listening
            state.inFlight.insert(ObjectIdentifier(connection))
            guard !state.paused, state.inFlight.count >= maximumInFlight else { return false }
            state.paused = true
            return true
        }
        // Whatever becomes of it, its set-up is over when it closes.
        connection.closeFuture.whenComplete { [self] _ in setUp(connection) }
        if pause { listening.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in } }
    }

    /// A connection's set-up is done (it is served, or refused): once;
    /// later calls for it change nothing.
    func setUp(_ connection: any Channel) {
        let resume: (any Channel)? = state.withLock { state in
            guard state.inFlight.remove(ObjectIdentifier(connection)) != nil else { return nil }
            guard state.paused, state.inFlight.count <= resumeAt else { return nil }
            state.paused = false
            return state.listening
        }
        resume?.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
    }

    private final class Handler: ChannelInboundHandler, Sendable {
        typealias InboundIn = any Channel
        typealias InboundOut = any Channel
        let gate: AcceptGate

        init(gate: AcceptGate) { self.gate = gate }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            gate.accepted(unwrapInboundIn(data), on: context.channel)
            context.fireChannelRead(data)
        }
    }
}
