internal import Synchronization

/// Wakes one waiting task when poked, or at a time of a clock: what a
/// bundle's reloads wait on between changes. A poke while no one waits is
/// kept for the next wait, so none is lost.
final class Alarm<C: Clock>: Sendable where C.Duration == Duration {
    private struct State {
        var poked = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let clock: C
    private let state = Mutex(State())

    init(clock: C) {
        self.clock = clock
    }

    /// Wakes the waiter, or the next one.
    func poke() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard let waiter = state.waiter else {
                state.poked = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when poked, at `deadline` if there is one, or when the task
    /// is cancelled.
    func wait(until deadline: C.Instant?) async {
        await withDiscardingTaskGroup { group in
            if let deadline {
                group.addTask { [clock] in
                    guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return }
                    self.poke()
                }
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = state.withLock { state in
                        if state.poked {
                            state.poked = false
                            return true
                        }
                        state.waiter = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                poke()
            }
            group.cancelAll()
        }
    }
}
