import Synchronization
import Testing
@testable import LprojLocalizer

/// The mirror's plain values: every key finds its own value, whatever its
/// length or script, a key it lacks finds nothing, and values made on one
/// thread are shared with every other.
@Suite struct MirroredStringsTests {
    @Test func everyKeyFindsItsOwnValue() {
        var entries: [String: String] = ["": "the empty key", "empty value": "", "é": "composed"]
        for index in 0..<5000 {
            // Short and long keys and values: entries of every padding, and
            // values Swift keeps inside the String as well as on the heap.
            let key = "key.\(index)" + String(repeating: "k", count: index % 23)
            entries[key] = "Wert \(index) " + String(repeating: "ü", count: index % 17)
        }
        let strings = MirroredStrings(entries)
        #expect(strings.count == entries.count)
        for (key, value) in entries {
            #expect(strings.value(forKey: key) == value, "\(key)")
            // Twice: the second answer comes from the value made by the first.
            #expect(strings.value(forKey: key) == value, "\(key)")
            #expect(strings.contains(key))
        }
    }

    @Test func keysItLacksFindNothing() {
        let strings = MirroredStrings(["greeting": "Hallo", "é": "composed"])
        // Keys compare by their bytes, as lprojd's tables compare them: the
        // decomposed "é" is another key.
        for missing in ["greetin", "greeting ", "Greeting", "e\u{301}", "", String(repeating: "x", count: 4096)] {
            #expect(strings.value(forKey: missing) == nil, "\(missing)")
            #expect(!strings.contains(missing))
        }
        let empty = MirroredStrings([:])
        #expect(empty.value(forKey: "greeting") == nil)
        #expect(empty.count == 0)
    }

    @Test func aFullIndexStillFindsEveryKeyAndEndsEveryMiss() {
        // 7 keys fill 8 slots to the limit: every probe must still end.
        let entries = Dictionary(uniqueKeysWithValues: (0..<7).map { ("k\($0)", "v\($0)") })
        let strings = MirroredStrings(entries)
        for (key, value) in entries { #expect(strings.value(forKey: key) == value) }
        for index in 7..<200 { #expect(strings.value(forKey: "k\(index)") == nil) }
    }

    @Test func everyThreadGetsEachKeysValueWhoeverMadeItFirst() async {
        let count = 1000
        let entries = Dictionary(
            uniqueKeysWithValues: (0..<count).map { ("key \($0)", "value number \($0), long enough to live on the heap") })
        let strings = MirroredStrings(entries)
        await withTaskGroup(of: Bool.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var correct = true
                    for round in 0..<20_000 {
                        let index = (round &* 7919 &+ worker &* 104_729) % count
                        correct =
                            correct && strings.value(forKey: "key \(index)") == "value number \(index), long enough to live on the heap"
                    }
                    return correct
                }
            }
            for await correct in group { #expect(correct) }
        }
    }
}
