import Testing

@testable import LprojVarlink

/// The delivery's inbox: a uid's backlog delays another uid's messages by
/// one message at most, and what everyone sees keeps its place among all.
@Suite struct FairInboxTests {
    func drain(_ inbox: FairInbox<String>, _ count: Int) async -> [String] {
        var taken: [String] = []
        for _ in 0..<count {
            guard let message = await inbox.next() else { break }
            taken.append(message)
        }
        return taken
    }

    @Test func aBacklogOfOneUIDDelaysAnotherByOneMessage() async {
        let inbox = FairInbox<String>()
        for index in 0..<10_000 { inbox.post("attacker \(index)", lane: .uid(4242)) }
        inbox.post("probe", lane: .uid(4243))
        let taken = await drain(inbox, 3)
        #expect(taken == ["attacker 0", "probe", "attacker 1"])
        #expect(inbox.count == 9_998)
    }

    @Test func eachUIDsMessagesKeepTheirOrder() async {
        let inbox = FairInbox<String>()
        for index in 0..<3 {
            inbox.post("a\(index)", lane: .uid(1))
            inbox.post("b\(index)", lane: .uid(2))
        }
        let taken = await drain(inbox, 6)
        #expect(taken.filter { $0.hasPrefix("a") } == ["a0", "a1", "a2"])
        #expect(taken.filter { $0.hasPrefix("b") } == ["b0", "b1", "b2"])
    }

    /// What everyone sees waits behind no uid's backlog either.
    @Test func whatEveryoneSeesHasALaneOfItsOwn() async {
        let inbox = FairInbox<String>()
        for index in 0..<10_000 { inbox.post("attacker \(index)", lane: .uid(4242)) }
        inbox.post("reload", lane: .everyone)
        #expect(await drain(inbox, 2) == ["attacker 0", "reload"])
    }

    /// An ordered message (a barrier) goes after every message posted
    /// before it and before any posted after.
    @Test func anOrderedMessageKeepsItsPlaceAmongAll() async {
        let inbox = FairInbox<String>()
        for index in 0..<5 { inbox.post("a\(index)", lane: .uid(1)) }
        inbox.post("add b", lane: .uid(2))
        inbox.post("reload", lane: .ordered)
        inbox.post("b after", lane: .uid(2))
        inbox.post("a after", lane: .uid(1))
        let taken = await drain(inbox, 9)
        let reload = taken.firstIndex(of: "reload")!
        #expect(Set(taken[..<reload]) == ["a0", "a1", "a2", "a3", "a4", "add b"])
        #expect(Set(taken[(reload + 1)...]) == ["b after", "a after"])
    }

    /// A timer's wake-up waits behind no one's backlog, and is seen once
    /// the taker has nothing else.
    @Test func aWakeUpNeverQueuesBehindABacklog() async {
        let inbox = FairInbox<String>()
        inbox.post("a0", lane: .uid(1))
        inbox.wake(with: "timer")
        inbox.post("a1", lane: .uid(1))
        #expect(await drain(inbox, 3) == ["a0", "a1", "timer"])
        // A taker that waits is woken at once.
        async let woken = inbox.next()
        inbox.wake(with: "timer")
        #expect(await woken == "timer")
        inbox.finish()
        #expect(await inbox.next() == nil)
    }
}
