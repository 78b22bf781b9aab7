import Testing
@testable import VarlinkNIO

/// The connection's decisions, without sockets.
@Suite struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine
    static func machine(calls: Int = 4, bytes: Int = 1000) -> Machine {
        Machine(limits: .init(maximumQueuedCalls: calls, maximumQueuedBytes: bytes))
    }

    @Test func aCallAsksForOneTurn() {
        var machine = Self.machine()
        #expect(machine.received(bytes: 10) == Machine.Action(requestTurn: true))
        // Already waiting for its turn: no second request.
        #expect(machine.received(bytes: 10) == .none)
        machine.turnStarted()
        #expect(machine.next() == .answer)
        machine.dequeued(bytes: 10)
        #expect(machine.next() == .answer)
        machine.dequeued(bytes: 10)
        #expect(machine.next() == .wait)
        #expect(machine.turnEnded() == .none)
    }

    @Test func aTurnCutShortAsksForAnother() {
        var machine = Self.machine()
        _ = machine.received(bytes: 10)
        _ = machine.received(bytes: 10)
        machine.turnStarted()
        machine.dequeued(bytes: 10)
        // The turn's time ran out with a call still queued.
        #expect(machine.turnEnded() == Machine.Action(requestTurn: true))
    }

    @Test func aLongQueueStopsReadingUntilItShrinks() {
        var machine = Self.machine(calls: 3, bytes: 1000)
        _ = machine.received(bytes: 1)
        _ = machine.received(bytes: 1)
        #expect(machine.received(bytes: 1).reading == .pause)
        machine.turnStarted()
        machine.dequeued(bytes: 1)
        #expect(machine.turnEnded().reading == .resume)
        // Bytes count as well as calls.
        var bytes = Self.machine(calls: 100, bytes: 100)
        #expect(bytes.received(bytes: 60).reading == .unchanged)
        #expect(bytes.received(bytes: 60).reading == .pause)
    }

    @Test func aClientThatStopsReadingIsNotServedFromTheNextCallOn() {
        var machine = Self.machine(calls: 100, bytes: 100_000)
        for _ in 0..<5 { _ = machine.received(bytes: 10) }
        machine.turnStarted()
        #expect(machine.next() == .answer)
        machine.dequeued(bytes: 10)
        // Its replies are piling up: the next call waits, and reading stops.
        let stalled = machine.writabilityChanged(false)
        #expect(stalled.reading == .pause && !stalled.requestTurn)
        #expect(machine.next() == .wait)
        // It reads again: a turn, and reading resumes.
        #expect(machine.writabilityChanged(true) == Machine.Action(reading: .resume, requestTurn: true))
    }

    @Test func theUsersOutputBudgetHoldsEveryConnectionOfIt() {
        var machine = Self.machine()
        _ = machine.received(bytes: 10)
        machine.turnStarted()
        #expect(machine.outputBudget(blocked: true).reading == .pause)
        #expect(machine.next() == .wait)
        #expect(machine.outputBudget(blocked: false) == Machine.Action(reading: .resume, requestTurn: true))
    }

    @Test func anAnswerOffTheLoopHoldsTheConnection() {
        var machine = Self.machine()
        _ = machine.received(bytes: 10)
        _ = machine.received(bytes: 10)
        machine.turnStarted()
        machine.dequeued(bytes: 10)
        machine.began(.answering)
        #expect(machine.next() == .wait)
        #expect(machine.turnEnded() == .none)
        // Once answered, the next call gets a turn.
        #expect(machine.answered() == Machine.Action(requestTurn: true))
    }

    @Test func aStreamHoldsTheConnectionUntilItEnds() {
        var machine = Self.machine()
        _ = machine.received(bytes: 10)
        machine.turnStarted()
        machine.dequeued(bytes: 10)
        machine.began(.streaming)
        _ = machine.received(bytes: 10)
        #expect(machine.next() == .wait)
        #expect(machine.streamEnded() == Machine.Action(requestTurn: true))
    }

    @Test func shutdownDropsTheQueueAndClosesWhenNothingIsOwed() {
        var idle = Self.machine()
        _ = idle.received(bytes: 10)
        let (action, wasStreaming) = idle.shutdownRequested()
        #expect(action.close && action.reading == .pause && !wasStreaming)
        #expect(idle.next() == .wait)
        #expect(idle.received(bytes: 10) == .none)

        // Waiting for a commit: close once it is answered.
        var answering = Self.machine()
        _ = answering.received(bytes: 10)
        answering.turnStarted()
        answering.dequeued(bytes: 10)
        answering.began(.answering)
        #expect(!answering.shutdownRequested().action.close)
        #expect(answering.answered().close)

        // Streaming: the handler ends the stream; the connection closes.
        var streaming = Self.machine()
        _ = streaming.received(bytes: 10)
        streaming.turnStarted()
        streaming.dequeued(bytes: 10)
        streaming.began(.streaming)
        let stopping = streaming.shutdownRequested()
        #expect(stopping.wasStreaming && stopping.action.close)
    }
}
