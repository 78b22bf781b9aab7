/// The life of one connection, without sockets: given what happened, what
/// the handler must do next.
///
/// Calls are answered one at a time and in order. A call being answered off
/// the event loop (a commit, a large table) or a stream holds the
/// connection; calls that arrive meanwhile wait in its queue. The machine
/// decides when the connection may take its next call (idle, the client
/// reading its replies, its uid's output within budget), when the server
/// stops reading from the socket (the queue is long, the client is not
/// reading, the uid's input budget is spent) and when it reads again, and
/// when it asks the event loop's scheduler for a turn.
struct ConnectionStateMachine {
    /// What the connection is doing.
    enum Activity: Equatable {
        /// Taking calls from its queue, if it may.
        case idle
        /// Waiting for the answer to a call being worked on off the loop.
        case answering
        /// Holding an open stream (a subscription).
        case streaming
        /// Closing: takes no more calls.
        case closing
    }

    /// What the handler should do with the socket's reading.
    enum Reading: Equatable {
        case unchanged, pause, resume
    }

    /// What the handler must do after an event.
    struct Action: Equatable {
        /// Stop or start reading from the socket.
        var reading: Reading = .unchanged
        /// Ask the event loop's scheduler for a turn to answer queued calls.
        var requestTurn = false
        /// Close the connection once what is written has been flushed.
        var close = false

        static let none = Action()
    }

    /// Whether the next queued call may be answered now.
    enum Next: Equatable {
        /// Take the first queued call and answer it.
        case answer
        /// Not now; the connection will ask for a turn when it may go on.
        case wait
    }

    /// The limits on a connection's queue, after which it stops reading.
    struct Limits: Equatable {
        var maximumQueuedCalls: Int
        var maximumQueuedBytes: Int
    }

    let limits: Limits
    private(set) var activity = Activity.idle
    private(set) var queuedCalls = 0
    private(set) var queuedBytes = 0
    /// The client reads its replies (NIO's high-water mark not reached).
    private(set) var writable = true
    /// Its uid holds more unsent output than its budget allows.
    private(set) var outputBlocked = false
    /// Its uid holds more unanswered input than its budget allows.
    private(set) var inputBlocked = false
    /// The connection is in the scheduler's queue, or in its turn.
    private(set) var turnRequested = false
    /// Replies of its open stream wait to be written in its next turn.
    private(set) var streamOutputPending = false
    private(set) var readingPaused = false

    init(limits: Limits) {
        self.limits = limits
    }

    // MARK: Events

    /// Complete calls arrived and joined the queue.
    mutating func received(calls: Int = 1, bytes: Int) -> Action {
        guard activity != .closing, calls > 0 else { return .none }
        queuedCalls += calls
        queuedBytes += bytes
        return settle()
    }

    /// The scheduler gave the connection its turn.
    mutating func turnStarted() {
        turnRequested = false
    }

    /// Whether the next queued call may be answered now (asked before each
    /// one, so that a client that stops reading stops being served at once,
    /// not at the end of a batch).
    func next() -> Next {
        activity == .idle && queuedCalls > 0 && writable && !outputBlocked ? .answer : .wait
    }

    /// The first queued call was taken to be answered.
    mutating func dequeued(bytes: Int) {
        queuedCalls -= 1
        queuedBytes -= bytes
    }

    /// The call just taken is answered off the loop or opened a stream.
    mutating func began(_ activity: Activity) {
        precondition(activity == .answering || activity == .streaming)
        guard self.activity == .idle else { return }
        self.activity = activity
    }

    /// The turn is over: ask for another if calls wait and may be
    /// answered, or stream replies wait.
    mutating func turnEnded() -> Action {
        settle()
    }

    /// The open stream has replies to write (or has written them all).
    mutating func streamOutput(pending: Bool) -> Action {
        streamOutputPending = pending
        return settle()
    }

    /// The answer worked on off the loop has been written. A connection
    /// that was asked to stop meanwhile closes now.
    mutating func answered() -> Action {
        if activity == .closing { return Action(close: true) }
        if activity == .answering { activity = .idle }
        return settle()
    }

    /// The open stream ended (its last reply is written).
    mutating func streamEnded() -> Action {
        if activity == .streaming { activity = .idle }
        return settle()
    }

    /// NIO's writability changed: the client read its replies, or stopped.
    mutating func writabilityChanged(_ writable: Bool) -> Action {
        self.writable = writable
        return settle()
    }

    /// The uid's output went over its budget, or back under it.
    mutating func outputBudget(blocked: Bool) -> Action {
        outputBlocked = blocked
        return settle()
    }

    /// The uid's input went over its budget, or back under it.
    mutating func inputBudget(blocked: Bool) -> Action {
        inputBlocked = blocked
        return settle()
    }

    /// The server is stopping: take no more calls. Returns whether the
    /// connection can close now (it is not waiting for an answer); an open
    /// stream is for the handler to end.
    mutating func shutdownRequested() -> (action: Action, wasStreaming: Bool) {
        let wasStreaming = activity == .streaming
        let waitingForAnswer = activity == .answering
        queuedCalls = 0
        queuedBytes = 0
        activity = .closing
        var action = settle()
        action.close = !waitingForAnswer
        return (action, wasStreaming)
    }

    // MARK: Decisions

    /// Reading and turns as the state now calls for.
    private mutating func settle() -> Action {
        var action = Action()
        let shouldPause =
            activity == .closing || !writable || outputBlocked || inputBlocked
            || queuedCalls >= limits.maximumQueuedCalls || queuedBytes >= limits.maximumQueuedBytes
        if shouldPause != readingPaused {
            readingPaused = shouldPause
            action.reading = shouldPause ? .pause : .resume
        }
        if !turnRequested, next() == .answer || streamOutputPending && activity != .closing {
            turnRequested = true
            action.requestTurn = true
        }
        return action
    }
}
