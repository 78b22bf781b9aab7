import NIOCore

/// Something that answers calls in turns: a connection.
protocol TurnTaker: AnyObject {
    /// The uid whose share of the loop the turn counts against.
    var uid: UInt32 { get }
    /// Answers queued calls until `deadline` or until it must wait. It asks
    /// for another turn itself if it has more to do.
    func takeTurn(until deadline: NIODeadline)
}

/// Shares one event loop fairly among the connections that have calls to
/// answer, so that no client holds the loop however much it sends.
///
/// Connections with queued calls wait here in one lane per uid, and uids
/// are served in rotation: each turn answers one connection's calls for at
/// most ``TurnBudgets/turn``, then the next uid's connection has its turn. A
/// run of turns lasts at most ``TurnBudgets/run``; then the scheduler steps
/// aside for ``TurnBudgets/pause`` so that the loop polls its sockets again
/// (NIO runs every task that is due before it polls, so a scheduler that
/// re-queued itself at once would starve every other socket on the loop).
/// A lookup from one uid therefore waits at most about one run plus one
/// turn per other busy uid, whatever those uids send.
///
/// Confined to its event loop; the server keeps one per loop.
final class LoopScheduler {
    let eventLoop: any EventLoop
    let budgets: TurnBudgets
    private var lanes: [UInt32: CircularBuffer<any TurnTaker>] = [:]
    private var rotation = CircularBuffer<UInt32>()
    private var scheduled = false

    init(eventLoop: any EventLoop, budgets: TurnBudgets) {
        self.eventLoop = eventLoop
        self.budgets = budgets
    }

    /// Queues a connection for a turn (it must not already be queued).
    func enqueue(_ taker: any TurnTaker) {
        eventLoop.preconditionInEventLoop()
        let uid = taker.uid
        if lanes[uid] == nil {
            lanes[uid] = [taker]
            rotation.append(uid)
        } else {
            lanes[uid]!.append(taker)
        }
        if !scheduled {
            scheduled = true
            let bound = NIOLoopBound(self, eventLoop: eventLoop)
            eventLoop.execute { bound.value.run() }
        }
    }

    private func run() {
        let end = NIODeadline.now() + budgets.run
        while let uid = rotation.popFirst() {
            guard let taker = lanes[uid]?.popFirst() else {
                lanes[uid] = nil
                continue
            }
            // The lane stays while the turn runs, so that a connection that
            // asks for another turn joins the back of its uid's lane.
            taker.takeTurn(until: min(NIODeadline.now() + budgets.turn, end))
            if lanes[uid]?.isEmpty ?? true {
                lanes[uid] = nil
            } else {
                rotation.append(uid)
            }
            if NIODeadline.now() >= end { break }
        }
        if rotation.isEmpty {
            scheduled = false
        } else {
            let bound = NIOLoopBound(self, eventLoop: eventLoop)
            eventLoop.scheduleTask(in: budgets.pause) { bound.value.run() }
        }
    }
}
