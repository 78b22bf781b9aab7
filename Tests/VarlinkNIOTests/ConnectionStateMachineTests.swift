import ClientBudget
import NIOCore
import Testing
@testable import VarlinkNIO

/// The time the tests' events happen at when the time does not matter to them.
private let start = NIODeadline.uptimeNanoseconds(0)

/// The connection's decisions, without sockets.
@Suite struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine
    static func machine(calls: Int = 4, bytes: Int = 1000) -> Machine {
        Machine(limits: .init(maximumQueuedCalls: calls, maximumQueuedBytes: bytes))
    }

    @Test func aCallAsksForOneTurn() {
        var machine = Self.machine()
        #expect(machine.received(bytes: 10, now: start) == Machine.ReceivedAction(flow: Machine.Flow(requestTurn: true)))
        // Already waiting for its turn: no second request.
        #expect(machine.received(bytes: 10, now: start) == .none)
        machine.turnStarted()
        #expect(machine.next() == .answer)
        machine.dequeued(bytes: 10)
        #expect(machine.next() == .answer)
        machine.dequeued(bytes: 10)
        #expect(machine.next() == .wait)
        #expect(machine.turnEnded() == .unchanged)
    }

    @Test func aTurnCutShortAsksForAnother() {
        var machine = Self.machine()
        _ = machine.received(bytes: 10, now: start)
        _ = machine.received(bytes: 10, now: start)
        machine.turnStarted()
        machine.dequeued(bytes: 10)
        // The turn's time ran out with a call still queued.
        #expect(machine.turnEnded() == Machine.Flow(requestTurn: true))
    }

    @Test func aLongQueueStopsReadingUntilItShrinks() {
        var machine = Self.machine(calls: 3, bytes: 1000)
        _ = machine.received(bytes: 1, now: start)
        _ = machine.received(bytes: 1, now: start)
        #expect(machine.received(bytes: 1, now: start).flow.reading == .pause)
        machine.turnStarted()
        machine.dequeued(bytes: 1)
        #expect(machine.turnEnded().reading == .resume)
        // Bytes count as well as calls.
        var bytes = Self.machine(calls: 100, bytes: 100)
        #expect(bytes.received(bytes: 60, now: start).flow.reading == .unchanged)
        #expect(bytes.received(bytes: 60, now: start).flow.reading == .pause)
    }

    @Test func aClientThatStopsReadingIsNotServedFromTheNextCallOn() {
        var machine = Self.machine(calls: 100, bytes: 100_000)
        for _ in 0..<5 { _ = machine.received(bytes: 10, now: start) }
        machine.turnStarted()
        #expect(machine.next() == .answer)
        machine.dequeued(bytes: 10)
        // Its replies are piling up: the next call waits, and reading stops.
        let stalled = machine.writabilityChanged(false)
        #expect(stalled.reading == .pause && !stalled.requestTurn)
        #expect(machine.next() == .wait)
        // It reads again: a turn, and reading resumes.
        #expect(machine.writabilityChanged(true) == Machine.Flow(reading: .resume, requestTurn: true))
    }

    @Test func theUsersOutputBudgetHoldsEveryConnectionOfIt() {
        var machine = Self.machine()
        _ = machine.received(bytes: 10, now: start)
        machine.turnStarted()
        #expect(machine.budget(.output, blocked: true).reading == .pause)
        #expect(machine.next() == .wait)
        #expect(machine.budget(.output, blocked: false) == Machine.Flow(reading: .resume, requestTurn: true))
    }

    @Test func anAnswerOffTheLoopHoldsTheConnection() {
        var machine = Self.machine()
        _ = machine.received(bytes: 10, now: start)
        _ = machine.received(bytes: 10, now: start)
        machine.turnStarted()
        machine.dequeued(bytes: 10)
        machine.began(.answering)
        #expect(machine.next() == .wait)
        #expect(machine.turnEnded() == .unchanged)
        // Once answered, the next call gets a turn.
        #expect(machine.answered() == .flow(Machine.Flow(requestTurn: true)))
    }

    @Test func aStreamHoldsTheConnectionUntilItEnds() {
        var machine = Self.machine()
        _ = machine.received(bytes: 10, now: start)
        machine.turnStarted()
        machine.dequeued(bytes: 10)
        machine.began(.streaming)
        _ = machine.received(bytes: 10, now: start)
        #expect(machine.next() == .wait)
        #expect(machine.streamEnded() == Machine.Flow(requestTurn: true))
    }

    @Test func shutdownDropsTheQueueAndClosesWhenNothingIsOwed() {
        var idle = Self.machine()
        _ = idle.received(bytes: 10, now: start)
        #expect(idle.shutdownRequested() == .stop(endStream: false, closeNow: true, Machine.Flow(reading: .pause)))
        #expect(idle.next() == .wait && idle.state == .closing(answerPending: false))
        #expect(idle.received(bytes: 10, now: start) == .none)
        #expect(idle.shutdownRequested() == .none)  // once

        // Waiting for a commit: close once it is answered.
        var answering = Self.machine()
        _ = answering.received(bytes: 10, now: start)
        answering.turnStarted()
        answering.dequeued(bytes: 10)
        answering.began(.answering)
        #expect(answering.shutdownRequested() == .stop(endStream: false, closeNow: false, Machine.Flow(reading: .pause)))
        #expect(answering.state == .closing(answerPending: true))
        #expect(answering.answered() == .close)

        // Streaming: the stream ends with the last reply; the connection closes.
        var streaming = Self.machine()
        _ = streaming.received(bytes: 10, now: start)
        streaming.turnStarted()
        streaming.dequeued(bytes: 10)
        streaming.began(.streaming)
        #expect(streaming.shutdownRequested() == .stop(endStream: true, closeNow: true, Machine.Flow(reading: .pause)))
    }

    /// An unfinished message is checked a timeout after its last byte, on
    /// the time given: bytes that arrive meanwhile put the end off; none
    /// for the whole timeout close the connection with the limit's error.
    @Test func anUnfinishedMessageClosesTheConnectionAfterTheTimeoutWithoutBytes() {
        var machine = Machine(limits: .init(maximumQueuedCalls: 4, maximumQueuedBytes: 1000, incompleteMessageTimeout: .seconds(30)))
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
        let first = machine.received(calls: 0, bytes: 0, partialBytes: 5, now: start)
        #expect(first.checkIncompleteMessageAt == start + .seconds(30))
        // More of it 10 s later: the check, when it comes, looks again.
        #expect(machine.received(calls: 0, bytes: 0, partialBytes: 9, now: start + .seconds(10)).checkIncompleteMessageAt == nil)
        #expect(machine.incompleteMessageCheck(partialBytes: 9, now: start + .seconds(30)) == .checkAgain(at: start + .seconds(40)))
        #expect(machine.isOpen)
        #expect(
            machine.incompleteMessageCheck(partialBytes: 9, now: start + .seconds(40))
                == .refuse(.incompleteMessageTimeout(30), Machine.Flow(reading: .pause)))
        #expect(machine.state == .closing(answerPending: false))
        // A message finished in time: the check finds nothing to do.
        var finished = Self.machine()
        _ = finished.received(calls: 0, bytes: 0, partialBytes: 5, now: start)
        #expect(finished.incompleteMessageCheck(partialBytes: 0, now: start + .seconds(60)) == .none)
    }

    /// A limit broken: its error, then close; nothing more is taken, and
    /// once the socket is closed nothing is asked of the handler.
    @Test func aBrokenLimitRefusesOnceAndTheClosedConnectionAsksNothing() {
        var machine = Self.machine()
        _ = machine.received(bytes: 10, now: start)
        #expect(machine.refuse(.messageSize(100)) == .refuse(.messageSize(100), Machine.Flow(reading: .pause)))
        #expect(machine.refuse(.messageSize(100)) == .none)
        #expect(machine.next() == .wait)
        machine.closed()
        #expect(machine.state == .closed && machine.shutdownRequested() == .none && machine.writabilityChanged(true) == .unchanged)
    }

    /// A stream's replies ask for a turn while the stream is open; once it
    /// has ended they ask for none (no turn without work).
    @Test func streamOutputAsksForTurnsOnlyWhileTheStreamIsOpen() {
        var machine = Self.machine()
        _ = machine.received(bytes: 10, now: start)
        machine.turnStarted()
        machine.dequeued(bytes: 10)
        machine.began(.streaming)
        #expect(machine.turnEnded() == .unchanged)
        #expect(machine.streamOutput(pending: true).requestTurn)
        machine.turnStarted()
        #expect(machine.streamEnded() == .unchanged)
        #expect(machine.turnEnded() == .unchanged && machine.state == .idle)
    }
}
