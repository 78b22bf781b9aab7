import LprojTestSupport
import Synchronization
import Testing
@testable import VarlinkNIO

/// The workers that answer slow calls, shared among uids.
@Suite struct FairWorkQueueTests {
    /// Jobs that wait until it opens.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.open { return true }
                    state.waiting.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }

        func open() {
            let waiting = state.withLock { state in
                state.open = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    /// Eight long jobs of one uid once took all four workers, and another
    /// uid's call waited for them all (35 s for a `SelectLocale`). One
    /// worker is always left to the others.
    @Test func aUIDThatQueuesLongJobsLeavesAWorkerToTheOthers() async throws {
        let queue = FairWorkQueue(workers: 4)
        let gate = Gate()
        let workers = Task { await queue.run(workers: 4, threads: 2) }
        let started = AsyncStream.makeStream(of: Void.self)
        for _ in 0..<8 {
            queue.submit(uid: 1) {
                started.continuation.yield()
                await gate.wait()
            }
        }
        let done = AsyncStream.makeStream(of: Void.self)
        queue.submit(uid: 2) { done.continuation.yield() }
        try await withTimeout(seconds: 20, "another uid's job waited for the first uid's") {
            for await _ in done.stream { return }
        }
        // The first uid's jobs take three workers, whichever order the
        // workers took the jobs in (the other uid's may have run first).
        try await withTimeout(seconds: 20, "the first uid's jobs did not take three workers") {
            var count = 0
            for await _ in started.stream {
                count += 1
                if count == 3 { return }
            }
        }
        #expect(queue.running(uid: 1) == 3)
        #expect(queue.pending == 8)
        gate.open()
        queue.stop()
        await workers.value
        #expect(queue.pending == 0)
    }

    @Test func aLoneWorkerServesEveryone() async throws {
        let queue = FairWorkQueue(workers: 1)
        #expect(queue.maximumRunningPerUID == 1)
        let workers = Task { await queue.run(workers: 1, threads: 1) }
        let done = AsyncStream.makeStream(of: UInt32.self)
        for uid: UInt32 in [1, 1, 2] { queue.submit(uid: uid) { done.continuation.yield(uid) } }
        let seen = try await withTimeout(seconds: 20, "the jobs did not all run") {
            var seen: [UInt32] = []
            for await uid in done.stream {
                seen.append(uid)
                if seen.count == 3 { break }
            }
            return seen
        }
        #expect(seen.sorted() == [1, 1, 2])
        queue.stop()
        await workers.value
    }
}
