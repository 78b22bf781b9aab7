import Synchronization
import BackgroundThreads

/// Runs work off the event loops, sharing a few workers fairly among uids.
///
/// Calls whose answer takes more than a moment (a database commit, a large
/// table, a large message to decode) are answered here. Each uid has its
/// own lane and the workers take from the lanes in rotation, so a uid that
/// queues a thousand commits delays another uid's commit by at most one
/// job per worker, not by a thousand. A connection holds at most one job at
/// a time (its later calls wait behind it), so a uid's lane is at most as
/// long as its connections are many.
///
/// No uid runs on every worker at once: one is always left to the others
/// (``maximumRunningPerUID``), so another uid's job waits for at most the
/// end of one job, however many a uid queues, and however long each takes
/// within its bound.
final class FairWorkQueue: Sendable {
    typealias Job = @Sendable () async -> Void
    private typealias Assignment = (uid: UInt32, job: Job)

    private struct State {
        var lanes: [UInt32: [Job]] = [:]
        var rotation: [UInt32] = []
        var idle: [CheckedContinuation<Assignment?, Never>] = []
        var stopped = false
        var queued = 0
        var running = 0
        var runningPerUID: [UInt32: Int] = [:]
    }

    private let state = Mutex(State())
    /// The most jobs of one uid that run at once.
    let maximumRunningPerUID: Int

    /// A queue whose uids each run on at most `workers - 1` of its workers
    /// (on the only one, if there is one).
    init(workers: Int = 4) {
        maximumRunningPerUID = max(1, workers - 1)
    }

    /// Queues a job for `uid`.
    func submit(uid: UInt32, _ job: @escaping Job) {
        let waiter: CheckedContinuation<Assignment?, Never>? = state.withLock { state in
            // Straight to an idle worker, unless the uid has older jobs
            // waiting (they go first) or runs on its share of workers.
            if !state.idle.isEmpty, state.lanes[uid] == nil, state.runningPerUID[uid, default: 0] < maximumRunningPerUID {
                state.running += 1
                state.runningPerUID[uid, default: 0] += 1
                return state.idle.removeLast()
            }
            if state.lanes[uid] == nil {
                state.lanes[uid] = [job]
                state.rotation.append(uid)
            } else {
                state.lanes[uid]!.append(job)
            }
            state.queued += 1
            return nil
        }
        waiter?.resume(returning: (uid, job))
    }

    /// Jobs of `uid` running now.
    func running(uid: UInt32) -> Int { state.withLock { $0.runningPerUID[uid] ?? 0 } }

    /// Jobs waiting for a worker, or being worked on.
    var pending: Int { state.withLock { $0.queued + $0.running } }

    /// Runs `workers` workers until ``stop()``, on `threads` threads at a
    /// lower priority than the event loops (``BackgroundExecutor``); jobs
    /// queued before the call wait for it.
    func run(workers: Int, threads: Int) async {
        let executor = BackgroundExecutor(threads: threads)
        await withTaskExecutorPreference(executor) {
            await withDiscardingTaskGroup { group in
                for _ in 0..<workers {
                    group.addTask {
                        while let (uid, job) = await self.next() {
                            await job()
                            self.state.withLock { state in
                                state.running -= 1
                                state.runningPerUID[uid]! -= 1
                                if state.runningPerUID[uid] == 0 { state.runningPerUID[uid] = nil }
                            }
                        }
                    }
                }
            }
        }
        executor.shutdown()
    }

    /// Lets the workers finish the jobs queued, then end.
    func stop() {
        let idle = state.withLock { state in
            state.stopped = true
            defer { state.idle = [] }
            return state.idle
        }
        for waiter in idle { waiter.resume(returning: nil) }
    }

    /// The next job in rotation whose uid may run one more; a uid at its
    /// limit keeps its place in the rotation.
    private func next() async -> Assignment? {
        await withCheckedContinuation { continuation in
            let job: Assignment?? = state.withLock { state in
                while let position = state.rotation.firstIndex(where: {
                    state.runningPerUID[$0, default: 0] < maximumRunningPerUID
                }) {
                    let uid = state.rotation.remove(at: position)
                    guard var lane = state.lanes[uid], !lane.isEmpty else {
                        state.lanes[uid] = nil
                        continue
                    }
                    let job = lane.removeFirst()
                    state.queued -= 1
                    state.running += 1
                    state.runningPerUID[uid, default: 0] += 1
                    if lane.isEmpty {
                        state.lanes[uid] = nil
                    } else {
                        state.lanes[uid] = lane
                        state.rotation.append(uid)
                    }
                    return .some((uid, job))
                }
                if state.stopped { return .some(nil) }
                state.idle.append(continuation)
                return nil
            }
            if let job { continuation.resume(returning: job) }
        }
    }
}
