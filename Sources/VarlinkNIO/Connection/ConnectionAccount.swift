import ClientBudget
import NIOCore

/// What one connection makes lprojd hold, kept in step with its uid's
/// ledger: the input read and not yet answered (calls waiting, and the
/// unfinished message after them), and the replies written but not yet
/// taken by the kernel.
///
/// Confined to the connection's event loop. Output is counted as the
/// buffers that hold it: a reply's buffer is its payload rounded up to a
/// power of two (as NIO allocates), plus what NIO keeps per pending write.
final class ConnectionAccount {
    /// What NIO holds per pending write besides the buffer (its entry in
    /// the pending-writes queue, the promise, the buffer's storage header).
    static let perWriteOverhead = 160

    let uid: UInt32
    let book: BudgetBook
    /// Input as charged.
    private(set) var input = 0
    /// Writes not known to be complete, oldest first: payload and cost.
    private var pendingWrites = CircularBuffer<(payload: Int, cost: Int)>()
    private var pendingPayload = 0
    /// Output as charged: the costs of `pendingWrites`.
    private(set) var output = 0
    /// Output charged to the uid ahead of the replies of a turn, and not
    /// yet used by them: a turn's replies cost the ledger one charge, not
    /// one each. Given back when the turn ends (``endTurn()``).
    private var credit = 0
    /// Output the uid may still gain before its connections stop taking
    /// calls, as it was when the turn began, less this turn's replies.
    private var headroom = Int.max
    /// The uid's budget waits the connection is in (``BudgetBook/whenBelow``).
    private var waiters: [Resource: UInt64] = [:]

    init(uid: UInt32, book: BudgetBook) {
        self.uid = uid
        self.book = book
    }

    // MARK: Input

    /// The input now takes `bytes` of memory (the buffer that holds it):
    /// charges its growth, if the uid's budget allows, or releases its
    /// shrinking. Returns the limit growing would break (then nothing is
    /// charged).
    func holdInput(_ bytes: Int) -> BudgetError? {
        if bytes > input {
            if let refusal = book.charge(bytes - input, of: .input, to: uid) { return refusal }
        } else if bytes < input {
            book.release(input - bytes, of: .input, from: uid)
        }
        input = bytes
        return nil
    }

    /// What became of the input held.
    enum InputHold: Equatable {
        /// The uid's budget takes it.
        case held
        /// Over budget, but only complete calls wait past it: they are held
        /// anyway, until some are answered.
        case overBudget
        /// An unfinished message the budget cannot hold: the connection closes.
        case refused(BudgetError)
    }

    /// Holds what `frames` keeps, as the memory that holds it (its buffer's
    /// capacity).
    func hold(_ frames: FrameBuffer) -> InputHold {
        guard let refusal = holdInput(frames.capacity) else { return .held }
        forceHoldInput(frames.capacity)
        return frames.completeMessages > 0 ? .overBudget : .refused(refusal)
    }

    /// Like ``holdInput(_:)`` whatever the budget says: the bytes are held
    /// already (complete calls waiting); the uid is over until they go.
    func forceHoldInput(_ bytes: Int) {
        guard bytes != input else { return }
        if bytes > input {
            book.forceCharge(bytes - input, of: .input, to: uid)
        } else {
            book.release(input - bytes, of: .input, from: uid)
        }
        input = bytes
    }

    // MARK: Output

    /// What a reply of this size costs while it waits to be sent.
    static func cost(ofWrite payload: Int) -> Int {
        (payload <= 1 ? 1 : 1 << (Int.bitWidth - (payload - 1).leadingZeroBitCount)) + perWriteOverhead
    }

    /// What a turn charges ahead, for the replies it writes.
    static let turnCredit = 16 << 10

    /// Charges a reply about to be written; nil when the uid's output
    /// budget takes it, else the limit it would break.
    ///
    /// It is taken from the turn's credit; when that runs short, the reply
    /// and a new credit are charged together, or, if the budget cannot
    /// take both, the reply alone, as it would have been without credit.
    func chargeWrite(payload: Int) -> BudgetError? {
        let cost = Self.cost(ofWrite: payload)
        if cost > credit {
            let wanted = cost - credit + Self.turnCredit
            if book.charge(wanted, of: .output, to: uid) == nil {
                credit += wanted
            } else if let refusal = book.charge(cost - credit, of: .output, to: uid) {
                return refusal
            } else {
                credit = cost
            }
        }
        credit -= cost
        headroom -= cost
        note(payload: payload, cost: cost)
        return nil
    }

    /// A turn begins: what the uid may gain before its connections stop
    /// taking calls is read once, for ``outputIsHigh`` to count down.
    func beginTurn() {
        guard let limit = book.limits.perUID[.output] else { return }
        headroom = limit / 2 - book.usage(of: uid)[.output]
    }

    /// A turn ends with nothing to send: the credit goes back (else
    /// ``settle(unsent:)`` gives it back).
    func endTurn() {
        book.release(credit, of: .output, from: uid)
        credit = 0
    }

    /// Charges a reply about to be written whatever the budget says (a
    /// short error standing in for a reply that did not fit).
    func forceChargeWrite(payload: Int) {
        let cost = Self.cost(ofWrite: payload)
        book.forceCharge(cost, of: .output, to: uid)
        note(payload: payload, cost: cost)
    }

    private func note(payload: Int, cost: Int) {
        pendingWrites.append((payload, cost))
        pendingPayload += payload
        output += cost
    }

    /// NIO still holds `unsent` bytes of what was written (its buffered
    /// writable bytes): release the writes that have gone out, oldest first.
    func settle(unsent: Int) {
        var sent = pendingPayload - max(0, unsent)
        var released = 0
        while let first = pendingWrites.first, first.payload <= sent {
            pendingWrites.removeFirst()
            sent -= first.payload
            pendingPayload -= first.payload
            released += first.cost
        }
        output -= released
        // The credit a turn did not use goes back with what was sent.
        book.release(released + credit, of: .output, from: uid)
        credit = 0
    }

    /// Whether writes are still waiting for the kernel.
    var hasPendingOutput: Bool { !pendingWrites.isEmpty }

    // MARK: Waiting for the uid's budget

    /// Whether the uid's unsent output has reached the point where its
    /// connections stop taking calls (half its budget, so that one more
    /// reply still fits): as the ledger said when the turn began, with this
    /// turn's replies since.
    var outputIsHigh: Bool { headroom <= 0 }

    /// Calls `resume`, from any thread, once the uid holds little enough
    /// of `resource` for its connections to go on (output: a quarter of its
    /// budget; input: half); false if the connection waits for that already.
    func wait(for resource: Resource, _ resume: @escaping @Sendable () -> Void) -> Bool {
        guard waiters[resource] == nil else { return false }
        let limit = book.limits.perUID[resource] ?? .max
        waiters[resource] = book.whenBelow(resource == .output ? limit / 4 : limit / 2, of: resource, for: uid, resume) ?? 0
        return true
    }

    /// The wait for `resource` is over (its `resume` ran).
    func resumed(_ resource: Resource) { waiters[resource] = nil }

    /// Releases everything, and waits for nothing more: the connection closed.
    func closeAll() {
        for waiter in waiters.values { book.cancelWaiter(waiter) }
        waiters = [:]
        book.release(input, of: .input, from: uid)
        book.release(output + credit, of: .output, from: uid)
        input = 0
        output = 0
        credit = 0
        pendingWrites.removeAll()
        pendingPayload = 0
    }
}
