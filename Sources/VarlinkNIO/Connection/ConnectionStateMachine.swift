import ClientBudget
import NIOCore

/// The life of one connection, without sockets: given what happened (and
/// when), what the handler must do next.
///
/// Calls are answered one at a time and in order. A call being answered off
/// the event loop (a commit, a large table) or a stream holds the
/// connection; calls that arrive meanwhile wait in its queue. The machine
/// decides when the connection may take its next call (idle, the client
/// reading its replies, its uid's output within budget), when the server
/// stops reading from the socket (the queue is long, the client is not
/// reading, the uid's input budget is spent) and when it reads again, when
/// it asks the event loop's scheduler for a turn, when an unfinished
/// message has waited too long, and when the connection closes. Time is
/// given with each event that needs it (the event loop's, which tests move
/// by hand), never read from a clock here.
struct ConnectionStateMachine {
    /// What the connection is doing.
    enum State: Equatable {
        /// Taking calls from its queue, if it may.
        case idle
        /// Waiting for the answer to a call being worked on off the loop.
        case answering
        /// Holding an open stream (a subscription).
        case streaming
        /// Taking no more calls; closes once the answer it waits for, if
        /// any, is written.
        case closing(answerPending: Bool)
        /// The socket is closed.
        case closed
    }

    /// Why reading from the socket is held, besides a long queue.
    struct Holds: OptionSet {
        let rawValue: UInt8
        /// The client does not read its replies (NIO's high-water mark).
        static let notWritable = Holds(rawValue: 1 << 0)
        /// Its uid holds more unsent output than its budget allows.
        static let outputOverBudget = Holds(rawValue: 1 << 1)
        /// Its uid holds more unanswered input than its budget allows.
        static let inputOverBudget = Holds(rawValue: 1 << 2)
    }

    /// What the handler should do with the socket's reading.
    enum Reading: Equatable {
        case unchanged, pause, resume
    }

    // What the handler must do after each event: a type of its own for
    // each kind of event, with only what that event can call for.

    /// How reading and turns follow an event (most events call for nothing else).
    struct Flow: Equatable {
        /// Stop or start reading from the socket.
        var reading: Reading = .unchanged
        /// Ask the event loop's scheduler for a turn to answer queued calls.
        var requestTurn = false

        static let unchanged = Flow()
    }

    /// After bytes arrived.
    struct ReceivedAction: Equatable {
        var flow: Flow
        /// Call ``incompleteMessageCheck(partialBytes:now:)`` at this time.
        var checkIncompleteMessageAt: NIODeadline?

        static let none = ReceivedAction(flow: .unchanged)
    }

    /// After the client broke a limit.
    enum RefuseAction: Equatable {
        /// The connection is already closing: nothing more.
        case none
        /// Drop the calls queued and unread, answer this limit's error, and
        /// close once it is flushed.
        case refuse(VarlinkLimit, Flow)
    }

    /// After the time set for an unfinished message came.
    enum IncompleteCheckAction: Equatable {
        /// Nothing waits unfinished any more, or the connection is closing.
        case none
        /// The message received bytes meanwhile: look again at this time.
        case checkAgain(at: NIODeadline)
        /// It waited too long: as ``RefuseAction/refuse(_:_:)``.
        case refuse(VarlinkLimit, Flow)
    }

    /// After the answer worked on off the loop was written.
    enum AnsweredAction: Equatable {
        /// The server stopped meanwhile: close once it is flushed.
        case close
        case flow(Flow)
    }

    /// After the server asked the connection to stop.
    enum ShutdownAction: Equatable {
        /// Already closing or closed.
        case none
        /// Drop the calls queued and unread; end the open stream with the
        /// server's last reply if there is one; close once what is written
        /// is flushed, unless an answer is still being worked on (then
        /// ``answered()`` closes).
        case stop(endStream: Bool, closeNow: Bool, Flow)
    }

    /// Whether the next queued call may be answered now.
    enum Next: Equatable {
        /// Take the first queued call and answer it.
        case answer
        /// Not now; the connection will ask for a turn when it may go on.
        case wait
    }

    /// The limits on a connection's queue, after which it stops reading,
    /// and on how long an unfinished message may wait for its next byte.
    struct Limits: Equatable {
        var maximumQueuedCalls: Int
        var maximumQueuedBytes: Int
        var incompleteMessageTimeout: TimeAmount = .seconds(10)
    }

    let limits: Limits
    private(set) var state = State.idle
    private(set) var queuedCalls = 0
    private(set) var queuedBytes = 0
    private(set) var holds: Holds = []
    /// Replies of its open stream wait to be written in its next turn.
    private(set) var streamOutputPending = false
    /// What the handler was last told: it is in the scheduler's queue, or
    /// in its turn; its reading is paused; a check of an unfinished message
    /// is due.
    private var turnRequested = false
    private var readingPaused = false
    private var incompleteCheckScheduled = false
    private var lastInput: NIODeadline?

    init(limits: Limits) {
        self.limits = limits
    }

    /// Whether it takes input and calls (not closing or closed).
    var isOpen: Bool {
        switch state {
        case .idle, .answering, .streaming: true
        case .closing, .closed: false
        }
    }

    // MARK: Input

    /// Bytes arrived: `calls` complete calls of `bytes` joined the queue,
    /// and `partialBytes` of an unfinished one wait after them.
    mutating func received(calls: Int = 1, bytes: Int, partialBytes: Int = 0, now: NIODeadline) -> ReceivedAction {
        guard isOpen else { return .none }
        lastInput = now
        queuedCalls += calls
        queuedBytes += bytes
        var action = ReceivedAction(flow: settle())
        if partialBytes > 0, !incompleteCheckScheduled {
            incompleteCheckScheduled = true
            action.checkIncompleteMessageAt = now + limits.incompleteMessageTimeout
        }
        return action
    }

    /// The time set by `checkIncompleteMessageAt` came: a message that has
    /// received nothing for the timeout closes the connection.
    mutating func incompleteMessageCheck(partialBytes: Int, now: NIODeadline) -> IncompleteCheckAction {
        incompleteCheckScheduled = false
        guard isOpen, partialBytes > 0, let lastInput else { return .none }
        let due = lastInput + limits.incompleteMessageTimeout
        guard now >= due else {
            incompleteCheckScheduled = true
            return .checkAgain(at: due)
        }
        switch refuse(.incompleteMessageTimeout(Int(limits.incompleteMessageTimeout.nanoseconds / 1_000_000_000))) {
        case .none: return .none
        case .refuse(let limit, let flow): return .refuse(limit, flow)
        }
    }

    /// The client broke a limit (a message too large, an unfinished one
    /// its uid's budget cannot hold): its error, then close.
    mutating func refuse(_ limit: VarlinkLimit) -> RefuseAction {
        guard isOpen else { return .none }
        state = .closing(answerPending: false)
        return .refuse(limit, settle())
    }

    // MARK: Turns

    /// The scheduler gave the connection its turn.
    mutating func turnStarted() {
        turnRequested = false
    }

    /// Whether the next queued call may be answered now (asked before each
    /// one, so that a client that stops reading stops being served at once,
    /// not at the end of a batch).
    func next() -> Next {
        state == .idle && queuedCalls > 0 && !holds.contains(.notWritable) && !holds.contains(.outputOverBudget) ? .answer : .wait
    }

    /// The first queued call was taken to be answered.
    mutating func dequeued(bytes: Int) {
        queuedCalls -= 1
        queuedBytes -= bytes
    }

    /// The call just taken is answered off the loop or opened a stream.
    mutating func began(_ activity: State) {
        precondition(activity == .answering || activity == .streaming)
        guard state == .idle else { return }
        state = activity
    }

    /// The turn is over: ask for another if calls wait and may be
    /// answered, or stream replies wait.
    mutating func turnEnded() -> Flow {
        settle()
    }

    /// The open stream has replies to write (or has written them all).
    mutating func streamOutput(pending: Bool) -> Flow {
        streamOutputPending = pending
        return settle()
    }

    /// The answer worked on off the loop has been written. A connection
    /// that was asked to stop meanwhile closes now.
    mutating func answered() -> AnsweredAction {
        switch state {
        case .closing(answerPending: true):
            state = .closing(answerPending: false)
            return .close
        case .answering:
            state = .idle
            return .flow(settle())
        default:
            return .flow(settle())
        }
    }

    /// The open stream ended (its last reply is written).
    mutating func streamEnded() -> Flow {
        streamOutputPending = false
        if state == .streaming { state = .idle }
        return settle()
    }

    // MARK: Holds

    /// NIO's writability changed: the client read its replies, or stopped.
    mutating func writabilityChanged(_ writable: Bool) -> Flow {
        hold(.notWritable, !writable)
    }

    /// The uid's output or input went over its budget, or back under it.
    mutating func budget(_ resource: Resource, blocked: Bool) -> Flow {
        hold(resource == .output ? .outputOverBudget : .inputOverBudget, blocked)
    }

    private mutating func hold(_ reason: Holds, _ held: Bool) -> Flow {
        if held { holds.insert(reason) } else { holds.remove(reason) }
        return settle()
    }

    // MARK: The end

    /// The server is stopping: take no more calls, end an open stream, and
    /// close, once the answer being worked on (a commit, say) is written.
    mutating func shutdownRequested() -> ShutdownAction {
        guard isOpen else { return .none }
        let wasStreaming = state == .streaming
        let answerPending = state == .answering
        queuedCalls = 0
        queuedBytes = 0
        state = .closing(answerPending: answerPending)
        return .stop(endStream: wasStreaming, closeNow: !answerPending, settle())
    }

    /// The socket closed.
    mutating func closed() {
        state = .closed
    }

    // MARK: Decisions

    /// Reading and turns as the state now calls for.
    private mutating func settle() -> Flow {
        var action = Flow()
        let shouldPause =
            !isOpen || !holds.isEmpty || queuedCalls >= limits.maximumQueuedCalls || queuedBytes >= limits.maximumQueuedBytes
        if shouldPause != readingPaused, state != .closed {
            readingPaused = shouldPause
            action.reading = shouldPause ? .pause : .resume
        }
        if !turnRequested, next() == .answer || streamOutputPending && isOpen {
            turnRequested = true
            action.requestTurn = true
        }
        return action
    }
}

extension ConnectionStateMachine.Limits {
    /// The limits a server's configuration sets.
    init(_ configuration: VarlinkServerConfiguration) {
        self.init(
            maximumQueuedCalls: configuration.limits.maximumPendingCalls, maximumQueuedBytes: configuration.limits.maximumPendingCallBytes,
            incompleteMessageTimeout: TimeAmount(configuration.limits.incompleteMessageTimeout))
    }
}

extension TimeAmount {
    /// A Swift duration as NIO's, to the nanosecond.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
