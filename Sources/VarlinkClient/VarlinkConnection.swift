package import NIOCore
import NIOPosix
package import VarlinkProtocol
import Synchronization

/// A client connection to a Varlink service on a Unix socket.
///
/// Calls may overlap: each waits for its own reply, in the order they were
/// sent, as Varlink answers them. A `more` call gets the connection's
/// replies as a stream until the last one.
package final class VarlinkConnection: Sendable {

    private let channel: any Channel

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// Connects to the socket at `path`.
    package static func connect(path: String, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws
        -> VarlinkConnection
    {
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(VarlinkFrameDecoder(maximumSize: 16 << 20)))
                    try channel.pipeline.syncOperations.addHandler(ReplyRouter())
                }
            }
            .connect(unixDomainSocketPath: path).get()
        return VarlinkConnection(channel: channel)
    }

    /// Sends a call and waits for its one reply.
    ///
    /// Cancelling the calling task ends the wait with `CancellationError`;
    /// the connection stays usable, and the reply, when it comes, is dropped
    /// (Varlink answers in order, so it cannot be taken for another's).
    package func call(_ call: VarlinkCall) async throws -> VarlinkReply {
        let bytes = call.encoded() + [0]
        let channel = self.channel
        let cancellation = CallCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                channel.eventLoop.execute {
                    guard let router = try? channel.pipeline.syncOperations.handler(type: ReplyRouter.self), channel.isActive else {
                        continuation.resume(throwing: VarlinkConnectionError.disconnected)
                        return
                    }
                    guard !cancellation.isCancelled else {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    router.expect(.single(cancellation, continuation))
                    channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
                }
            }
        } onCancel: {
            cancellation.cancel()
            channel.eventLoop.execute {
                try? channel.pipeline.syncOperations.handler(type: ReplyRouter.self).abandon(cancellation)
            }
        }
    }

    /// Sends a call with `more` and returns its replies as they come; the
    /// stream ends after the last one (or with the error reply).
    package func stream(_ call: VarlinkCall) -> AsyncThrowingStream<VarlinkReply, any Error> {
        let bytes = VarlinkCall(method: call.method, parameters: call.parameters, more: true).encoded() + [0]
        let channel = self.channel
        return AsyncThrowingStream { continuation in
            channel.eventLoop.execute {
                guard let router = try? channel.pipeline.syncOperations.handler(type: ReplyRouter.self), channel.isActive else {
                    continuation.finish(throwing: VarlinkConnectionError.disconnected)
                    return
                }
                router.expect(.stream(continuation))
                channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
            }
            continuation.onTermination = { reason in
                if case .cancelled = reason { channel.close(promise: nil) }
            }
        }
    }

    /// Closes the connection; waiting calls fail with ``Failure/disconnected``.
    package func close() async {
        try? await channel.close()
    }
}

/// Set when a call's task is cancelled: the call is then not sent, or no
/// longer waited for.
final class CallCancellation: Sendable {
    private let cancelled = Atomic(false)
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
    func cancel() { cancelled.store(true, ordering: .releasing) }
}

/// Hands each reply to the call waiting for it.
private final class ReplyRouter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    enum Waiter {
        case single(CallCancellation, CheckedContinuation<VarlinkReply, any Error>)
        case stream(AsyncThrowingStream<VarlinkReply, any Error>.Continuation)
        /// A call its task gave up on: its reply is read and dropped.
        case abandoned
    }

    private var waiters = CircularBuffer<Waiter>()

    func expect(_ waiter: Waiter) {
        waiters.append(waiter)
    }

    /// Ends the wait of the call `cancellation` belongs to with
    /// `CancellationError`, if it is still waiting; its reply will be dropped.
    func abandon(_ cancellation: CallCancellation) {
        for index in waiters.indices {
            guard case .single(let owner, let continuation) = waiters[index], owner === cancellation else { continue }
            waiters[index] = .abandoned
            continuation.resume(throwing: CancellationError())
            return
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let decoded = frame.withUnsafeReadableBytes { bytes in Result { () throws(VarlinkError) in try VarlinkReply.decode(bytes) } }
        guard case .success(let reply) = decoded else {
            fail(VarlinkConnectionError.malformedReply)
            context.close(promise: nil)
            return
        }
        guard let waiter = waiters.first else { return }
        switch waiter {
        case .single(_, let continuation):
            waiters.removeFirst()
            continuation.resume(returning: reply)
        case .abandoned:
            if !reply.continues { waiters.removeFirst() }
        case .stream(let continuation):
            if let error = reply.error {
                waiters.removeFirst()
                continuation.finish(throwing: VarlinkError(error, reply.parameters))
            } else {
                continuation.yield(reply)
                if !reply.continues {
                    waiters.removeFirst()
                    continuation.finish()
                }
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(VarlinkConnectionError.disconnected)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    private func fail(_ error: any Error) {
        while let waiter = waiters.popFirst() {
            switch waiter {
            case .single(_, let continuation): continuation.resume(throwing: error)
            case .stream(let continuation): continuation.finish(throwing: error)
            case .abandoned: break
            }
        }
    }
}

/// Why a call failed without an error reply.
package enum VarlinkConnectionError: Error, Equatable, CustomStringConvertible {
    /// The connection closed before the reply came.
    case disconnected
    /// The service sent something that is not a Varlink reply.
    case malformedReply

    package var description: String {
        switch self {
        case .disconnected: "the connection to lprojd closed"
        case .malformedReply: "lprojd sent a reply that is not Varlink"
        }
    }
}
