import ClientBudget
import NIOCore
import Synchronization
import VarlinkProtocol

/// A ``VarlinkStream`` writing to a NIO channel.
///
/// Any thread may send. Replies wait in an outbox that the connection
/// writes in its turns on the event loop (``LoopScheduler``), so that
/// writing to many subscribers takes their uids' share of the loop, not
/// anyone else's. Each reply counts against the stream's queue, and
/// against its uid's output budget, as the buffer that holds it (its size
/// rounded up as NIO allocates, plus NIO's bookkeeping per write) until NIO
/// has handed it to the kernel. When a reply would take the queue or the
/// uid past its limit, the client is not reading: the stream ends
/// (`tooSlow`) with a last error, and the connection closes. Memory per
/// subscriber, and per uid, therefore stays bounded.
final class NIOVarlinkStream: VarlinkStream {
    /// One lock over whether the stream ended, what its queue holds and
    /// its outbox: a reply is charged and queued, or refused, as one step,
    /// so none can join the outbox of a stream that ended (whose bytes
    /// nothing would give back).
    private struct State {
        var ended: VarlinkStreamEnd?
        var queuedBytes = 0
        var handlers: [@Sendable (VarlinkStreamEnd) -> Void] = []
        /// Replies waiting for the connection's turn.
        var outbox: [Outgoing] = []
        /// Whether the connection was told of them.
        var announced = false
    }

    let caller: VarlinkCaller
    private let channel: any Channel
    private let maximumQueuedBytes: Int
    private let tooSlowError: VarlinkError
    private let book: BudgetBook
    private let budgetError: @Sendable (BudgetError) -> VarlinkError
    private let onEnd: @Sendable (VarlinkStreamEnd) -> Void
    private let state = Mutex(State())
    /// Tells the connection, on its loop, that the outbox has replies.
    private let announce: @Sendable () -> Void

    /// A reply waiting in the outbox.
    struct Outgoing {
        let bytes: [UInt8]
        let cost: Int
        let written: @Sendable () -> Void
    }

    init(
        channel: any Channel, caller: VarlinkCaller, maximumQueuedBytes: Int, tooSlowError: VarlinkError,
        book: BudgetBook, budgetError: @escaping @Sendable (BudgetError) -> VarlinkError,
        announce: @escaping @Sendable () -> Void,
        onEnd: @escaping @Sendable (VarlinkStreamEnd) -> Void
    ) {
        self.announce = announce
        self.channel = channel
        self.caller = caller
        self.maximumQueuedBytes = maximumQueuedBytes
        self.tooSlowError = tooSlowError
        self.book = book
        self.budgetError = budgetError
        self.onEnd = onEnd
    }

    /// A stream of a connection served with `configuration`: its queue and
    /// errors are the configuration's.
    convenience init(
        channel: any Channel, caller: VarlinkCaller, configuration: VarlinkServerConfiguration, book: BudgetBook,
        announce: @escaping @Sendable () -> Void, onEnd: @escaping @Sendable (VarlinkStreamEnd) -> Void
    ) {
        self.init(
            channel: channel, caller: caller, maximumQueuedBytes: configuration.limits.maximumStreamQueueBytes,
            tooSlowError: configuration.limitError(.streamQueue(configuration.limits.maximumStreamQueueBytes)), book: book,
            budgetError: { refusal in configuration.limitError(.budget(refusal)) }, announce: announce, onEnd: onEnd)
    }

    @discardableResult
    func yield(_ parameters: JSONObject) -> Bool {
        yield(VarlinkEncodedMessage(continuing: parameters))
    }

    @discardableResult
    func yield(_ message: VarlinkEncodedMessage) -> Bool {
        yield(message, whenWritten: {})
    }

    @discardableResult
    func yield(_ message: VarlinkEncodedMessage, whenWritten written: @escaping @Sendable () -> Void) -> Bool {
        let cost = ConnectionAccount.cost(ofWrite: message.bytes.count)
        let uid = caller.uid
        enum Decision { case send(announce: Bool), ended, tooSlow(VarlinkError) }
        let decision: Decision = state.withLock { state in
            if state.ended != nil { return .ended }
            if state.queuedBytes + cost > maximumQueuedBytes { return .tooSlow(tooSlowError) }
            if let refusal = book.charge(cost, of: .output, to: uid) { return .tooSlow(budgetError(refusal)) }
            state.queuedBytes += cost
            state.outbox.append(Outgoing(bytes: message.bytes, cost: cost, written: written))
            defer { state.announced = true }
            return .send(announce: !state.announced)
        }
        switch decision {
        case .ended:
            written()
            return false
        case .tooSlow(let error):
            end(.tooSlow, lastReply: VarlinkReply(error: error), thenClose: true)
            written()
            return false
        case .send(let announceNow):
            if announceNow { announce() }
            return true
        }
    }

    /// Writes waiting replies, on the event loop, until `deadline`; returns
    /// whether some still wait. The connection calls it in its turns.
    func writeOutbox(until deadline: NIODeadline) -> Bool {
        let messages = state.withLock { state in
            defer { state.outbox = [] }
            return state.outbox
        }
        var index = 0
        while index < messages.count {
            let outgoing = messages[index]
            index += 1
            write(outgoing)
            if NIODeadline.now() >= deadline { break }
        }
        channel.flush()
        // The stream may have ended meanwhile (from another thread, or in
        // the flush, when the peer was gone): what was left is then sent
        // before its last reply, or given back, as ``end`` does with the
        // outbox, never put back where nothing would read it.
        let (ended, stillWaiting) = state.withLock { state in
            if state.ended == nil { state.outbox.insert(contentsOf: messages[index...], at: 0) }
            state.announced = !state.outbox.isEmpty
            return (state.ended, state.announced)
        }
        if let ended {
            let left = messages[index...]
            if Self.sendsWaitingReplies(ending: ended) {
                left.forEach(write)
                channel.flush()
            } else {
                left.forEach(release)
            }
        }
        return stillWaiting
    }

    /// Hands one reply to NIO; its bytes come back once written (or failed).
    private func write(_ outgoing: Outgoing) {
        channel.write(channel.allocator.buffer(bytes: outgoing.bytes)).whenComplete { _ in self.release(outgoing) }
    }

    /// Gives a reply's bytes back to the queue and the uid's budget.
    private func release(_ outgoing: Outgoing) {
        state.withLock { $0.queuedBytes -= outgoing.cost }
        book.release(outgoing.cost, of: .output, from: caller.uid)
        outgoing.written()
    }

    /// Whether replies still waiting go out when the stream ends this way
    /// (in order), or are dropped (the client stopped reading, or is gone).
    private static func sendsWaitingReplies(ending reason: VarlinkStreamEnd) -> Bool {
        reason == .finished || reason == .serverShutdown
    }

    func finish(_ reply: VarlinkReply) {
        let last = reply.error == nil && reply.continues ? VarlinkReply(parameters: reply.parameters) : reply
        end(.finished, lastReply: last, thenClose: false)
    }

    func abandon() {
        end(.tooSlow, lastReply: VarlinkReply(error: tooSlowError), thenClose: true)
    }

    func onTermination(_ handler: @escaping @Sendable (VarlinkStreamEnd) -> Void) {
        let alreadyEnded: VarlinkStreamEnd? = state.withLock { state in
            if let ended = state.ended { return ended }
            state.handlers.append(handler)
            return nil
        }
        if let alreadyEnded { handler(alreadyEnded) }
    }

    /// Ends the stream once: sends the last reply, if any, and runs the
    /// termination handlers.
    func end(_ reason: VarlinkStreamEnd, lastReply: VarlinkReply?, thenClose: Bool) {
        let ending: (handlers: [@Sendable (VarlinkStreamEnd) -> Void], waiting: [Outgoing])? = state.withLock { state in
            guard state.ended == nil else { return nil }
            state.ended = reason
            defer {
                state.handlers = []
                state.outbox = []
            }
            return (state.handlers, state.outbox)
        }
        guard let (handlers, waiting) = ending else { return }
        // What waited in the outbox goes out before the last reply when the
        // stream ends in order; a client that stopped reading, or is gone,
        // gets none of it, and its budget comes back.
        let keep = Self.sendsWaitingReplies(ending: reason)
        if !keep { waiting.forEach(release) }
        if lastReply != nil || thenClose || keep && !waiting.isEmpty {
            let channel = self.channel
            onEventLoop {
                if keep {
                    waiting.forEach(self.write)
                    channel.flush()
                }
                if let lastReply {
                    let written = channel.writeAndFlush(channel.allocator.buffer(bytes: lastReply.encoded()))
                    if thenClose { written.whenComplete { _ in channel.close(promise: nil) } }
                }
                // A client that does not read would never let the last write
                // complete; give it a second, then close anyway.
                if thenClose {
                    channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
                }
            }
        }
        for handler in handlers { handler(reason) }
        onEnd(reason)
    }

    /// Runs on the channel's event loop: now if already there (so writes
    /// keep their order with the caller's), else as soon as possible.
    private func onEventLoop(_ body: @escaping @Sendable () -> Void) {
        if channel.eventLoop.inEventLoop { body() } else { channel.eventLoop.execute(body) }
    }
}
