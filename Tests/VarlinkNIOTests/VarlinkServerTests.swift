import Foundation
import Logging
import LprojTestSupport
import NIOCore
import NIOPosix
import Synchronization
import Testing
import VarlinkProtocol
@testable import VarlinkNIO

/// A test interface with each kind of outcome.
final class TestInterface: VarlinkInterface {
    let name = "org.example.Test"
    let description = "interface org.example.Test\n"
    let streams = Mutex<[any VarlinkStream]>([])
    let ends = Mutex<[VarlinkStreamEnd]>([])
    let callers = Mutex<[VarlinkCaller]>([])

    func handle(_ method: Substring, call: VarlinkCall, caller: VarlinkCaller) -> VarlinkOutcome {
        callers.withLock { $0.append(caller) }
        switch method {
        case "Echo":
            return .reply(call.parameters)
        case "Slow":
            return .deferred {
                try? await Task.sleep(for: .milliseconds(100))
                return .reply(["slow": true])
            }
        case "Watch":
            return .stream { stream in
                stream.onTermination { end in self.ends.withLock { $0.append(end) } }
                self.streams.withLock { $0.append(stream) }
                stream.yield(["ready": true])
            }
        default:
            return .error(.methodNotFound(call.method))
        }
    }
}

@Suite(.serialized) struct VarlinkServerTests {
    static func withServer(
        configure: (inout VarlinkServerConfiguration) -> Void = { _ in },
        _ body: (String, TestInterface, VarlinkServer) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vl-\(UUID().uuidString.prefix(8))")
        let path = directory.appendingPathComponent("test.sock").path
        var configuration = VarlinkServerConfiguration()
        configuration.limitError = { limit in VarlinkError("org.example.Test.LimitExceeded", ["limit": .string("\(limit)")]) }
        configuration.shutdownReply = VarlinkReply(parameters: ["bye": true])
        configure(&configuration)
        let interface = TestInterface()
        let dispatcher = VarlinkDispatcher(info: .init(vendor: "t", product: "t", version: "1", url: "u"), interfaces: [interface])
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = VarlinkServer(
            listener: .path(path), dispatcher: dispatcher, configuration: configuration, group: group, logger: Logger(label: "test"))
        try await server.listen()
        let running = Task { try await server.run() }
        do {
            try await body(path, interface, server)
        } catch {
            running.cancel()
            _ = try? await running.value
            try? await group.shutdownGracefully()
            throw error
        }
        running.cancel()
        _ = try? await running.value
        try await group.shutdownGracefully()
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func pipelinedCallsAreAnsweredInOrder() async throws {
        try await Self.withServer { path, _, _ in
            let client = try RawClient(path: path)
            var batch: [UInt8] = []
            for index in 0..<50 {
                let method = index == 10 ? "Slow" : "Echo"
                batch += Array(#"{"method":"org.example.Test.\#(method)","parameters":{"n":\#(index)}}"#.utf8) + [0]
            }
            try client.sendBytes(batch)
            for index in 0..<50 {
                let reply = try #require(try await client.receiveJSON())
                let parameters = reply["parameters"] as? [String: Any]
                if index == 10 { #expect(parameters?["slow"] as? Bool == true) } else { #expect(parameters?["n"] as? Int == index) }
            }
        }
    }

    @Test func malformedMessagesGetAnErrorAndTheConnectionStays() async throws {
        try await Self.withServer { path, _, _ in
            let client = try RawClient(path: path)
            try client.send("{not json")
            #expect(try await client.receiveJSON()?["error"] as? String == "org.varlink.service.InvalidParameter")
            try client.send(#"{"method":"org.example.Test.Nope"}"#)
            let reply = try await client.receiveJSON()
            #expect(reply?["error"] as? String == "org.varlink.service.MethodNotFound")
            #expect((reply?["parameters"] as? [String: Any])?["method"] as? String == "org.example.Test.Nope")
            try client.send(#"{"method":"org.other.X"}"#)
            #expect(try await client.receiveJSON()?["error"] as? String == "org.varlink.service.InterfaceNotFound")
            try client.send(#"{"method":"org.example.Test.Echo","parameters":{"still":"here"}}"#)
            #expect((try await client.receiveJSON()?["parameters"] as? [String: Any])?["still"] as? String == "here")
        }
    }

    @Test func onewayCallsGetNoReply() async throws {
        try await Self.withServer { path, interface, _ in
            let client = try RawClient(path: path)
            try client.send(#"{"method":"org.example.Test.Echo","parameters":{"n":1},"oneway":true}"#)
            try client.send(#"{"method":"org.example.Test.Echo","parameters":{"n":2}}"#)
            #expect((try await client.receiveJSON()?["parameters"] as? [String: Any])?["n"] as? Int == 2)
            #expect(interface.callers.withLock { $0.count } == 2)
        }
    }

    @Test func oversizedMessagesCloseTheConnection() async throws {
        try await Self.withServer(configure: { $0.limits.maximumMessageSize = 1024 }) { path, _, _ in
            let client = try RawClient(path: path)
            try client.sendBytes(Array(repeating: UInt8(ascii: "x"), count: 4096))
            let reply = try await client.receiveJSON()
            #expect(reply?["error"] as? String == "org.example.Test.LimitExceeded")
            #expect(try await client.receive() == nil)
            // Other clients are unaffected.
            let other = try RawClient(path: path)
            try other.send(#"{"method":"org.example.Test.Echo"}"#)
            #expect(try await other.receiveJSON()?["parameters"] != nil)
        }
    }

    @Test func callersAreIdentifiedByTheirCredentials() async throws {
        try await Self.withServer { path, interface, _ in
            let client = try RawClient(path: path)
            try client.send(#"{"method":"org.example.Test.Echo"}"#)
            _ = try await client.receive()
            let caller = try #require(interface.callers.withLock { $0.first })
            #expect(caller.uid == getuid())
            #expect(caller.pid == getpid())
        }
    }

    @Test func connectionsPerUIDAreLimited() async throws {
        try await Self.withServer(configure: { $0.limits.maximumConnectionsPerUID = 2 }) { path, _, server in
            let first = try RawClient(path: path), second = try RawClient(path: path)
            try first.send(#"{"method":"org.example.Test.Echo"}"#)
            _ = try await first.receive()
            try second.send(#"{"method":"org.example.Test.Echo"}"#)
            _ = try await second.receive()
            let third = try RawClient(path: path)
            let refusal = try await third.receiveJSON()
            #expect(refusal?["error"] as? String == "org.example.Test.LimitExceeded")
            #expect(try await third.receive() == nil)
            #expect(server.connectionCount == 2)
            withExtendedLifetime((first, second)) {}
        }
    }

    /// New connections faster than a uid's rate are closed at accept,
    /// before anything is built for them, and without a word.
    @Test func aUidOpeningConnectionsTooFastHasThemClosed() async throws {
        try await Self.withServer(configure: {
            $0.limits.connectionBurstPerUID = 3
            $0.limits.connectionsPerSecondPerUID = 0.001
        }) { path, _, _ in
            var open: [RawClient] = []
            for _ in 0..<3 {
                let client = try RawClient(path: path)
                try client.send(#"{"method":"org.example.Test.Echo","parameters":{"ok":true}}"#)
                #expect((try await client.receiveJSON()?["parameters"] as? [String: Any])?["ok"] as? Bool == true)
                open.append(client)
            }
            let fourth = try RawClient(path: path)
            #expect(try await fourth.receive() == nil)
            withExtendedLifetime(open) {}
        }
    }

    @Test func streamsDeliverAndEnd() async throws {
        try await Self.withServer { path, interface, _ in
            let client = try RawClient(path: path)
            try client.send(#"{"method":"org.example.Test.Watch"}"#)
            #expect(try await client.receiveJSON()?["error"] as? String == "org.varlink.service.ExpectedMore")
            try client.send(#"{"method":"org.example.Test.Watch","more":true}"#)
            let ready = try #require(try await client.receiveJSON())
            #expect(ready["continues"] as? Bool == true)
            let stream = try #require(interface.streams.withLock { $0.first })
            #expect(stream.yield(["n": 1]))
            #expect((try await client.receiveJSON()?["parameters"] as? [String: Any])?["n"] as? Int == 1)
            // A call sent while the stream is open waits for it to end.
            try client.send(#"{"method":"org.example.Test.Echo","parameters":{"after":true}}"#)
            stream.finish(VarlinkReply(parameters: ["done": true]))
            let last = try #require(try await client.receiveJSON())
            #expect(last["continues"] == nil && (last["parameters"] as? [String: Any])?["done"] as? Bool == true)
            #expect((try await client.receiveJSON()?["parameters"] as? [String: Any])?["after"] as? Bool == true)
            #expect(!stream.yield(["n": 2]))
            #expect(interface.ends.withLock { $0 } == [.finished])
        }
    }

    @Test func aSubscriberThatStopsReadingIsDropped() async throws {
        try await Self.withServer(configure: { $0.limits.maximumStreamQueueBytes = 64 << 10 }) { path, interface, _ in
            let client = try RawClient(path: path, timeout: 2)
            try client.send(#"{"method":"org.example.Test.Watch","more":true}"#)
            _ = try await client.receive()
            let stream = try #require(interface.streams.withLock { $0.first })
            let payload = String(repeating: "x", count: 4096)
            var sent = 0
            // Never read: the kernel's buffer fills, then the queue, then the stream ends.
            while stream.yield(["payload": .string(payload)]) {
                sent += 1
                if sent % 64 == 0 { try await Task.sleep(for: .milliseconds(5)) }
                try #require(sent < 100_000, "the stream was never dropped")
            }
            try await Task.sleep(for: .milliseconds(50))
            #expect(interface.ends.withLock { $0 } == [.tooSlow])
        }
    }

    @Test func disconnectsEndStreams() async throws {
        try await Self.withServer { path, interface, _ in
            do {
                let client = try RawClient(path: path)
                try client.send(#"{"method":"org.example.Test.Watch","more":true}"#)
                _ = try await client.receive()
            }
            for _ in 0..<200 where interface.ends.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
            #expect(interface.ends.withLock { $0 } == [.disconnected])
        }
    }

    @Test func shutdownGivesStreamsTheirLastReplyAndFinishesCalls() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vl-\(UUID().uuidString.prefix(8))")
        let path = directory.appendingPathComponent("test.sock").path
        var configuration = VarlinkServerConfiguration()
        configuration.shutdownReply = VarlinkReply(parameters: ["bye": true])
        let interface = TestInterface()
        let dispatcher = VarlinkDispatcher(info: .init(vendor: "t", product: "t", version: "1", url: "u"), interfaces: [interface])
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = VarlinkServer(
            listener: .path(path), dispatcher: dispatcher, configuration: configuration, group: group, logger: Logger(label: "test"))
        try await server.listen()
        let running = Task { try await server.run() }
        let watcher = try RawClient(path: path)
        try watcher.send(#"{"method":"org.example.Test.Watch","more":true}"#)
        _ = try await watcher.receive()
        let caller = try RawClient(path: path)
        try caller.send(#"{"method":"org.example.Test.Slow"}"#)
        // The slow call under way (its connection accepted, on a loop of
        // its own, and its call begun), then a graceful shutdown, as on SIGTERM.
        for _ in 0..<2000 where interface.callers.withLock({ $0.count }) < 2 {
            try await Task.sleep(for: .milliseconds(5))  // polling the interface, with a deadline
        }
        #expect(interface.callers.withLock { $0.count } == 2)
        running.cancel()
        let last = try #require(try await watcher.receiveJSON())
        #expect((last["parameters"] as? [String: Any])?["bye"] as? Bool == true && last["continues"] == nil)
        #expect((try await caller.receiveJSON()?["parameters"] as? [String: Any])?["slow"] as? Bool == true)
        #expect(try await caller.receive() == nil)
        _ = try? await running.value
        #expect(!FileManager.default.fileExists(atPath: path))
        try await group.shutdownGracefully()
    }

    /// Connections made as the server stops, accepted on its accept loop
    /// but closed before they were ever active, do not hold its stop (it
    /// once waited for them forever).
    @Test func connectionsMadeAsTheServerStopsDoNotHoldItsStop() async throws {
        for _ in 0..<5 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vl-\(UUID().uuidString.prefix(8))")
            let path = directory.appendingPathComponent("test.sock").path
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let dispatcher = VarlinkDispatcher(
                info: .init(vendor: "t", product: "t", version: "1", url: "u"), interfaces: [TestInterface()])
            let server = VarlinkServer(
                listener: .path(path), dispatcher: dispatcher, configuration: VarlinkServerConfiguration(), group: group,
                logger: Logger(label: "test"))
            try await server.listen()
            let running = Task { try await server.run() }
            let clients = try (0..<8).map { _ in try RawClient(path: path) }
            for client in clients { try client.send(#"{"method":"org.example.Test.Slow"}"#) }
            running.cancel()
            try await withTimeout(seconds: 20, "the server's stop waited for a connection") { _ = try? await running.value }
            _ = clients
            try await group.shutdownGracefully()
        }
    }

    @Test func staleSocketsAreReplacedLiveOnesRefused() async throws {
        try await Self.withServer { path, _, _ in
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let second = VarlinkServer(
                listener: .path(path),
                dispatcher: VarlinkDispatcher(info: .init(vendor: "", product: "", version: "", url: ""), interfaces: []),
                configuration: VarlinkServerConfiguration(), group: group, logger: Logger(label: "test"))
            await #expect(throws: (any Error).self) { try await second.listen() }
            try await group.shutdownGracefully()
        }
        // A socket file nobody answers on (a crashed run) is replaced.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("stale.sock").path
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (index, byte) in path.utf8.enumerated() { raw[index] = byte } }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(descriptor)
        #expect(FileManager.default.fileExists(atPath: path))
        try SocketPath.prepare(path)
        #expect(!FileManager.default.fileExists(atPath: path))
        // A regular file is never removed.
        _ = FileManager.default.createFile(atPath: path, contents: Data("keep".utf8))
        #expect(throws: (any Error).self) { try SocketPath.prepare(path) }
        #expect(FileManager.default.contents(atPath: path) == Data("keep".utf8))
        try? FileManager.default.removeItem(at: directory)
    }
}
