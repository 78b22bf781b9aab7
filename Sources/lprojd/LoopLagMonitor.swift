import Logging
import NIOCore
import Synchronization

/// For measuring, not for production: when `LPROJD_MEASURE_LOOP_LAG` is
/// set, each event loop runs a task every millisecond and the monitor logs,
/// once a second, the longest any of them started late. That is how long a
/// loop was held (by anything: a call, a batch of writes, the kernel), as
/// the loop itself saw it, apart from any client's own scheduling.
struct LoopLagMonitor {
    static func startIfAsked(group: any EventLoopGroup, environment: [String: String], logger: Logger) {
        guard environment["LPROJD_MEASURE_LOOP_LAG"] != nil else { return }
        final class Counters: Sendable {
            let worst = Atomic<Int64>(0)
        }
        final class LastRun: Sendable {
            let nanoseconds = Atomic<Int64>(Int64(NIODeadline.now().uptimeNanoseconds))
        }
        let counters = Counters()
        for loop in group.makeIterator() {
            let last = LastRun()
            loop.scheduleRepeatedTask(initialDelay: .milliseconds(1), delay: .milliseconds(1)) { _ in
                let now = Int64(NIODeadline.now().uptimeNanoseconds)
                let late = now - last.nanoseconds.exchange(now, ordering: .relaxed) - 1_000_000
                _ = counters.worst.max(late, ordering: .relaxed)
            }
        }
        group.next().scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
            let late = counters.worst.exchange(0, ordering: .relaxed)
            logger.notice("loop lag: \(late / 1000) µs at worst in the last second")
        }
    }
}
