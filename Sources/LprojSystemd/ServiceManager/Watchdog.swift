import CSystemd
public import NIOCore
import Synchronization

/// systemd's watchdog (`WatchdogSec=`): tells the service manager every half
/// interval that the daemon still works, so that a wedged one is restarted.
///
/// "Still works" is checked, not assumed: each tick first runs a no-op on
/// every event loop that serves requests, then the `probe` (lprojd hops onto
/// the actor that applies reloads), and only when all of them answered does
/// it send `WATCHDOG=1`. One stuck loop, a deadlock, or a reload that never
/// ends stops the pings, and systemd restarts the daemon.
public final class Watchdog: Sendable {
    private let period: TimeAmount
    private let group: any EventLoopGroup
    private let probe: (@Sendable () async -> Void)?
    private let ping: @Sendable () -> Void
    private let task = Mutex<RepeatedTask?>(nil)
    private let checking = Atomic<Bool>(false)

    /// The interval the service manager asked for (`WATCHDOG_USEC`, for this
    /// process: `WATCHDOG_PID` unset or ours), or nil when it asked for none.
    public static func requestedInterval() -> Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(clamping: microseconds))
    }

    /// Pings every `interval / 2` once started.
    public init(interval: Duration, group: any EventLoopGroup, probe: (@Sendable () async -> Void)? = nil, ping: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = (interval / 2).components
        self.period = .nanoseconds(max(1_000_000, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        self.group = group
        self.probe = probe
        self.ping = ping
    }

    /// Starts ticking; the first ping is sent at once (if everything answers).
    public func start() {
        let loop = group.next()
        let scheduled = loop.scheduleRepeatedTask(initialDelay: .zero, delay: period) { [self] _ in tick(on: loop) }
        let previous = task.withLock { task in
            defer { task = scheduled }
            return task
        }
        previous?.cancel()
    }

    /// Stops the pings.
    public func stop() {
        task.withLock { task in
            task?.cancel()
            task = nil
        }
    }

    private func tick(on loop: any EventLoop) {
        // One check at a time: while a loop is stuck, ticks must not pile
        // up no-ops on it.
        guard !checking.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let answers = group.makeIterator().map { $0.submit {} }
        EventLoopFuture.andAllSucceed(answers, on: loop)
            .flatMap { [probe] in
                guard let probe else { return loop.makeSucceededVoidFuture() }
                return loop.makeFutureWithTask { await probe() }
            }
            .whenComplete { [self] result in
                if case .success = result { ping() }
                checking.store(false, ordering: .releasing)
            }
    }
}
