import ClientBudget
import Logging
import NIOCore
import VarlinkProtocol

/// Serves Varlink calls on one connection, in order, within its uid's
/// budget and its share of the event loop.
///
/// What the client sends waits in a ``FrameBuffer`` (charged to the uid as
/// input), which reading only appends to; calls are cut out of it and
/// answered in turns the loop's ``LoopScheduler`` hands out, one call at a
/// time: before each, the connection checks that its client still reads
/// its replies and that its uid's unsent output is within budget. A call
/// that needs more than a moment (a commit, a large table, a large message
/// to decode) is answered by the ``FairWorkQueue`` off the loop; a stream
/// holds the connection until it ends. Replies are charged to the uid as
/// output until the kernel has taken them. ``ConnectionStateMachine``
/// decides; this handler carries out its decisions.
final class VarlinkConnectionHandler: ChannelInboundHandler, TurnTaker {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What a connection shares with the server.
    struct Shared {
        let dispatcher: VarlinkDispatcher
        let configuration: VarlinkServerConfiguration
        let connections: ConnectionRegistry
        let work: FairWorkQueue
        let streams: StreamCounter
        let logLimit: PerUIDRateLimit
        let logger: Logger
    }

    private let shared: Shared
    private let caller: VarlinkCaller
    private let account: ConnectionAccount
    private let scheduler: LoopScheduler
    private var state: ConnectionStateMachine
    private var frames: FrameBuffer
    private var context: ChannelHandlerContext?
    private var stream: NIOVarlinkStream?
    private var needsFlush = false
    private var markerPending = false
    private var idleTimer: Scheduled<Void>?
    private var outputWaiter: UInt64?
    private var inputWaiter: UInt64?
    /// A large message the workers have been handed and not yet answered.
    private var offloaded: OffloadedMessage?
    private var closed = false

    var uid: UInt32 { caller.uid }
    private var configuration: VarlinkServerConfiguration { shared.configuration }

    init(shared: Shared, caller: VarlinkCaller, account: ConnectionAccount, scheduler: LoopScheduler) {
        self.shared = shared
        self.caller = caller
        self.account = account
        self.scheduler = scheduler
        self.state = ConnectionStateMachine(
            limits: .init(
                maximumQueuedCalls: shared.configuration.maximumPendingCalls,
                maximumQueuedBytes: shared.configuration.maximumPendingCallBytes))
        self.frames = FrameBuffer(maximumMessageSize: shared.configuration.maximumMessageSize)
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        shared.connections.add(id: caller.connectionID, uid: caller.uid) {
            bound.eventLoop.execute { bound.value.beginShutdown() }
        }
    }

    /// The context holds the handler and the handler its context: let go
    /// of it when NIO takes the pipeline apart, or both leak with the
    /// channel (the service fuzzer found it).
    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        stream?.end(.disconnected, lastReply: nil, thenClose: false)
        stream = nil
        frames.removeAll()
        account.closeAll()
        offloaded?.release()
        offloaded = nil
        idleTimer?.cancel()
        if let outputWaiter { account.book.cancelWaiter(outputWaiter) }
        if let inputWaiter { account.book.cancelWaiter(inputWaiter) }
        shared.connections.remove(id: caller.connectionID)
        context.fireChannelInactive()
    }

    /// Reading only appends to the frame buffer and charges the uid: the
    /// calls it completes are answered in the connection's turns.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        guard !closed, state.activity != .closing else { return }
        let completed: (messages: Int, bytes: Int)
        do {
            completed = try frames.append(&bytes)
        } catch {
            refuse(.messageSize(error.maximumSize))
            return
        }
        // Charged as the memory that holds it (its buffer's capacity).
        if let refusal = account.holdInput(frames.capacity) {
            // Calls already complete are held anyway: stop reading until
            // some are answered. An unfinished message that would take the
            // uid past its budget cannot be held: the connection closes.
            account.forceHoldInput(frames.capacity)
            guard frames.completeMessages > 0 else {
                refuse(.budget(refusal))
                return
            }
            blockInput()
        }
        perform(state.received(calls: completed.messages, bytes: completed.bytes))
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        armIdleTimer()
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        settleOutput()
        perform(state.writabilityChanged(context.channel.isWritable))
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        shared.logger.debug("connection error: \(error)", metadata: ["client.uid": "\(caller.uid)"])
        context.close(promise: nil)
    }

    /// Answers a limit error, then closes.
    private func refuse(_ limit: VarlinkLimit) {
        guard let context, !closed, state.activity != .closing else { return }
        _ = state.shutdownRequested()
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        log(.notice, "closing a connection over a limit: \(limit)")
        let reply = VarlinkReply(error: configuration.limitError(limit)).encoded()
        context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: reply)), promise: nil)
        closeAfterFlush(context)
    }

    // MARK: Turns

    func takeTurn(until deadline: NIODeadline) {
        guard let context, !closed else { return }
        state.turnStarted()
        if state.streamOutputPending, let stream {
            let more = stream.writeOutbox(until: deadline)
            settleOutput()
            perform(state.streamOutput(pending: more))
            if more { return }
        }
        while state.next() == .answer {
            if uidOutputIsHigh() {
                blockOutput()
                break
            }
            guard let frame = frames.next() else { break }
            state.dequeued(bytes: frame.readableBytes + 1)
            account.forceHoldInput(frames.capacity)
            answer(frame, context: context)
            if NIODeadline.now() >= deadline { break }
        }
        flushIfNeeded(context)
        perform(state.turnEnded())
    }

    private func answer(_ frame: ByteBuffer, context: ChannelHandlerContext) {
        guard frame.readableBytes <= configuration.largeMessageSize else {
            // Parsing a large message could hold the loop: decode it off the
            // loop, from a copy charged to the uid (``OffloadedMessage``).
            state.began(.answering)
            let message = OffloadedMessage(frame, uid: caller.uid, book: account.book)
            offloaded = message
            offload { [shared, caller] in
                defer { message.release() }
                // Its connection closed before a worker came to it: nothing to do.
                guard let bytes = message.take() else { return .reply(nil) }
                switch bytes.withUnsafeBytes({ Self.decode($0, shared.configuration) }) {
                case .failure(let error): return .reply(Self.encode(VarlinkReply(error: error), shared.configuration))
                case .success(let call):
                    return await Self.resolve(shared.dispatcher.dispatch(call, caller: caller), for: call, shared.configuration)
                }
            }
            return
        }
        let decoded = frame.withUnsafeReadableBytes { Self.decode($0, configuration) }
        switch decoded {
        case .failure(let error):
            write(Self.encode(VarlinkReply(error: error), configuration), context: context)
        case .success(let call):
            handle(shared.dispatcher.dispatch(call, caller: caller), for: call, context: context)
        }
    }

    private func handle(_ outcome: VarlinkOutcome, for call: VarlinkCall, context: ChannelHandlerContext) {
        switch outcome {
        case .reply(let parameters):
            if !call.oneway { write(Self.encode(VarlinkReply(parameters: parameters), configuration), context: context) }
        case .error(let error):
            if !call.oneway { write(Self.encode(VarlinkReply(error: error), configuration), context: context) }
        case .deferred:
            state.began(.answering)
            offload { [configuration] in await Self.resolve(outcome, for: call, configuration) }
        case .stream(let start):
            openStream(start, context: context)
        }
    }

    /// What an answer computed off the loop comes back as.
    private enum Answer: Sendable {
        /// The encoded reply, or nil for a oneway call.
        case reply([UInt8]?)
        /// A stream to open on the loop.
        case stream(@Sendable (any VarlinkStream) -> Void)
    }

    /// Runs `work` on the fair work queue, then writes its answer on the loop.
    private func offload(_ work: @escaping @Sendable () async -> Answer) {
        guard let context else { return }
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        shared.work.submit(uid: caller.uid) {
            let answer = await work()
            bound.eventLoop.execute { bound.value.finishAnswer(answer) }
        }
    }

    private func finishAnswer(_ answer: Answer) {
        offloaded = nil
        guard let context, !closed else { return }
        switch answer {
        case .reply(let bytes):
            if let bytes { write(bytes, context: context) }
            flushIfNeeded(context)
            perform(state.answered())
        case .stream(let start):
            perform(state.answered())
            openStream(start, context: context)
            flushIfNeeded(context)
        }
    }

    /// Works out an outcome to the end, off the loop, and encodes it there.
    private static func resolve(_ outcome: VarlinkOutcome, for call: VarlinkCall, _ configuration: VarlinkServerConfiguration) async
        -> Answer
    {
        var outcome = outcome
        if case .deferred(let work) = outcome { outcome = await work() }
        switch outcome {
        case .reply(let parameters): return .reply(call.oneway ? nil : encode(VarlinkReply(parameters: parameters), configuration))
        case .error(let error): return .reply(call.oneway ? nil : encode(VarlinkReply(error: error), configuration))
        case .deferred: return await resolve(outcome, for: call, configuration)
        case .stream(let start): return .stream(start)
        }
    }

    /// A call, or the error to answer; too many values is the server's
    /// own limit error.
    private static func decode(_ bytes: UnsafeRawBufferPointer, _ configuration: VarlinkServerConfiguration) -> Result<
        VarlinkCall, VarlinkError
    > {
        let result = Result { () throws(VarlinkError) in try VarlinkCall.decode(bytes, maximumValues: configuration.maximumMessageValues) }
        if case .failure(let error) = result, error.isTooManyValues {
            return .failure(configuration.limitError(.messageValues(configuration.maximumMessageValues)))
        }
        return result
    }

    /// A reply's bytes, or a `replySize` error in place of a reply too large.
    private static func encode(_ reply: VarlinkReply, _ configuration: VarlinkServerConfiguration) -> [UInt8] {
        let bytes = reply.encoded()
        guard bytes.count > configuration.maximumReplySize else { return bytes }
        return VarlinkReply(error: configuration.limitError(.replySize(configuration.maximumReplySize))).encoded()
    }

    // MARK: Streams

    private func openStream(_ start: @Sendable (any VarlinkStream) -> Void, context: ChannelHandlerContext) {
        guard shared.streams.open(uid: caller.uid, maximum: configuration.maximumStreamsPerUID) else {
            write(
                Self.encode(
                    VarlinkReply(error: configuration.limitError(.streamsPerUID(configuration.maximumStreamsPerUID))), configuration),
                context: context)
            return
        }
        state.began(.streaming)
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let streams = shared.streams, uid = caller.uid
        let stream = NIOVarlinkStream(
            channel: context.channel, caller: caller, maximumQueuedBytes: configuration.maximumStreamQueueBytes,
            tooSlowError: configuration.limitError(.streamQueue(configuration.maximumStreamQueueBytes)),
            book: account.book, budgetError: { [configuration] refusal in configuration.limitError(.budget(refusal)) },
            announce: {
                bound.eventLoop.execute { bound.value.streamHasOutput() }
            }
        ) { reason in
            streams.close(uid: uid)
            guard reason == .finished else { return }
            bound.eventLoop.execute { bound.value.streamFinished() }
        }
        self.stream = stream
        start(stream)
    }

    private func streamHasOutput() {
        guard !closed, stream != nil else { return }
        perform(state.streamOutput(pending: true))
    }

    private func streamFinished() {
        stream = nil
        guard !closed else { return }
        perform(state.streamEnded())
    }

    // MARK: Output

    /// Writes a reply, charged to the uid's output budget; a reply the
    /// budget cannot take is replaced by the limit error.
    private func write(_ bytes: [UInt8], context: ChannelHandlerContext) {
        var bytes = bytes
        if let refusal = account.chargeWrite(payload: bytes.count) {
            log(.notice, "a reply is over the output budget: \(refusal)")
            bytes = VarlinkReply(error: configuration.limitError(.budget(refusal))).encoded()
            account.forceChargeWrite(payload: bytes.count)
        }
        context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
        needsFlush = true
    }

    private func flushIfNeeded(_ context: ChannelHandlerContext) {
        guard needsFlush else { return }
        needsFlush = false
        context.flush()
        settleOutput()
    }

    /// Releases the output the kernel has taken; while some waits, an empty
    /// write marks the end of what was written, to settle again once it is
    /// sent (NIO completes writes in order).
    private func settleOutput() {
        guard let context else { return }
        let unsent = (try? context.channel.syncOptions?.getOption(ChannelOptions.bufferedWritableBytes)) ?? 0
        account.settle(unsent: unsent)
        guard account.hasPendingOutput, !markerPending, !closed else { return }
        markerPending = true
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            bound.value.markerPending = false
            bound.value.settleOutput()
        }
    }

    /// Whether the uid's unsent output has reached the point where its
    /// connections stop taking calls (half its budget, so that one more
    /// reply still fits).
    private func uidOutputIsHigh() -> Bool {
        guard let limit = account.book.limits.perUID[.output] else { return false }
        return account.book.usage(of: caller.uid)[.output] >= limit / 2
    }

    private func blockOutput() {
        guard let context, outputWaiter == nil else { return }
        perform(state.outputBudget(blocked: true))
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let threshold = (account.book.limits.perUID[.output] ?? .max) / 4
        outputWaiter = account.book.whenBelow(threshold, of: .output, for: caller.uid) {
            bound.eventLoop.execute {
                bound.value.outputWaiter = nil
                bound.value.perform(bound.value.state.outputBudget(blocked: false))
            }
        }
    }

    private func blockInput() {
        guard let context, inputWaiter == nil else { return }
        perform(state.inputBudget(blocked: true))
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let threshold = (account.book.limits.perUID[.input] ?? .max) / 2
        inputWaiter = account.book.whenBelow(threshold, of: .input, for: caller.uid) {
            bound.eventLoop.execute {
                bound.value.inputWaiter = nil
                bound.value.perform(bound.value.state.inputBudget(blocked: false))
            }
        }
    }

    // MARK: Unfinished messages

    /// Closes a connection whose unfinished message receives nothing for
    /// the configured time (a client that would hold its buffer forever).
    private func armIdleTimer() {
        guard let context, idleTimer == nil, !closed, frames.partialBytes > 0 else { return }
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        idleTimer = context.eventLoop.scheduleTask(deadline: account.lastInput + configuration.incompleteMessageTimeout) {
            let handler = bound.value
            handler.idleTimer = nil
            guard handler.frames.partialBytes > 0 else { return }
            if NIODeadline.now() - handler.account.lastInput >= handler.configuration.incompleteMessageTimeout {
                handler.refuse(.incompleteMessageTimeout(Int(handler.configuration.incompleteMessageTimeout.nanoseconds / 1_000_000_000)))
            } else {
                handler.armIdleTimer()
            }
        }
    }

    // MARK: Actions

    private func perform(_ action: ConnectionStateMachine.Action) {
        guard let context, !closed else { return }
        switch action.reading {
        case .unchanged: break
        case .pause: try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        case .resume:
            try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
            context.read()
        }
        if action.requestTurn { scheduler.enqueue(self) }
        if action.close { closeAfterFlush(context) }
    }

    /// Stops taking calls; ends an open stream with the shutdown reply;
    /// closes once the call being answered (a commit, say) has been replied to.
    private func beginShutdown() {
        guard !closed, state.activity != .closing else { return }
        frames.removeAll()
        account.forceHoldInput(0)
        let (action, wasStreaming) = state.shutdownRequested()
        if wasStreaming, let stream {
            self.stream = nil
            stream.end(.serverShutdown, lastReply: configuration.shutdownReply, thenClose: false)
        }
        perform(action)
    }

    private func closeAfterFlush(_ context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            channel.close(promise: nil)
        }
        // A client that does not read would never let that write complete.
        context.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }

    private func log(_ level: Logger.Level, _ message: @autoclosure () -> String) {
        let (allowed, suppressed) = shared.logLimit.allow(caller.uid)
        guard allowed else { return }
        var metadata: Logger.Metadata = ["client.uid": "\(caller.uid)", "client.pid": "\(caller.pid)"]
        if suppressed > 0 { metadata["suppressed"] = "\(suppressed)" }
        shared.logger.log(level: level, "\(message())", metadata: metadata)
    }
}
