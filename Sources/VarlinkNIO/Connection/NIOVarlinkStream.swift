import NIOCore
import Synchronization
import VarlinkProtocol

/// A ``VarlinkStream`` writing to a NIO channel.
///
/// Any thread may send. Each reply's bytes count against the stream's queue
/// until NIO has handed them to the kernel; when a reply would take the
/// queue past its limit, the client is not reading, so the stream ends
/// (`tooSlow`) with a last error, and the connection closes. Memory per
/// subscriber therefore stays bounded.
final class NIOVarlinkStream: VarlinkStream {
    private struct State {
        var ended: VarlinkStreamEnd?
        var queuedBytes = 0
        var handlers: [@Sendable (VarlinkStreamEnd) -> Void] = []
    }

    let caller: VarlinkCaller
    private let channel: any Channel
    private let maximumQueuedBytes: Int
    private let tooSlowError: VarlinkError
    private let onEnd: @Sendable (VarlinkStreamEnd) -> Void
    private let state = Mutex(State())

    init(channel: any Channel, caller: VarlinkCaller, maximumQueuedBytes: Int, tooSlowError: VarlinkError, onEnd: @escaping @Sendable (VarlinkStreamEnd) -> Void) {
        self.channel = channel
        self.caller = caller
        self.maximumQueuedBytes = maximumQueuedBytes
        self.tooSlowError = tooSlowError
        self.onEnd = onEnd
    }

    @discardableResult
    func yield(_ parameters: JSONObject) -> Bool {
        yield(VarlinkEncodedMessage(continuing: parameters))
    }

    @discardableResult
    func yield(_ message: VarlinkEncodedMessage) -> Bool {
        let size = message.bytes.count
        enum Decision { case send, ended, tooSlow }
        let decision: Decision = state.withLock { state in
            if state.ended != nil { return .ended }
            if state.queuedBytes + size > maximumQueuedBytes { return .tooSlow }
            state.queuedBytes += size
            return .send
        }
        switch decision {
        case .ended:
            return false
        case .tooSlow:
            end(.tooSlow, lastReply: VarlinkReply(error: tooSlowError), thenClose: true)
            return false
        case .send:
            let channel = self.channel
            onEventLoop {
                channel.writeAndFlush(channel.allocator.buffer(bytes: message.bytes)).whenComplete { _ in
                    self.state.withLock { $0.queuedBytes -= size }
                }
            }
            return true
        }
    }

    func finish(_ reply: VarlinkReply) {
        let last = reply.error == nil && reply.continues ? VarlinkReply(parameters: reply.parameters) : reply
        end(.finished, lastReply: last, thenClose: false)
    }

    func onTermination(_ handler: @escaping @Sendable (VarlinkStreamEnd) -> Void) {
        let alreadyEnded: VarlinkStreamEnd? = state.withLock { state in
            if let ended = state.ended { return ended }
            state.handlers.append(handler)
            return nil
        }
        if let alreadyEnded { handler(alreadyEnded) }
    }

    /// Ends the stream once: sends the last reply, if any, and runs the
    /// termination handlers.
    func end(_ reason: VarlinkStreamEnd, lastReply: VarlinkReply?, thenClose: Bool) {
        let handlers: [@Sendable (VarlinkStreamEnd) -> Void]? = state.withLock { state in
            guard state.ended == nil else { return nil }
            state.ended = reason
            defer { state.handlers = [] }
            return state.handlers
        }
        guard let handlers else { return }
        if lastReply != nil || thenClose {
            let channel = self.channel
            onEventLoop {
                if let lastReply {
                    let written = channel.writeAndFlush(channel.allocator.buffer(bytes: lastReply.encoded()))
                    if thenClose { written.whenComplete { _ in channel.close(promise: nil) } }
                }
                // A client that does not read would never let the last write
                // complete; give it a second, then close anyway.
                if thenClose {
                    channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
                }
            }
        }
        for handler in handlers { handler(reason) }
        onEnd(reason)
    }

    /// Runs on the channel's event loop: now if already there (so writes
    /// keep their order with the caller's), else as soon as possible.
    private func onEventLoop(_ body: @escaping @Sendable () -> Void) {
        if channel.eventLoop.inEventLoop { body() } else { channel.eventLoop.execute(body) }
    }
}
