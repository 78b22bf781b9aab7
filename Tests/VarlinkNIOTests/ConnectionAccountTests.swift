import ClientBudget
import NIOCore
import Testing
@testable import VarlinkNIO

/// What a connection holds, in step with its uid's ledger.
@Suite struct ConnectionAccountTests {
    @Test func outputIsChargedAsTheBuffersThatHoldItAndReleasedAsItIsSent() {
        let book = BudgetBook(limits: BudgetLimits(perUID: [.output: 10_000]))
        let account = ConnectionAccount(uid: 5, book: book)
        // 100 bytes sit in a 128-byte buffer, plus NIO's bookkeeping.
        #expect(ConnectionAccount.cost(ofWrite: 100) == 128 + ConnectionAccount.perWriteOverhead)
        #expect(ConnectionAccount.cost(ofWrite: 128) == 128 + ConnectionAccount.perWriteOverhead)
        #expect(account.chargeWrite(payload: 100) == nil)
        #expect(account.chargeWrite(payload: 1000) == nil)
        #expect(book.usage(of: 5)[.output] == 128 + 1024 + 2 * ConnectionAccount.perWriteOverhead)
        // The kernel took the first reply and part of the second.
        account.settle(unsent: 600)
        #expect(book.usage(of: 5)[.output] == 1024 + ConnectionAccount.perWriteOverhead)
        account.settle(unsent: 0)
        #expect(book.usage(of: 5).isEmpty && !account.hasPendingOutput)
        // Past the budget: refused, and nothing charged.
        #expect(account.chargeWrite(payload: 20_000) == BudgetRefusal(limit: "outputPerUID", maximum: 10_000))
        #expect(book.usage(of: 5).isEmpty)
    }

    @Test func inputIsChargedWithinTheUsersBudgetAcrossItsConnections() {
        let book = BudgetBook(limits: BudgetLimits(perUID: [.input: 1000]))
        let first = ConnectionAccount(uid: 9, book: book), second = ConnectionAccount(uid: 9, book: book)
        #expect(first.holdInput(700) == nil)
        // The same uid's other connection shares the budget.
        #expect(second.holdInput(400) == BudgetRefusal(limit: "inputPerUID", maximum: 1000))
        #expect(second.holdInput(300) == nil)
        // What is held already is charged anyway; the uid is then over.
        second.forceHoldInput(350)
        #expect(book.usage(of: 9)[.input] == 1050)
        #expect(first.holdInput(200) == nil)  // shrinking releases
        #expect(book.usage(of: 9)[.input] == 550)
        first.closeAll()
        second.closeAll()
        #expect(book.usage(of: 9).isEmpty)
    }
}

/// The copy of a large message the workers are handed.
@Suite struct OffloadedMessageTests {
    @Test func itIsChargedUntilReleasedAndGoneOnceItsConnectionLetsItGo() {
        let book = BudgetBook(limits: BudgetLimits())
        let message = OffloadedMessage(ByteBuffer(string: String(repeating: "m", count: 1000)), uid: 3, book: book)
        #expect(book.usage(of: 3)[.input] == 1000)
        // The connection closed before a worker came: the job finds nothing.
        message.release()
        #expect(book.usage(of: 3)[.input] == 0)
        #expect(message.take() == nil)
        message.release()
        #expect(book.usage(of: 3)[.input] == 0)
    }

    @Test func aJobTakesItOnceAndItsChargeStaysUntilTheJobIsDone() {
        let book = BudgetBook(limits: BudgetLimits())
        let message = OffloadedMessage(ByteBuffer(string: "{}"), uid: 3, book: book)
        #expect(message.take() == Array("{}".utf8))
        #expect(message.take() == nil)
        #expect(book.usage(of: 3)[.input] == 2)
        message.release()
        #expect(book.usage(of: 3)[.input] == 0)
    }
}
