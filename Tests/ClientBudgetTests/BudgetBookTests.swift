import ClientBudget
import Testing

@Suite struct BudgetBookTests {
    static let limits = BudgetLimits(perUID: [.input: 100, .output: 100], total: [.input: 150], memoryPerUID: 160, memory: 1_000)

    @Test func aChargeFitsEveryLimitOrChangesNothing() {
        let book = BudgetBook(limits: Self.limits)
        #expect(book.charge(80, of: .input, to: 1) == nil)
        // Past the uid's limit for the resource: refused, named, nothing charged.
        #expect(book.charge(30, of: .input, to: 1) == BudgetError(.perUID(.input), maximum: 100))
        #expect(book.usage(of: 1)[.input] == 80)
        // Past the uid's memory, though within each resource's limit.
        #expect(book.charge(90, of: .output, to: 1) == BudgetError(.memoryPerUID, maximum: 160))
        // Another uid has its own budget, but all uids share the total.
        #expect(book.charge(80, of: .input, to: 2) == BudgetError(.total(.input), maximum: 150))
        #expect(book.charge(70, of: .input, to: 2) == nil)
        #expect(book.totals[.input] == 150)
    }

    @Test func releasesReturnTheBookToEmpty() {
        let book = BudgetBook(limits: Self.limits)
        book.charge(50, of: .input, to: 7)
        book.forceCharge(500, of: .output, to: 7)  // already held: over budget until released
        #expect(book.charge(1, of: .input, to: 7) != nil)
        book.release(500, of: .output, from: 7)
        book.release(50, of: .input, from: 7)
        #expect(book.usage(of: 7).isEmpty)
        #expect(book.usageByUID.isEmpty)
        #expect(book.totals.isEmpty)
    }

    @Test func holdingsAreReleasedWhenTheirTokenGoes() throws {
        let book = BudgetBook(limits: Self.limits)
        do {
            let charge = try book.hold(60, of: .input, for: 3)
            #expect(book.usage(of: 3)[.input] == 60)
            #expect(throws: BudgetError.self) { try book.hold(60, of: .input, for: 3) }
            withExtendedLifetime(charge) {}
        }
        #expect(book.usage(of: 3).isEmpty)
    }

    @Test func waitersWakeWhenUseFallsBelowTheirThreshold() {
        let book = BudgetBook(limits: Self.limits)
        book.charge(90, of: .output, to: 4)
        final class Flag: @unchecked Sendable { var woken = 0 }
        let flag = Flag()
        book.whenBelow(50, of: .output, for: 4) { flag.woken += 1 }
        book.release(30, of: .output, from: 4)  // 60: still above
        #expect(flag.woken == 0)
        book.release(20, of: .output, from: 4)  // 40: below
        #expect(flag.woken == 1)
        book.release(40, of: .output, from: 4)
        #expect(flag.woken == 1)  // once
        // Already below: at once.
        book.whenBelow(50, of: .output, for: 4) { flag.woken += 1 }
        #expect(flag.woken == 2)
    }
}

@Suite struct PerUIDRateLimitTests {
    @Test func aBurstThenTheRate() {
        let limit = PerUIDRateLimit(burst: 3, perSecond: 1)
        let start = ContinuousClock.now
        #expect((0..<3).allSatisfy { _ in limit.allow(1, now: start).allowed })
        #expect(!limit.allow(1, now: start).allowed)
        #expect(!limit.allow(1, now: start + .milliseconds(500)).allowed)
        // Another uid is not affected.
        #expect(limit.allow(2, now: start).allowed)
        // A second later one more is allowed, with the count of those refused.
        let later = limit.allow(1, now: start + .milliseconds(1100))
        #expect(later.allowed && later.suppressed == 2)
    }
}
