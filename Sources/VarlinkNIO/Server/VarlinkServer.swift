#if canImport(Glibc)
    import Glibc
#endif
package import ClientBudget
package import Logging
package import NIOCore
import NIOConcurrencyHelpers
import NIOPosix
import ServiceLifecycle
import Synchronization
package import VarlinkProtocol

/// A Varlink server on a Unix stream socket, built on SwiftNIO.
///
/// It reads each peer's credentials at accept (`SO_PEERCRED`) and charges
/// everything a connection makes it hold to the peer's uid in a
/// ``BudgetBook``: the connection itself, unfinished messages, calls
/// waiting, replies not yet sent. It shares each event loop fairly among
/// uids (``LoopScheduler``) and answers slow calls on a few workers shared
/// fairly too (``FairWorkQueue``), so that no client can hold a loop or
/// make the server hold more than its uid's budget. As a `Service`, it
/// serves until a graceful shutdown, then stops accepting, gives open
/// streams their last reply, lets calls in progress finish, and closes.
package final class VarlinkServer: Service, Sendable {
    /// Where the server listens.
    package enum Listener: Sendable {
        /// Bind a socket at this path.
        case path(String)
        /// Serve on a socket already bound and listening (socket activation).
        case descriptor(CInt)
    }

    private let listener: Listener
    private let dispatcher: VarlinkDispatcher
    private let configuration: VarlinkServerConfiguration
    private let group: any EventLoopGroup
    private let logger: Logger
    private let limiter: ConnectionLimiter
    private let connections = ConnectionRegistry()
    private let nextConnectionID = Atomic<UInt64>(1)
    private let channel = Mutex<(any Channel)?>(nil)
    private let book: BudgetBook
    private let work: FairWorkQueue
    private let streams = StreamCounter()
    private let schedulers: LoopSchedulers
    private let logLimit = PerUIDRateLimit(burst: 20, perSecond: 2)
    private let connectionRate: PerUIDRateLimit
    private let acceptGate = AcceptGate()
    /// The listening socket's own loop: accepting (a flood of connections
    /// included) happens beside the loops that serve calls, not on one,
    /// and at a lower priority than theirs.
    private let acceptLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Creates a server; nothing happens until ``listen()`` or ``run()``.
    /// Connections are charged to `budget`; by default nothing limits it.
    package init(
        listener: Listener, dispatcher: VarlinkDispatcher, configuration: VarlinkServerConfiguration, group: any EventLoopGroup,
        budget: BudgetBook = BudgetBook(limits: BudgetLimits()), logger: Logger
    ) {
        self.listener = listener
        self.dispatcher = dispatcher
        self.configuration = configuration
        self.group = group
        self.logger = logger
        self.book = budget
        self.schedulers = LoopSchedulers(budgets: configuration.turns)
        self.work = FairWorkQueue(workers: configuration.workers)
        // At nice 10: when the machine is busy, a flood of connections is
        // accepted only as fast as CPU the calls leave allows.
        acceptLoop.next().execute { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
        self.connectionRate = PerUIDRateLimit(
            burst: configuration.limits.connectionBurstPerUID, perSecond: configuration.limits.connectionsPerSecondPerUID)
        self.limiter = ConnectionLimiter(
            maximumTotal: configuration.limits.maximumConnections, maximumPerUID: configuration.limits.maximumConnectionsPerUID)
    }

    /// Open connections.
    package var connectionCount: Int { connections.count }

    /// Open connections of one uid.
    package func connectionCount(uid: UInt32) -> Int { limiter.count(uid: uid) }

    /// Calls being answered off the event loops, or waiting to be.
    package var pendingWork: Int { work.pending }

    /// Starts accepting connections: binds the path (replacing a stale
    /// socket, refusing a live one) or adopts the activated socket.
    package func listen() async throws {
        guard channel.withLock({ $0 }) == nil else { return }
        let bootstrap = ServerBootstrap(group: acceptLoop, childGroup: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            // A few accepts per readiness event, so that a flood of new
            // connections shares the loop with what else waits on it.
            .serverChannelOption(ChannelOptions.maxMessagesPerRead, value: 8)
            // Set-ups waiting for the loops are bounded (``AcceptGate``).
            .serverChannelInitializer { [acceptGate] channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(acceptGate.handler()) }
            }
            .childChannelOption(
                ChannelOptions.writeBufferWaterMark, value: ChannelOptions.Types.WriteBufferWaterMark(low: 32 << 10, high: 256 << 10)
            )
            // One read (at most 16 KiB) per readiness event: a poll of the
            // loop's sockets handles up to 64 ready connections before any
            // call is answered, so what each may read at once bounds how long
            // that takes (copying clients' bytes, faulting pages in), however
            // much one uid sends on many connections.
            .childChannelOption(ChannelOptions.maxMessagesPerRead, value: 1)
            .childChannelOption(
                ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: 16 << 10)
            )
            .childChannelInitializer { [self] channel in initialize(channel) }
        let bound: any Channel
        do {
            switch listener {
            case .path(let path):
                try SocketPath.prepare(path)
                bound = try await bootstrap.bind(unixDomainSocketPath: path).get()
                chmod(path, mode_t(configuration.socketMode))
                logger.info("listening on \(path)")
            case .descriptor(let descriptor):
                bound = try await bootstrap.withBoundSocket(descriptor).get()
                logger.info("serving on the socket passed by the service manager (fd \(descriptor))")
            }
        } catch {
            try? await acceptLoop.shutdownGracefully()
            throw error
        }
        channel.withLock { $0 = bound }
    }

    package func run() async throws {
        try await listen()
        guard let serverChannel = channel.withLock({ $0 }) else { return }
        let work = self.work, workers = configuration.workers
        await withDiscardingTaskGroup { group in
            // A thread per worker: on fewer, a job waits for a thread as
            // well as for a worker, behind the slices of jobs of whichever
            // uid got there first, and the fair queue's promise (another
            // uid waits for at most one job) no longer holds.
            group.addTask { await work.run(workers: workers, threads: workers) }
            // Stop on a graceful shutdown (SIGTERM through the ServiceGroup) or
            // when the task running the server is cancelled.
            try? await withTaskCancellationOrGracefulShutdownHandler {
                try await serverChannel.closeFuture.get()
            } onCancelOrGracefulShutdown: {
                serverChannel.close(promise: nil)
            }
            connections.shutdownAll()
            await connections.waitUntilEmpty()
            work.stop()
        }
        if case .path(let path) = listener { unlink(path) }
        try? await acceptLoop.shutdownGracefully()
        logger.info("stopped serving")
    }

    private func initialize(_ channel: any Channel) -> EventLoopFuture<Void> {
        let acceptGate = self.acceptGate
        return PeerCredentials.read(from: channel).flatMapThrowing { [self] credentials in
            defer { acceptGate.setUp(channel) }
            // Faster than its rate allows: closed at once, before anything is
            // built for it (as systemd closes connections over its limits).
            guard connectionRate.allow(credentials.uid).allowed else {
                channel.close(promise: nil)
                return
            }
            let id = nextConnectionID.add(1, ordering: .relaxed).oldValue
            let caller = VarlinkCaller(uid: credentials.uid, gid: credentials.gid, pid: credentials.pid, connectionID: id)
            if let limit = admit(credentials.uid) {
                if logLimit.allow(credentials.uid).allowed {
                    logger.notice(
                        "refusing a connection: \(limit)",
                        metadata: ["client.uid": "\(credentials.uid)", "client.pid": "\(credentials.pid)"])
                }
                try channel.pipeline.syncOperations.addHandler(RefusingHandler(reply: VarlinkReply(error: configuration.limitError(limit))))
                return
            }
            let limiter = self.limiter, book = self.book
            channel.closeFuture.whenComplete { _ in
                limiter.release(uid: credentials.uid)
                book.release(BudgetLimits.connectionCost, of: .connections, from: credentials.uid)
            }
            let account = ConnectionAccount(uid: credentials.uid, book: book)
            let shared = VarlinkConnectionHandler.Shared(
                answerer: CallAnswerer(dispatcher: dispatcher, configuration: configuration), connections: connections, work: work,
                streams: streams,
                logLimit: logLimit, logger: logger)
            try channel.pipeline.syncOperations.addHandler(
                VarlinkConnectionHandler(
                    shared: shared, caller: caller, account: account, scheduler: schedulers.scheduler(for: channel.eventLoop)))
        }
    }

    /// Takes a place for a connection of `uid` (counted, and charged to its
    /// budget), or says which limit refuses it.
    private func admit(_ uid: UInt32) -> VarlinkLimit? {
        if let refusal = limiter.admit(uid: uid) {
            switch refusal {
            case .total(let maximum): return .connections(maximum)
            case .perUID(let maximum): return .connectionsPerUID(maximum)
            }
        }
        if let refusal = book.charge(BudgetLimits.connectionCost, of: .connections, to: uid) {
            limiter.release(uid: uid)
            return .budget(refusal)
        }
        return nil
    }
}

/// One ``LoopScheduler`` per event loop, made on first use on that loop and
/// only ever touched there; the table itself is behind a lock.
private final class LoopSchedulers: @unchecked Sendable {
    private let budgets: TurnBudgets
    private let lock = NIOLock()
    private var table: [ObjectIdentifier: LoopScheduler] = [:]

    init(budgets: TurnBudgets) {
        self.budgets = budgets
    }

    func scheduler(for eventLoop: any EventLoop) -> LoopScheduler {
        eventLoop.preconditionInEventLoop()
        return lock.withLock {
            if let existing = table[ObjectIdentifier(eventLoop)] { return existing }
            let created = LoopScheduler(eventLoop: eventLoop, budgets: budgets)
            table[ObjectIdentifier(eventLoop)] = created
            return created
        }
    }
}

/// Answers a connection over the limits with one error, then closes it.
private final class RefusingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let reply: VarlinkReply

    init(reply: VarlinkReply) {
        self.reply = reply
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(bytes: reply.encoded()))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
