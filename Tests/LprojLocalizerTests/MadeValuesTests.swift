import Synchronization
import Testing
@testable import LprojLocalizer

/// Values made once and shared: every thread gets the value of its slot,
/// whichever thread made it first.
@Suite struct MadeValuesTests {
    @Test func everyLookupGetsItsSlotsValueWhateverTheThreadsRace() async {
        let count = 1000
        let values = MadeValues(count: count)
        let made = MakeCount()
        await withTaskGroup(of: Bool.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var correct = true
                    for round in 0..<20_000 {
                        let index = (round &* 7919 &+ worker &* 104_729) % count
                        let value = values.value(at: index) { index in
                            made.count.add(1, ordering: .relaxed)
                            return "value number \(index), long enough to live on the heap"
                        }
                        correct = correct && value == "value number \(index), long enough to live on the heap"
                    }
                    return correct
                }
            }
            for await correct in group { #expect(correct) }
        }
        // Each slot was made at least once, and a lost race makes one more at most per other thread.
        let makes = made.count.load(ordering: .relaxed)
        #expect(makes >= count && makes <= count * 8)
    }
}

/// How many values were made, counted from every thread.
private final class MakeCount: Sendable {
    let count = Atomic(0)
}
