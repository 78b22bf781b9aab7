import ClientBudget
import NIOCore
import VarlinkProtocol

/// A connection's replies on their way to the socket, each charged to its
/// uid (``ConnectionAccount``) until the kernel has taken it. Confined to
/// the connection's event loop.
final class ConnectionOutput {
    private let account: ConnectionAccount
    /// The error that stands in for a reply the uid's budget cannot take
    /// (and says so in the log).
    private let refusal: (BudgetError) -> [UInt8]
    /// The replies of the turn, written straight into one buffer and handed
    /// to NIO as one write when the turn ends. Made at a turn's first reply
    /// and let go of with it: an idle connection holds none.
    private var pending = JSONWriter(reservingCapacity: 0)
    private var needsFlush = false
    private var markerPending = false
    /// The channel's, while the handler is in its pipeline (held no longer:
    /// the context holds the handler, which holds this).
    var context: ChannelHandlerContext?
    /// The socket closed: nothing more waits to be settled.
    var isClosed = false

    /// What a turn's buffer starts with: room for some 64 short replies.
    static let turnCapacity = 4096

    init(account: ConnectionAccount, refusal: @escaping (BudgetError) -> [UInt8]) {
        self.account = account
        self.refusal = refusal
    }

    /// The replies written in this turn and not yet handed to NIO.
    var pendingReplies: [UInt8] { pending.bytes }

    /// Runs `answer`, which may write a reply into the turn's buffer; the
    /// reply is charged to the uid, or the budget's error written in its
    /// place.
    func writing<Result>(_ answer: (inout JSONWriter) -> Result) -> Result {
        if pending.bytes.capacity == 0 { pending.bytes.reserveCapacity(Self.turnCapacity) }
        let start = pending.bytes.count
        let result = answer(&pending)
        admit(from: start)
        return result
    }

    /// Writes a reply already encoded, unflushed, or the budget's error in its place.
    func write(_ reply: [UInt8]) {
        let start = pending.bytes.count
        pending.bytes.append(contentsOf: reply)
        admit(from: start)
    }

    /// Charges the reply written from `start`, or puts the budget's error in its place.
    private func admit(from start: Int) {
        let size = pending.bytes.count - start
        guard size > 0 else { return }
        needsFlush = true
        guard let refused = account.chargeWrite(payload: size) else { return }
        pending.bytes.removeSubrange(start...)
        let error = refusal(refused)
        account.forceChargeWrite(payload: error.count)
        pending.bytes.append(contentsOf: error)
    }

    /// Hands what was written to the kernel, and gives back the output
    /// charged ahead and not used (the end of a turn).
    func flushIfNeeded() {
        guard needsFlush, let context else { return account.endTurn() }
        needsFlush = false
        writePending(context)
        context.flush()
        settle()
    }

    /// Hands the turn's replies to NIO, as one write.
    private func writePending(_ context: ChannelHandlerContext) {
        guard !pending.bytes.isEmpty else { return }
        context.write(NIOAny(context.channel.allocator.buffer(bytes: pending.bytes)), promise: nil)
        pending = JSONWriter(reservingCapacity: 0)
    }

    /// Releases the output the kernel has taken; while NIO holds some, an
    /// empty write marks the end of what it holds, to settle again once that
    /// is sent (NIO completes writes in order).
    ///
    /// Only bytes NIO holds get a marker. The turn's replies not yet handed
    /// to NIO are settled when the turn flushes them; a marker behind
    /// nothing completes at once, inside this call, and settling again would
    /// find those replies still there and write another, without end (a
    /// settle in the middle of a turn, on a writability change or after a
    /// stream's output, overflowed the event loop's stack).
    func settle() {
        guard let context else { return }
        let unsent = (try? context.channel.syncOptions?.getOption(ChannelOptions.bufferedWritableBytes)) ?? 0
        account.settle(unsent: unsent + pending.bytes.count)
        guard unsent > 0, account.hasPendingOutput, !markerPending, !isClosed else { return }
        markerPending = true
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            bound.value.markerPending = false
            bound.value.settle()
        }
    }

    /// Writes a limit's error after what is written, uncharged (the
    /// connection closes after it).
    func writeLast(_ error: [UInt8]) {
        guard let context else { return }
        writePending(context)
        context.write(NIOAny(ByteBuffer(bytes: error)), promise: nil)
    }

    /// Closes the connection once what is written is flushed, or after a
    /// second: a client that does not read would never let the write end.
    func close() {
        guard let context else { return }
        writePending(context)
        let channel = context.channel
        context.writeAndFlush(NIOAny(channel.allocator.buffer(capacity: 0))).whenComplete { _ in channel.close(promise: nil) }
        context.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }
}
