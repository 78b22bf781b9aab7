import Foundation
import LprojTestSupport
import NIOCore
import NIOPosix
import Synchronization
import Testing
import VarlinkProtocol
@testable import VarlinkClient

/// A cancelled call stops waiting at once, and the connection goes on: the
/// reply that still comes for it is not taken for the next call's.
@Suite struct CancellationTests {
    @Test func aCancelledCallStopsWaitingAndItsLateReplyIsDropped() async throws {
        try await HoldingServer.with { server, path in
            let connection = try await VarlinkConnection.connect(path: path)
            let held = Task { try await connection.call(VarlinkCall(method: "org.example.Hold", parameters: [:])) }
            #expect(try await server.nextCall() == "org.example.Hold")
            held.cancel()
            _ = try await withTimeout(seconds: 10, "the cancelled call kept waiting") {
                await #expect(throws: CancellationError.self) { try await held.value }
            }
            // The server answers the held call first, then this one.
            let reply = try await withTimeout(seconds: 10, "no reply") {
                try await connection.call(VarlinkCall(method: "org.example.Echo", parameters: ["n": 1]))
            }
            #expect(reply.parameters["n"] == 1)
            #expect(try await server.nextCall() == "org.example.Echo")
            await connection.close()
        }
    }

    @Test func aCallCancelledBeforeItStartsIsNeverSent() async throws {
        try await HoldingServer.with { server, path in
            let connection = try await VarlinkConnection.connect(path: path)
            let never = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await connection.call(VarlinkCall(method: "org.example.Hold", parameters: [:]))
            }
            _ = try await withTimeout(seconds: 10, "the cancelled call was sent and waited for") {
                await #expect(throws: CancellationError.self) { try await never.value }
            }
            let reply = try await withTimeout(seconds: 10, "no reply") {
                try await connection.call(VarlinkCall(method: "org.example.Echo", parameters: ["n": 2]))
            }
            #expect(reply.parameters["n"] == 2)
            // The first call the server saw is the echo: nothing else was sent.
            #expect(try await server.nextCall() == "org.example.Echo")
            await connection.close()
        }
    }
}

/// A Varlink server on a Unix socket that holds `Hold` calls unanswered
/// until the next `Echo`, then answers them in order (as Varlink must).
private final class HoldingServer: Sendable {
    private let calls = AsyncStream<String>.makeStream()

    static func with(_ body: (HoldingServer, String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vc-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s").path
        let server = HoldingServer()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(VarlinkFrameDecoder(maximumSize: 1 << 16)))
                    try channel.pipeline.syncOperations.addHandler(Handler(calls: server.calls.continuation))
                }
            }
            .bind(unixDomainSocketPath: path).get()
        do {
            try await body(server, path)
        } catch {
            try? await channel.close()
            throw error
        }
        try await channel.close()
    }

    /// The method of the next call the server read.
    func nextCall() async throws -> String? {
        try await withTimeout(seconds: 10, "the server read no call") { [calls] in
            var iterator = calls.stream.makeAsyncIterator()
            return await iterator.next()
        }
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let calls: AsyncStream<String>.Continuation
        var held = 0

        init(calls: AsyncStream<String>.Continuation) { self.calls = calls }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            guard case .success(let call) = frame.withUnsafeReadableBytes({ bytes in Result { try VarlinkCall.decode(bytes) } })
            else { return context.close(promise: nil) }
            calls.yield(call.method)
            if call.method == "org.example.Hold" {
                held += 1
                return
            }
            for _ in 0..<held { write(VarlinkReply(parameters: ["held": true]), context: context) }
            held = 0
            write(VarlinkReply(parameters: call.parameters), context: context)
            context.flush()
        }

        private func write(_ reply: VarlinkReply, context: ChannelHandlerContext) {
            context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: reply.encoded())), promise: nil)
        }
    }
}
