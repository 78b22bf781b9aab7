internal import Synchronization

/// A clock whose time moves only when a test moves it: whatever sleeps on
/// it wakes when ``advance(by:)`` passes its deadline, and not before. It
/// says when someone starts sleeping on it (``sleeps``), so that a test
/// waits for that instead of for time.
package final class ManualClock: Clock {
    package struct Instant: InstantProtocol {
        package let offset: Duration

        package init(offset: Duration) { self.offset = offset }

        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    /// Each sleep, as it starts, with its deadline.
    package let sleeps: AsyncStream<Instant>
    private let sleepStarted: AsyncStream<Instant>.Continuation

    package init() {
        (sleeps, sleepStarted) = AsyncStream.makeStream()
    }

    package var now: Instant { state.withLock { $0.now } }
    package var minimumResolution: Duration { .zero }

    /// The deadlines of those sleeping, earliest first.
    package var sleepingUntil: [Instant] { state.withLock { $0.sleepers.values.map(\.deadline).sorted() } }

    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = state.withLock { state in
                    guard !Task.isCancelled, deadline > state.now else { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                sleepStarted.yield(deadline)
                if resumeNow { continuation.resume() }
                wakeWaiters()
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Returns once at least `count` are sleeping (a timer is set).
    package func sleepers(atLeast count: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                guard state.sleepers.count < count else { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func wakeWaiters() {
        let woken = state.withLock { state in
            let count = state.sleepers.count
            defer { state.waiters.removeAll { $0.count <= count } }
            return state.waiters.filter { $0.count <= count }.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Moves time on, and wakes whatever sleeps until then.
    package func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
