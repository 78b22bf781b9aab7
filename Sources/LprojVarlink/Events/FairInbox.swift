internal import Synchronization

/// The delivery's inbox: messages in lanes, one per uid and one for what
/// everyone sees, taken in rotation, so that a uid whose clients cause
/// thousands of messages (a flood of changes, 128 subscribers that never
/// read, each delivery's `written`) delays another uid's, and the reloads
/// everyone is told of, by at most one message each.
///
/// Each lane keeps its order; different lanes' messages pass each other.
/// (The delivery makes up for what that could cost a new subscriber: it
/// replays to it the events everyone sees that were taken before its
/// subscription, but are newer than its `ready`.) An ordered message
/// (``Lane/ordered``, a test's barrier) is taken only once every message
/// posted before it is, and before any posted after it. A wake-up
/// (``wake(with:)``, a timer's) is no message in line: it only makes an
/// idle taker look at the clock, so it never waits behind a backlog.
final class FairInbox<Message: Sendable>: Sendable {
    /// Where a message waits.
    enum Lane: Hashable, Sendable {
        /// A uid's own: its events, its subscribers' comings and goings.
        case uid(UInt32)
        /// Events everyone sees.
        case everyone
        /// After everything before it, before everything after it.
        case ordered
    }

    private struct Queue {
        var items: [(sequence: UInt64, message: Message)] = []
        var head = 0
        var isEmpty: Bool { head == items.count }
        var first: (sequence: UInt64, message: Message)? { isEmpty ? nil : items[head] }
        mutating func append(_ item: (sequence: UInt64, message: Message)) { items.append(item) }
        mutating func removeFirst() -> Message {
            let message = items[head].message
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: items.count <= 1024)
                head = 0
            } else if head >= 1024, head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
            return message
        }
    }

    private struct State {
        var sequence: UInt64 = 0
        var ordered = Queue()
        var lanes: [Lane: Queue] = [:]
        /// Lanes with messages, in the order their turns come.
        var rotation: [Lane] = []
        var next = 0
        var finished = false
        var waiter: CheckedContinuation<Message?, Never>?
        var count = 0
        /// A wake-up not yet seen by the taker.
        var wakeUp: Message?
    }

    private let state = Mutex(State())

    /// Posts a message in a lane.
    func post(_ message: Message, lane: Lane) {
        let waiter: CheckedContinuation<Message?, Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            state.sequence += 1
            let item = (state.sequence, message)
            if lane == .ordered {
                state.ordered.append(item)
            } else {
                if state.lanes[lane] == nil { state.rotation.append(lane) }
                state.lanes[lane, default: Queue()].append(item)
            }
            state.count += 1
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        // The waiter takes the message itself, in turn.
        if let waiter {
            let message = state.withLock { Self.take(&$0) }
            waiter.resume(returning: message)
        }
    }

    /// Wakes the taker with `message` if it waits; if it is busy, it gets
    /// `message` once nothing else waits.
    func wake(with message: Message) {
        let waiter: CheckedContinuation<Message?, Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            guard let waiter = state.waiter else {
                state.wakeUp = message
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: message)
    }

    /// Ends the inbox: ``next()`` answers nil once what waits is taken.
    func finish() {
        let waiter: CheckedContinuation<Message?, Never>? = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.count == 0 ? state.waiter : nil
        }
        waiter?.resume(returning: nil)
    }

    /// Messages waiting.
    var count: Int { state.withLock { $0.count } }

    /// The next message in turn; nil once finished and empty. One taker.
    func next() async -> Message? {
        await withCheckedContinuation { continuation in
            let ready: Message?? = state.withLock { state in
                if state.count > 0 { return .some(Self.take(&state)) }
                if let wakeUp = state.wakeUp {
                    state.wakeUp = nil
                    return .some(wakeUp)
                }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private static func take(_ state: inout State) -> Message? {
        guard state.count > 0 else { return nil }
        state.count -= 1
        // A message of no uid goes once it is the oldest of all; until
        // then, only the lanes whose first message is older may go.
        let before = state.ordered.first?.sequence ?? .max
        if state.next >= state.rotation.count { state.next = 0 }
        var turn: Int?
        for step in 0..<state.rotation.count {
            let index = (state.next + step) % state.rotation.count
            if let first = state.lanes[state.rotation[index]]?.first?.sequence, first < before {
                turn = index
                break
            }
        }
        guard let turn else { return state.ordered.removeFirst() }
        let lane = state.rotation[turn]
        let message = state.lanes[lane]!.removeFirst()
        if state.lanes[lane]!.isEmpty {
            state.lanes[lane] = nil
            state.rotation.remove(at: turn)
            state.next = turn
        } else {
            state.next = turn + 1
        }
        return message
    }
}
