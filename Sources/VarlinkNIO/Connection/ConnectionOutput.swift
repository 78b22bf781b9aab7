import ClientBudget
import NIOCore

/// A connection's replies on their way to the socket, each charged to its
/// uid (``ConnectionAccount``) until the kernel has taken it. Confined to
/// the connection's event loop.
final class ConnectionOutput {
    private let account: ConnectionAccount
    /// The error that stands in for a reply the uid's budget cannot take
    /// (and says so in the log).
    private let refusal: (BudgetError) -> [UInt8]
    private var needsFlush = false
    private var markerPending = false
    /// The channel's, while the handler is in its pipeline (held no longer:
    /// the context holds the handler, which holds this).
    var context: ChannelHandlerContext?
    /// The socket closed: nothing more waits to be settled.
    var isClosed = false

    init(account: ConnectionAccount, refusal: @escaping (BudgetError) -> [UInt8]) {
        self.account = account
        self.refusal = refusal
    }

    /// Writes a reply, unflushed, or the budget's error in its place.
    func write(_ reply: [UInt8]) {
        guard let context else { return }
        let (bytes, _) = account.admit(reply: reply, refused: refusal)
        context.write(NIOAny(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
        needsFlush = true
    }

    func flushIfNeeded() {
        guard needsFlush, let context else { return }
        needsFlush = false
        context.flush()
        settle()
    }

    /// Releases the output the kernel has taken; while some waits, an empty
    /// write marks the end of what was written, to settle again once it is
    /// sent (NIO completes writes in order).
    func settle() {
        guard let context else { return }
        account.settle(unsent: (try? context.channel.syncOptions?.getOption(ChannelOptions.bufferedWritableBytes)) ?? 0)
        guard account.hasPendingOutput, !markerPending, !isClosed else { return }
        markerPending = true
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            bound.value.markerPending = false
            bound.value.settle()
        }
    }

    /// Writes a limit's error, uncharged (the connection closes after it).
    func writeLast(_ error: [UInt8]) {
        context?.write(NIOAny(ByteBuffer(bytes: error)), promise: nil)
    }

    /// Closes the connection once what is written is flushed, or after a
    /// second: a client that does not read would never let the write end.
    func close() {
        guard let context else { return }
        let channel = context.channel
        context.writeAndFlush(NIOAny(channel.allocator.buffer(capacity: 0))).whenComplete { _ in channel.close(promise: nil) }
        context.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }
}
