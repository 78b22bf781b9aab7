import CSystemd
package import NIOCore
import ServiceLifecycle

/// systemd's watchdog (`WatchdogSec=`): tells the service manager every half
/// interval that the daemon still works, so that a wedged one is restarted.
///
/// "Still works" is checked, not assumed: each check first runs a no-op on
/// every event loop that serves requests, then the `probe` (lprojd hops onto
/// the actor that applies reloads), and only when all of them answered does
/// it send `WATCHDOG=1`. One stuck loop, a deadlock, or a reload that never
/// ends stops the pings, and systemd restarts the daemon. Checks never
/// overlap: the next waits for the last to answer.
///
/// A `Service`: it runs in lprojd's service group until the graceful stop,
/// on a clock of the caller's choosing (tests give one they advance).
package struct Watchdog<C: Clock>: Service where C.Duration == Duration {
    /// Time between checks: half the interval.
    package let period: Duration
    private let group: any EventLoopGroup
    private let probe: (@Sendable () async -> Void)?
    private let ping: @Sendable () -> Void
    private let clock: C

    /// Checks every `interval / 2` on `clock`, the first at once.
    package init(
        interval: Duration, group: any EventLoopGroup, clock: C, probe: (@Sendable () async -> Void)? = nil,
        ping: @escaping @Sendable () -> Void
    ) {
        self.period = max(.milliseconds(1), interval / 2)
        self.group = group
        self.clock = clock
        self.probe = probe
        self.ping = ping
    }

    package func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await check()
            do {
                try await cancelWhenGracefulShutdown { [clock, period] in try await clock.sleep(for: period) }
            } catch {
                return
            }
        }
    }

    /// One check: every loop answers, then the probe; `WATCHDOG=1` is sent
    /// only once all have. Returns when they have (never, while one is stuck).
    package func check() async {
        do {
            try await everyLoopAnswers().get()
        } catch {
            return  // a loop that shut down is not working
        }
        await probe?()
        ping()
    }

    /// A no-op queued on every loop now; the future succeeds once all have run.
    package func everyLoopAnswers() -> EventLoopFuture<Void> {
        let answers = group.makeIterator().map { $0.submit {} }
        return EventLoopFuture.andAllSucceed(answers, on: group.next())
    }
}

extension Watchdog where C == ContinuousClock {
    /// Checks every `interval / 2` of real time.
    package init(
        interval: Duration, group: any EventLoopGroup, probe: (@Sendable () async -> Void)? = nil, ping: @escaping @Sendable () -> Void
    ) {
        self.init(interval: interval, group: group, clock: ContinuousClock(), probe: probe, ping: ping)
    }
}

/// The interval the service manager asked for (`WATCHDOG_USEC`, for this
/// process: `WATCHDOG_PID` unset or ours), or nil when it asked for none.
package enum WatchdogRequest {
    package static func interval() -> Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(clamping: microseconds))
    }
}
