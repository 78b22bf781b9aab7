internal import Synchronization

/// Answers ICU gave once, kept for the process: its data does not change
/// while it runs, and asking again costs resource-bundle opens (a
/// locale's fallback chain took about half a millisecond, paid again by
/// every bundle reloaded, before its first lookup).
///
/// Bounded: the keys come from clients' locale texts, so when `capacity`
/// answers are kept the memo starts afresh (a client sending ever new tags
/// costs itself ICU calls, never memory; the common locales come back at
/// their next use).
final class ICUAnswers<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let answers = Mutex<[Key: Value]>([:])
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    func value(for key: Key, compute: (Key) -> Value) -> Value {
        if let known = answers.withLock({ $0[key] }) { return known }
        let value = compute(key)
        answers.withLock { answers in
            if answers.count >= capacity { answers.removeAll(keepingCapacity: true) }
            answers[key] = value
        }
        return value
    }
}
