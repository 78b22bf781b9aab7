import Logging
import NIOCore
import VarlinkProtocol

/// Serves Varlink calls on one connection, in order.
///
/// Calls are answered on the event loop as they arrive, so pipelined calls
/// need no hop. A call whose answer is deferred (a database commit) or a
/// stream holds the connection: later calls queue and are answered after
/// it, which keeps replies in order and lets each call see the effect of
/// the one before. Replies are flushed once per read batch. When the client
/// stops reading, the server stops reading too; when too many calls queue
/// up, it pauses until they are answered.
final class VarlinkConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let dispatcher: VarlinkDispatcher
    private let caller: VarlinkCaller
    private let configuration: VarlinkServerConfiguration
    private let connections: ConnectionRegistry
    private let logger: Logger

    private var queued = CircularBuffer<ByteBuffer>()
    private var busy = false
    private var stream: NIOVarlinkStream?
    private var needsFlush = false
    private var readingPaused = false
    private var shuttingDown = false

    init(dispatcher: VarlinkDispatcher, caller: VarlinkCaller, configuration: VarlinkServerConfiguration, connections: ConnectionRegistry, logger: Logger) {
        self.dispatcher = dispatcher
        self.caller = caller
        self.configuration = configuration
        self.connections = connections
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        connections.add(id: caller.connectionID, uid: caller.uid) {
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.beginShutdown(context: context)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        stream?.end(.disconnected, lastReply: nil, thenClose: false)
        stream = nil
        queued.removeAll()
        connections.remove(id: caller.connectionID)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if busy || !queued.isEmpty {
            queued.append(frame)
            if queued.count >= configuration.maximumPendingCalls { pauseReading(context) }
            return
        }
        process(frame, context: context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushIfNeeded(context)
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // Stop reading calls while the client is not reading replies.
        if context.channel.isWritable {
            if queued.count < configuration.maximumPendingCalls { resumeReading(context) }
        } else {
            pauseReading(context)
        }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let tooLarge = error as? VarlinkFrameDecoder.MessageTooLarge {
            logger.notice("message over the size limit; closing", metadata: ["client.uid": "\(caller.uid)", "limit": "\(tooLarge.maximumSize)"])
            let reply = VarlinkReply(error: configuration.limitError(.messageSize(tooLarge.maximumSize)))
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(bytes: reply.encoded()))).whenComplete { _ in
                channel.close(promise: nil)
            }
            return
        }
        logger.debug("connection error: \(error)", metadata: ["client.uid": "\(caller.uid)"])
        context.close(promise: nil)
    }

    // MARK: Calls

    private func process(_ frame: ByteBuffer, context: ChannelHandlerContext) {
        let decoded = frame.withUnsafeReadableBytes { bytes in
            Result { () throws(VarlinkError) in try VarlinkCall.decode(bytes) }
        }
        switch decoded {
        case .failure(let error):
            write(VarlinkReply(error: error), context: context)
        case .success(let call):
            handle(dispatcher.dispatch(call, caller: caller), for: call, context: context)
        }
    }

    private func handle(_ outcome: VarlinkOutcome, for call: VarlinkCall, context: ChannelHandlerContext) {
        switch outcome {
        case .reply(let parameters):
            if !call.oneway { write(VarlinkReply(parameters: parameters), context: context) }
        case .error(let error):
            if !call.oneway { write(VarlinkReply(error: error), context: context) }
        case .deferred(let work):
            busy = true
            let promise = context.eventLoop.makePromise(of: VarlinkOutcome.self)
            promise.completeWithTask { await work() }
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            promise.futureResult.whenSuccess { outcome in
                let (handler, context) = bound.value
                handler.busy = false
                handler.handle(outcome, for: call, context: context)
                handler.drainQueue(context)
            }
        case .stream(let start):
            busy = true
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let stream = NIOVarlinkStream(
                channel: context.channel, caller: caller, maximumQueuedBytes: configuration.maximumStreamQueueBytes,
                tooSlowError: configuration.limitError(.streamQueue(configuration.maximumStreamQueueBytes))
            ) { reason in
                guard reason == .finished else { return }
                bound.eventLoop.execute {
                    let (handler, context) = bound.value
                    handler.stream = nil
                    handler.busy = false
                    handler.drainQueue(context)
                }
            }
            self.stream = stream
            start(stream)
        }
    }

    /// Answers queued calls until one holds the connection again.
    private func drainQueue(_ context: ChannelHandlerContext) {
        while !busy, let next = queued.popFirst() {
            process(next, context: context)
        }
        flushIfNeeded(context)
        if shuttingDown && !busy {
            closeAfterFlush(context)
            return
        }
        if queued.count < configuration.maximumPendingCalls, context.channel.isWritable { resumeReading(context) }
    }

    private func write(_ reply: VarlinkReply, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: reply.encoded())), promise: nil)
        needsFlush = true
    }

    private func flushIfNeeded(_ context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
    }

    private func pauseReading(_ context: ChannelHandlerContext) {
        guard !readingPaused else { return }
        readingPaused = true
        context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
    }

    private func resumeReading(_ context: ChannelHandlerContext) {
        guard readingPaused, !shuttingDown else { return }
        readingPaused = false
        context.channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
        context.read()
    }

    // MARK: Shutdown

    /// Stops taking calls; ends an open stream with the shutdown reply; closes
    /// once the call being answered (a commit, say) has been replied to.
    private func beginShutdown(context: ChannelHandlerContext) {
        guard !shuttingDown else { return }
        pauseReading(context)
        shuttingDown = true
        queued.removeAll()
        if let stream {
            self.stream = nil
            stream.end(.serverShutdown, lastReply: configuration.shutdownReply, thenClose: false)
            busy = false
        }
        if !busy { closeAfterFlush(context) }
    }

    private func closeAfterFlush(_ context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
