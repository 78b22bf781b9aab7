import ClientBudget
import Logging
import NIOCore
import NIOEmbedded
import NIOTestUtils
import Synchronization
import Testing
import VarlinkProtocol
@testable import VarlinkNIO

/// The frame buffer and the connection handler on `EmbeddedChannel`, with
/// an event loop whose time the test moves.
@Suite struct EmbeddedConnectionTests {
    @Test func theFrameBufferCutsMessagesOnlyWhenTheyAreTaken() throws {
        var frames = FrameBuffer(maximumMessageSize: 16)
        var read = ByteBuffer(string: "{\"a\":1}\u{0}{}\u{0}{\"b\"")
        let completed = try frames.append(&read)
        #expect(completed.messages == 2 && completed.bytes == 11)
        #expect(frames.partialBytes == 4 && frames.bytes == 15)
        #expect(frames.next() == ByteBuffer(string: "{\"a\":1}"))
        var rest = ByteBuffer(string: ":2}\u{0}")
        #expect(try frames.append(&rest).messages == 1)
        #expect(frames.next() == ByteBuffer(string: "{}"))
        #expect(frames.next() == ByteBuffer(string: "{\"b\":2}"))
        #expect(frames.next() == nil && frames.bytes == 0)
        // A message longer than the limit, finished or not, is refused.
        var long = ByteBuffer(string: String(repeating: "x", count: 17))
        #expect(throws: MessageSizeError(maximumSize: 16)) { try frames.append(&long) }
        var frames2 = FrameBuffer(maximumMessageSize: 16)
        var longComplete = ByteBuffer(string: String(repeating: "x", count: 17) + "\u{0}")
        #expect(throws: MessageSizeError(maximumSize: 16)) { try frames2.append(&longComplete) }
    }

    @Test func theFrameBufferGivesBackTheSpaceOfAnsweredMessages() throws {
        var frames = FrameBuffer(maximumMessageSize: 1 << 20)
        let message = String(repeating: "m", count: 1000) + "\u{0}"
        for _ in 0..<1000 {
            var read = ByteBuffer(string: message)
            _ = try frames.append(&read)
            #expect(frames.next()?.readableBytes == 1000)
        }
        #expect(frames.bytes == 0)
    }

    /// A connection with a handler on the shared loop, and what it writes.
    final class Connection {
        let channel: EmbeddedChannel
        init(uid: UInt32, loop: EmbeddedEventLoop, scheduler: LoopScheduler, shared: VarlinkConnectionHandler.Shared, book: BudgetBook)
            throws
        {
            channel = EmbeddedChannel(loop: loop)
            let caller = VarlinkCaller(uid: uid, gid: uid, pid: 1, connectionID: UInt64(uid))
            let handler = VarlinkConnectionHandler(
                shared: shared, caller: caller, account: ConnectionAccount(uid: uid, book: book), scheduler: scheduler)
            try channel.pipeline.syncOperations.addHandler(handler)
        }

        func send(_ count: Int, tag: String) throws {
            var batch = ""
            for index in 0..<count {
                batch += #"{"method":"org.example.Test.Echo","parameters":{"tag":"\#(tag)\#(index)"}}"# + "\u{0}"
            }
            try channel.writeInbound(ByteBuffer(string: batch))
        }

        /// Replies written so far, each as its `tag`.
        func replies() throws -> [String] {
            var tags: [String] = []
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
                guard buffer.readableBytes > 0 else { continue }
                let reply = try buffer.withUnsafeReadableBytes { try VarlinkReply.decode(UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
                if case .string(let tag)? = reply.parameters["tag"] { tags.append(tag) }
            }
            return tags
        }
    }

    static func shared(turns: TurnBudgets) -> (VarlinkConnectionHandler.Shared, BudgetBook) {
        var configuration = VarlinkServerConfiguration()
        configuration.turns = turns
        let shared = VarlinkConnectionHandler.Shared(
            answerer: CallAnswerer(
                dispatcher: VarlinkDispatcher(
                    info: .init(vendor: "t", product: "t", version: "1", url: "u"), interfaces: [TestInterface()]),
                configuration: configuration), connections: ConnectionRegistry(), work: FairWorkQueue(), streams: StreamCounter(),
            logLimit: PerUIDRateLimit(burst: 1, perSecond: 1), logger: Logger(label: "test"))
        return (shared, BudgetBook(limits: BudgetLimits()))
    }

    /// Turns of no time: each answers one call; a run of no time gives one
    /// turn, then steps aside until the loop's time moves.
    static let tinyTurns: TurnBudgets = {
        var turns = TurnBudgets()
        turns.turn = .zero
        turns.run = .zero
        turns.pause = .milliseconds(1)
        return turns
    }()

    @Test func aBatchIsAnsweredOneTurnAtATimeNotAllAtOnce() throws {
        let loop = EmbeddedEventLoop()
        let (shared, book) = Self.shared(turns: Self.tinyTurns)
        let scheduler = LoopScheduler(eventLoop: loop, budgets: Self.tinyTurns)
        let connection = try Connection(uid: 1, loop: loop, scheduler: scheduler, shared: shared, book: book)
        try connection.send(5, tag: "a")
        loop.run()
        #expect(try connection.replies() == ["a0"])
        loop.advanceTime(by: .milliseconds(1))
        #expect(try connection.replies() == ["a1"])
        loop.advanceTime(by: .milliseconds(3))
        #expect(try connection.replies() == ["a2", "a3", "a4"])
    }

    @Test func usersTakeTurnsWhateverOneOfThemQueued() throws {
        let loop = EmbeddedEventLoop()
        let (shared, book) = Self.shared(turns: Self.tinyTurns)
        let scheduler = LoopScheduler(eventLoop: loop, budgets: Self.tinyTurns)
        let flood = try Connection(uid: 1, loop: loop, scheduler: scheduler, shared: shared, book: book)
        let floodToo = try Connection(uid: 1, loop: loop, scheduler: scheduler, shared: shared, book: book)
        let polite = try Connection(uid: 2, loop: loop, scheduler: scheduler, shared: shared, book: book)
        try flood.send(100, tag: "f")
        try floodToo.send(100, tag: "g")
        try polite.send(1, tag: "p")
        // uid 1's turn, then uid 2's: the polite call waits one turn, not 200.
        loop.run()
        loop.advanceTime(by: .milliseconds(1))
        #expect(try polite.replies() == ["p0"])
        #expect(try flood.replies().count + floodToo.replies().count <= 2)
    }

    /// A large message goes to the workers as a copy charged to its uid
    /// until it is answered; when its connection closes first, the copy
    /// and its charge go at once, though no worker has come to it (the
    /// queue here has none). It once stayed, uncharged, inside the job:
    /// 3 GiB held by a uid the ledger said held under 1 MiB.
    @Test func aLargeMessageIsChargedUntilAnsweredAndDroppedWithItsConnection() throws {
        let loop = EmbeddedEventLoop()
        let (shared, book) = Self.shared(turns: TurnBudgets())
        let scheduler = LoopScheduler(eventLoop: loop, budgets: TurnBudgets())
        let connection = try Connection(uid: 7, loop: loop, scheduler: scheduler, shared: shared, book: book)
        let padding = String(repeating: "x", count: 200_000)
        try connection.channel.writeInbound(
            ByteBuffer(string: #"{"method":"org.example.Test.Echo","parameters":{"tag":"\#(padding)"}}"# + "\u{0}"))
        loop.run()
        #expect(shared.work.pending == 1)
        // The message is held by the job, charged: at least its own size.
        #expect(book.usage(of: 7)[.input] >= 200_000)
        _ = try connection.channel.finish(acceptAlreadyClosed: true)
        #expect(book.usage(of: 7)[.input] == 0)
    }

    /// An unfinished message that gets no byte for the timeout closes its
    /// connection with the limit's error, on the loop's own time (moved by
    /// hand here): not a moment before.
    @Test func anUnfinishedMessageTimesOutOnTheLoopsClock() throws {
        let loop = EmbeddedEventLoop()
        var configuration = VarlinkServerConfiguration()
        configuration.limits.incompleteMessageTimeout = .seconds(30)
        let (base, book) = Self.shared(turns: TurnBudgets())
        let shared = VarlinkConnectionHandler.Shared(
            answerer: CallAnswerer(dispatcher: base.answerer.dispatcher, configuration: configuration), connections: base.connections,
            work: base.work, streams: base.streams, logLimit: base.logLimit, logger: base.logger)
        let connection = try Connection(
            uid: 1000, loop: loop, scheduler: LoopScheduler(eventLoop: loop, budgets: TurnBudgets()), shared: shared, book: book)
        let closed = Mutex(false)
        connection.channel.closeFuture.whenComplete { _ in closed.withLock { $0 = true } }
        try connection.channel.writeInbound(ByteBuffer(string: #"{"method":"org.example"#))
        loop.advanceTime(by: .seconds(20))
        try connection.channel.writeInbound(ByteBuffer(string: #".Test.Echo""#))  // a byte: the wait starts again
        loop.advanceTime(by: .seconds(29))
        #expect(!closed.withLock { $0 })
        #expect(try connection.channel.readOutbound(as: ByteBuffer.self) == nil)
        loop.advanceTime(by: .seconds(1))
        let error = try #require(try connection.channel.readOutbound(as: ByteBuffer.self))
        #expect(String(buffer: error).contains("incompleteMessageTimeout(30)"))
        loop.advanceTime(by: .seconds(1))
        #expect(closed.withLock { $0 })
    }
}
