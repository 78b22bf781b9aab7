#if canImport(Glibc)
import Glibc
#endif
public import Logging
public import NIOCore
import NIOPosix
public import ServiceLifecycle
import Synchronization
public import VarlinkProtocol

/// A Varlink server on a Unix stream socket, built on SwiftNIO.
///
/// It reads each peer's credentials at accept (`SO_PEERCRED`), enforces the
/// message-size and connection limits, and hands calls to a
/// ``VarlinkDispatcher`` on the connection's event loop. As a `Service`, it
/// serves until a graceful shutdown, then stops accepting, gives open
/// streams their last reply, lets calls in progress finish, and closes.
public final class VarlinkServer: Service, Sendable {
    /// Where the server listens.
    public enum Listener: Sendable {
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

    /// Creates a server; nothing happens until ``listen()`` or ``run()``.
    public init(listener: Listener, dispatcher: VarlinkDispatcher, configuration: VarlinkServerConfiguration, group: any EventLoopGroup, logger: Logger) {
        self.listener = listener
        self.dispatcher = dispatcher
        self.configuration = configuration
        self.group = group
        self.logger = logger
        self.limiter = ConnectionLimiter(maximumTotal: configuration.maximumConnections, maximumPerUID: configuration.maximumConnectionsPerUID)
    }

    /// Open connections.
    public var connectionCount: Int { connections.count }

    /// Starts accepting connections: binds the path (replacing a stale
    /// socket, refusing a live one) or adopts the activated socket.
    public func listen() async throws {
        guard channel.withLock({ $0 }) == nil else { return }
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: ChannelOptions.Types.WriteBufferWaterMark(low: 32 << 10, high: 256 << 10))
            .childChannelOption(ChannelOptions.maxMessagesPerRead, value: 16)
            .childChannelInitializer { [self] channel in initialize(channel) }
        let bound: any Channel
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
        channel.withLock { $0 = bound }
    }

    public func run() async throws {
        try await listen()
        guard let serverChannel = channel.withLock({ $0 }) else { return }
        // Stop on a graceful shutdown (SIGTERM through the ServiceGroup) or
        // when the task running the server is cancelled.
        try? await withTaskCancellationOrGracefulShutdownHandler {
            try await serverChannel.closeFuture.get()
        } onCancelOrGracefulShutdown: {
            serverChannel.close(promise: nil)
        }
        connections.shutdownAll()
        await connections.waitUntilEmpty()
        if case .path(let path) = listener { unlink(path) }
        logger.info("stopped serving")
    }

    private func initialize(_ channel: any Channel) -> EventLoopFuture<Void> {
        PeerCredentials.read(from: channel).flatMapThrowing { [self] credentials in
            let id = nextConnectionID.add(1, ordering: .relaxed).oldValue
            let caller = VarlinkCaller(uid: credentials.uid, gid: credentials.gid, pid: credentials.pid, connectionID: id)
            if let refusal = limiter.admit(uid: credentials.uid) {
                let limit: VarlinkLimit
                switch refusal {
                case .total(let maximum): limit = .connections(maximum)
                case .perUID(let maximum): limit = .connectionsPerUID(maximum)
                }
                logger.notice("refusing a connection: \(limit)", metadata: ["client.uid": "\(credentials.uid)", "client.pid": "\(credentials.pid)"])
                try channel.pipeline.syncOperations.addHandler(RefusingHandler(reply: VarlinkReply(error: configuration.limitError(limit))))
                return
            }
            let limiter = self.limiter
            channel.closeFuture.whenComplete { _ in limiter.release(uid: credentials.uid) }
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(VarlinkFrameDecoder(maximumSize: configuration.maximumMessageSize)))
            try channel.pipeline.syncOperations.addHandler(VarlinkConnectionHandler(
                dispatcher: dispatcher, caller: caller, configuration: configuration, connections: connections,
                logger: logger))
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
