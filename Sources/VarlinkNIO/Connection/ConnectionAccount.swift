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

    /// Charges a reply about to be written; nil when the uid's output
    /// budget takes it, else the limit it would break.
    func chargeWrite(payload: Int) -> BudgetError? {
        let cost = Self.cost(ofWrite: payload)
        if let refusal = book.charge(cost, of: .output, to: uid) { return refusal }
        note(payload: payload, cost: cost)
        return nil
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
        book.release(released, of: .output, from: uid)
    }

    /// Whether writes are still waiting for the kernel.
    var hasPendingOutput: Bool { !pendingWrites.isEmpty }

    /// A reply as it may be written: charged to the uid's output, or, when
    /// the budget cannot take it, the short error `refused` makes in its
    /// place (charged whatever the budget says).
    func admit(reply: [UInt8], refused: (BudgetError) -> [UInt8]) -> (bytes: [UInt8], refusal: BudgetError?) {
        guard let refusal = chargeWrite(payload: reply.count) else { return (reply, nil) }
        let error = refused(refusal)
        forceChargeWrite(payload: error.count)
        return (error, refusal)
    }

    // MARK: Waiting for the uid's budget

    /// Whether the uid's unsent output has reached the point where its
    /// connections stop taking calls (half its budget, so that one more
    /// reply still fits).
    var outputIsHigh: Bool {
        guard let limit = book.limits.perUID[.output] else { return false }
        return book.usage(of: uid)[.output] >= limit / 2
    }

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
        book.release(output, of: .output, from: uid)
        input = 0
        output = 0
        pendingWrites.removeAll()
        pendingPayload = 0
    }
}
