import ClientBudget
import NIOCore
import Testing
import VarlinkProtocol
@testable import VarlinkNIO

/// A call as framed, to what the connection writes: no channel needed.
@Suite struct CallAnswererTests {
    let caller = VarlinkCaller(uid: 42, gid: 42, pid: 1, connectionID: 1)

    func answerer(_ configure: (inout VarlinkServerConfiguration) -> Void = { _ in }) -> CallAnswerer {
        var configuration = VarlinkServerConfiguration()
        configure(&configuration)
        let dispatcher = VarlinkDispatcher(info: .init(vendor: "t", product: "t", version: "1", url: "u"), interfaces: [TestInterface()])
        return CallAnswerer(dispatcher: dispatcher, configuration: configuration)
    }

    /// What the answerer says of a message, and the reply it wrote.
    func answer(_ answerer: CallAnswerer, _ message: String, book: BudgetBook) -> (outcome: CallAnswerer.Outcome, written: String) {
        var output = JSONWriter()
        let outcome = answerer.answer(ByteBuffer(string: message), caller: caller, book: book, writingTo: &output)
        return (outcome, String(decoding: output.bytes, as: UTF8.self))
    }

    @Test func aQuickCallIsAnsweredAtOnceAndAOnewayOneWithNothing() {
        let answerer = answerer()
        let book = BudgetBook(limits: BudgetLimits())
        let echo = answer(answerer, #"{"method":"org.example.Test.Echo","parameters":{"a":1}}"#, book: book)
        #expect(echo.written == "{\"parameters\":{\"a\":1}}\u{0}")
        let oneway = answer(answerer, #"{"method":"org.example.Test.Echo","oneway":true,"parameters":{}}"#, book: book)
        guard case .answered = oneway.outcome, oneway.written.isEmpty else {
            Issue.record("a oneway call is answered with nothing")
            return
        }
        #expect(answer(answerer, "{", book: book).written.contains("error"))
    }

    @Test func slowWorkAndStreamsAreHandedBack() async {
        let answerer = answerer()
        let book = BudgetBook(limits: BudgetLimits())
        guard
            case .later(let work, nil) = answer(answerer, #"{"method":"org.example.Test.Slow"}"#, book: book).outcome
        else {
            Issue.record("deferred work goes off the loop")
            return
        }
        guard case .reply(let bytes?) = await work() else {
            Issue.record("and comes back as a reply")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self).contains("slow"))
        guard
            case .stream = answer(answerer, #"{"method":"org.example.Test.Watch","more":true}"#, book: book).outcome
        else {
            Issue.record("a stream opens on the loop")
            return
        }
    }

    /// A message past `largeMessageSize` is not parsed on the loop: a copy,
    /// charged to the uid until the work is done, goes to the workers.
    @Test func aLargeMessageIsDecodedOffTheLoopFromACopyChargedToItsUser() async {
        let answerer = answerer { $0.limits.largeMessageSize = 64 }
        let book = BudgetBook(limits: BudgetLimits())
        let large = #"{"method":"org.example.Test.Echo","parameters":{"text":"\#(String(repeating: "x", count: 100))"}}"#
        guard case .later(let work, let message?) = answer(answerer, large, book: book).outcome else {
            Issue.record("a large message goes off the loop")
            return
        }
        #expect(book.usage(of: 42)[.input] == large.utf8.count)
        guard case .reply(let bytes?) = await work() else {
            Issue.record("answered by the workers")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self).contains(String(repeating: "x", count: 100)))
        #expect(book.usage(of: 42)[.input] == 0)
        message.release()  // once only: the job let it go already
        #expect(book.usage(of: 42)[.input] == 0)
    }

    @Test func aReplyPastTheLimitIsTheLimitsError() {
        let answerer = answerer { $0.limits.maximumReplySize = 40 }
        let book = BudgetBook(limits: BudgetLimits())
        let call = #"{"method":"org.example.Test.Echo","parameters":{"text":"\#(String(repeating: "y", count: 100))"}}"#
        #expect(answer(answerer, call, book: book).written.contains("replySize(40)"))
    }
}
