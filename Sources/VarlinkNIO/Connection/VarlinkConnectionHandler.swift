import ClientBudget
import Logging
import NIOCore
import VarlinkProtocol

/// Moves one connection's bytes, and carries out what its
/// ``ConnectionStateMachine`` decides.
///
/// Reading only appends to a ``FrameBuffer``, charged to the uid as input
/// (``ConnectionAccount``, the budget). Calls are cut out of it in the turns
/// the loop's ``LoopScheduler`` hands out, one at a time, and answered by the
/// ``CallAnswerer``, or by the ``FairWorkQueue`` off the loop; a stream
/// holds the connection until it ends. Replies are charged to the uid as
/// output until the kernel has taken them.
final class VarlinkConnectionHandler: ChannelInboundHandler, TurnTaker {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let shared: Shared
    private let caller: VarlinkCaller
    private let account: ConnectionAccount
    private let scheduler: LoopScheduler
    private var machine: ConnectionStateMachine
    private var frames: FrameBuffer
    private var context: ChannelHandlerContext?
    private let stream: StreamSlot
    private var incompleteMessageCheck: Scheduled<Void>?
    /// A large message the workers have been handed and not yet answered.
    private var offloaded: OffloadedMessage?
    private let output: ConnectionOutput

    var uid: UInt32 { caller.uid }

    init(shared: Shared, caller: VarlinkCaller, account: ConnectionAccount, scheduler: LoopScheduler) {
        let configuration = shared.configuration
        self.shared = shared
        self.caller = caller
        self.account = account
        self.scheduler = scheduler
        self.machine = ConnectionStateMachine(limits: .init(configuration))
        self.frames = FrameBuffer(maximumMessageSize: configuration.limits.maximumMessageSize)
        self.stream = StreamSlot(streams: shared.streams, configuration: configuration)
        self.output = shared.output(for: account, caller: caller)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        output.context = context
        let stop = onLoop { (handler, _: Void) in handler.perform(handler.machine.shutdownRequested()) }
        shared.connections.add(id: caller.connectionID, uid: caller.uid) { stop(()) }
    }

    /// The context holds the handler and the handler its context: let go
    /// of it when NIO takes the pipeline apart, or both leak with the
    /// channel (the service fuzzer found it).
    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        output.context = nil
        // Here, not in channelInactive: a channel closed before it was ever
        // active (set up on its loop while the server stopped) gets no
        // channelInactive, and must not stay counted, or the server's stop
        // waits for it forever.
        shared.connections.remove(id: caller.connectionID)
    }

    func channelInactive(context: ChannelHandlerContext) {
        machine.closed()
        output.isClosed = true
        stream.end(.disconnected)
        incompleteMessageCheck?.cancel()
        frames.removeAll()
        account.closeAll()
        offloaded?.release()
        offloaded = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        guard machine.isOpen else { return }
        guard let completed = try? frames.append(&bytes) else {
            return perform(machine.refuse(.messageSize(frames.maximumMessageSize)))
        }
        switch account.hold(frames) {
        case .held: break
        case .overBudget: waitForBudget(.input)
        case .refused(let refusal): return perform(machine.refuse(.budget(refusal)))
        }
        perform(
            machine.received(
                calls: completed.messages, bytes: completed.bytes, partialBytes: frames.partialBytes, now: context.eventLoop.now))
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        output.settle()
        perform(machine.writabilityChanged(context.channel.isWritable))
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        shared.logger.debug("connection error: \(error)", metadata: ["client.uid": "\(caller.uid)"])
        context.close(promise: nil)
    }

    func takeTurn(until deadline: NIODeadline) {
        guard context != nil, machine.isOpen else { return }
        machine.turnStarted()
        account.beginTurn()
        if machine.streamOutputPending {
            let more = stream.writeOutbox(until: deadline)
            output.settle()
            perform(machine.streamOutput(pending: more))
            if more { return }
        }
        while machine.next() == .answer {
            if account.outputIsHigh {
                waitForBudget(.output)
                break
            }
            guard let frame = frames.next() else { break }
            machine.dequeued(bytes: frame.readableBytes + 1)
            let outcome = output.writing { shared.answerer.answer(frame, caller: caller, book: account.book, writingTo: &$0) }
            switch outcome {
            case .answered: break
            case .later(let work, let message):
                machine.began(.answering)
                offloaded = message
                let finish = onLoop { $0.finish($1) }
                shared.work.submit(uid: caller.uid) { finish(await work()) }
            case .stream(let start): openStream(start)
            }
            if NIODeadline.now() >= deadline { break }
        }
        // The input answered gives back its memory once a turn, not per call.
        account.forceHoldInput(frames.capacity)
        output.flushIfNeeded()
        perform(machine.turnEnded())
    }

    private func finish(_ answer: CallAnswerer.Answer) {
        offloaded = nil
        guard machine.isOpen || machine.state == .closing(answerPending: true) else { return }
        if case .reply(let bytes?) = answer { output.write(bytes) }
        perform(machine.answered())
        if case .stream(let start) = answer { openStream(start) }
        output.flushIfNeeded()
    }

    /// Holds the connection until its uid's budget of `resource` has room.
    private func waitForBudget(_ resource: Resource) {
        let resumed = onLoop { (handler, _: Void) in
            handler.account.resumed(resource)
            handler.perform(handler.machine.budget(resource, blocked: false))
        }
        if account.wait(for: resource, { resumed(()) }) { perform(machine.budget(resource, blocked: true)) }
    }

    private func openStream(_ start: @Sendable (any VarlinkStream) -> Void) {
        guard let context else { return }
        let changed = onLoop { (handler, ended: Bool) in
            guard handler.stream.isOpen else { return }
            if ended { handler.stream.finished() }
            handler.perform(ended ? handler.machine.streamEnded() : handler.machine.streamOutput(pending: true))
        }
        guard stream.open(start, channel: context.channel, caller: caller, book: account.book, changed: changed) else {
            return output.write(shared.answerer.refusal(.streamsPerUID(shared.configuration.limits.maximumStreamsPerUID)))
        }
        machine.began(.streaming)
    }

    /// A function any thread may call to run `body` with the handler on its event loop.
    private func onLoop<Value: Sendable>(_ body: @escaping (VarlinkConnectionHandler, Value) -> Void) -> @Sendable (Value) -> Void {
        guard let context else { return { _ in } }
        let bound = NIOLoopBound((self, body), eventLoop: context.eventLoop)
        return { value in bound.eventLoop.execute { bound.value.1(bound.value.0, value) } }
    }

    private typealias Machine = ConnectionStateMachine

    private func perform(_ flow: Machine.Flow) {
        guard let context, machine.state != .closed else { return }
        if flow.reading != .unchanged {
            try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: flow.reading == .resume)
            if flow.reading == .resume { context.read() }
        }
        if flow.requestTurn { scheduler.enqueue(self) }
    }

    private func perform(_ action: Machine.ReceivedAction) {
        perform(action.flow)
        if let deadline = action.checkIncompleteMessageAt { checkIncompleteMessage(at: deadline) }
    }

    private func perform(_ action: Machine.IncompleteCheckAction) {
        switch action {
        case .none: break
        case .checkAgain(let deadline): checkIncompleteMessage(at: deadline)
        case .refuse(let limit, let flow): perform(Machine.RefuseAction.refuse(limit, flow))
        }
    }

    private func perform(_ action: Machine.RefuseAction) {
        guard case .refuse(let limit, let flow) = action else { return }
        perform(flow)
        guard context != nil, machine.state != .closed else { return }
        dropInput()
        shared.log(.notice, "closing a connection over a limit: \(limit)", for: caller)
        output.writeLast(shared.answerer.refusal(limit))
        output.close()
    }

    private func perform(_ action: Machine.AnsweredAction) {
        switch action {
        case .close: if context != nil, machine.state != .closed { output.close() }
        case .flow(let flow): perform(flow)
        }
    }

    private func perform(_ action: Machine.ShutdownAction) {
        guard case .stop(let endStream, let closeNow, let flow) = action else { return }
        perform(flow)
        guard context != nil, machine.state != .closed else { return }
        if endStream { stream.end(.serverShutdown) }
        dropInput()
        if closeNow { output.close() }
    }

    private func checkIncompleteMessage(at deadline: NIODeadline) {
        guard let context, machine.state != .closed else { return }
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        incompleteMessageCheck = context.eventLoop.scheduleTask(deadline: deadline) {
            let handler = bound.value
            handler.perform(handler.machine.incompleteMessageCheck(partialBytes: handler.frames.partialBytes, now: bound.eventLoop.now))
        }
    }

    /// The calls queued and unread: none will be answered.
    private func dropInput() {
        frames.removeAll()
        account.forceHoldInput(0)
    }
}
