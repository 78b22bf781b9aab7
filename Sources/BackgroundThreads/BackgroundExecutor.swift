#if canImport(Glibc)
    import Glibc
#endif
import Dispatch
import Synchronization

/// Threads that run work off the event loops at a lower CPU priority.
///
/// Work off the loops (a large table, a large message, a commit) must not
/// take the CPU the loops need to answer lookups: on a busy machine the
/// kernel shares a core between runnable threads in time slices of some
/// milliseconds, and a loop waiting behind two slices of a large reply is a
/// stall a client sees. These threads run at `nice` 10, so the scheduler
/// gives a loop thread about nine times their share whenever both want the
/// CPU. Raising one's own niceness needs no privilege; it is the call
/// libdispatch makes for its background threads (and the one the systemd
/// unit's system-call filter allows back).
package final class BackgroundExecutor: TaskExecutor, Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var stopped = false
    }

    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let threads: Int

    /// Starts `threads` threads at `niceness`.
    package init(threads: Int, niceness: Int32 = 10) {
        self.threads = threads
        for _ in 0..<threads {
            Self.spawn { [self] in
                // On Linux this sets the calling thread's niceness only.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
                work()
            }
        }
    }

    /// Starts a detached thread running `body`.
    private static func spawn(_ body: @escaping @Sendable () -> Void) {
        final class Body {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        let argument = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { argument in
                Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
                return nil
            }, argument)
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(thread)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        state.withLock { $0.jobs.append(unowned) }
        ready.signal()
    }

    /// Lets the threads finish the jobs queued, then end; returns once they have.
    package func shutdown() {
        state.withLock { $0.stopped = true }
        for _ in 0..<threads { ready.signal() }
        for _ in 0..<threads { finished.wait() }
    }

    /// Runs `body` on one of the threads, and returns what it returns: for
    /// synchronous work (reading and parsing files) that must leave the
    /// shared pool of Swift's tasks to the tasks that only wait.
    package func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withTaskExecutorPreference(self) {
            body()
        }
    }

    private func work() {
        defer { finished.signal() }
        while true {
            ready.wait()
            let job: UnownedJob?? = state.withLock { state in
                if !state.jobs.isEmpty { return .some(state.jobs.removeFirst()) }
                return state.stopped ? .some(nil) : nil
            }
            guard let job else { continue }
            guard let job else { return }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
