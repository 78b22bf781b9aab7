import Synchronization

/// Why ``withTimeout(seconds:_:_:)`` gave up.
package struct TimedOut: Error, CustomStringConvertible {
    package let description: String
}

/// Runs `body` and returns what it returns, or throws ``TimedOut`` once
/// `seconds` have passed.
///
/// On time-out the body is cancelled but not waited for: a body stuck in
/// something that ignores cancellation (a blocking read, a continuation
/// nobody resumes) fails its test instead of hanging the whole run.
package func withTimeout<T: Sendable>(
    seconds: Double, _ message: @autoclosure @escaping @Sendable () -> String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = FirstOutcome<T>()
    let work = Task {
        do { outcome.settle(with: .success(try await body())) } catch { outcome.settle(with: .failure(error)) }
    }
    let timer = Task {
        try await Task.sleep(for: .seconds(seconds))
        outcome.settle(with: .failure(TimedOut(description: "timed out after \(seconds) s: \(message())")))
        work.cancel()
    }
    return try await withTaskCancellationHandler {
        defer { timer.cancel() }
        return try await outcome.value()
    } onCancel: {
        work.cancel()
    }
}

/// The first of several results, handed to one waiter.
private final class FirstOutcome<T: Sendable>: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<T, any Error>)
        case settled(Result<T, any Error>)
        case taken
    }
    private let state = Mutex(State.pending)

    func settle(with result: Result<T, any Error>) {
        let waiter: CheckedContinuation<T, any Error>? = state.withLock { state in
            switch state {
            case .pending:
                state = .settled(result)
                return nil
            case .waiting(let continuation):
                state = .taken
                return continuation
            case .settled, .taken:
                return nil
            }
        }
        waiter?.resume(with: result)
    }

    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<T, any Error>? = state.withLock { state in
                guard case .settled(let result) = state else {
                    state = .waiting(continuation)
                    return nil
                }
                state = .taken
                return result
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
