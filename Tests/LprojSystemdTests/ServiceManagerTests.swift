import LprojSystemd
import LprojTestSupport
import NIOCore
import NIOPosix
import Synchronization
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ServiceNotifierTests {
    @Test func statesBecomeOneDatagramOfLines() {
        let sent = Mutex<[String]>([])
        let notifier = ServiceNotifier { message in
            sent.withLock { $0.append(message) }
            return 1
        }
        #expect(notifier.notify(.reloading, .monotonicNow, .status("Reloading\nthe configuration")))
        notifier.notify(.ready, .errno(98), .watchdog, .stopping)
        let messages = sent.withLock { $0 }
        #expect(messages.count == 2)
        let reload = messages[0].split(separator: "\n")
        #expect(reload.count == 3)
        #expect(reload[0] == "RELOADING=1")
        #expect(reload[1].wholeMatch(of: /MONOTONIC_USEC=\d+/) != nil)
        // A status is one line whatever it is given.
        #expect(reload[2] == "STATUS=Reloading the configuration")
        #expect(messages[1] == "READY=1\nERRNO=98\nWATCHDOG=1\nSTOPPING=1")
    }

    @Test func withoutAManagerNothingIsSent() {
        #expect(!ServiceNotifier { _ in 0 }.notify(.ready))
        #expect(!ServiceNotifier { _ in -111 }.notify(.ready))
        // The real one, with no NOTIFY_SOCKET in a test run.
        if getenv("NOTIFY_SOCKET") == nil {
            #expect(!ServiceNotifier.system.notify(.status("test")))
        }
    }
}

@Suite struct SocketActivationTests {
    let varlink = ActivatedSocket(descriptor: 4, name: "varlink")
    let other = ActivatedSocket(descriptor: 3, name: "metrics")

    @Test func theNamedSocketIsChosen() throws {
        #expect(try SocketActivation.socket(named: "varlink", in: [other, varlink]) == varlink)
    }

    @Test func theOnlySocketIsChosenWhateverItsName() throws {
        let unnamed = ActivatedSocket(descriptor: 3, name: "unknown")
        #expect(try SocketActivation.socket(named: "varlink", in: [unnamed]) == unnamed)
        #expect(try SocketActivation.socket(named: "varlink", in: []) == nil)
    }

    @Test func severalSocketsWithoutTheNameAreAClearError() {
        let error = #expect(throws: SocketActivationError.self) {
            try SocketActivation.socket(named: "varlink", in: [other, ActivatedSocket(descriptor: 4, name: "admin")])
        }
        #expect(error?.description.contains("FileDescriptorName=varlink") == true)
        #expect(error?.code == EINVAL)
    }

    @Test func withoutActivationThereAreNoSockets() throws {
        // The test runner is not socket-activated.
        if getenv("LISTEN_FDS") == nil {
            #expect(try SocketActivation.takeListeningSockets().isEmpty)
        }
    }
}

@Suite struct WatchdogTests {
    final class Pings: Sendable {
        private let count = Atomic(0)
        private let stream = AsyncStream<Int>.makeStream()
        func ping() { stream.continuation.yield(count.add(1, ordering: .relaxed).newValue) }
        var value: Int { count.load(ordering: .relaxed) }
        /// The pings, as they come (their running count).
        var arrivals: AsyncStream<Int> { stream.stream }
    }

    /// Runs `body` with an event loop group, shut down afterwards.
    func withGroup(threads: Int, _ body: (MultiThreadedEventLoopGroup) async throws -> Void) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        do {
            try await body(group)
        } catch {
            try await group.shutdownGracefully()
            throw error
        }
        try await group.shutdownGracefully()
    }

    @Test func aStuckLoopHoldsTheCheckBack() async throws {
        try await withGroup(threads: 2) { group in
            let watchdog = Watchdog(interval: .seconds(1), group: group, clock: ManualClock(), ping: {})
            // Wedge one loop, as a handler stuck in a blocking call would.
            let loops = Array(group.makeIterator())
            let release = Atomic(false)
            let wedged = loops[1].submit { () -> Void in
                while !release.load(ordering: .acquiring) { sched_yield() }
            }
            // The check's no-ops are queued now, the one on loop 1 behind the wedge.
            let answered = Atomic(false)
            let answers = watchdog.everyLoopAnswers()
            answers.whenComplete { _ in answered.store(true, ordering: .releasing) }
            // Loop 0 can answer at once; loop 1 cannot while it is wedged.
            try await loops[0].submit {}.get()
            let answeredWhileWedged = answered.load(ordering: .acquiring)
            #expect(!answeredWhileWedged, "a stuck event loop must hold the check back")
            release.store(true, ordering: .releasing)
            try await wedged.get()
            try await answers.get()
        }
    }

    @Test func aCheckWaitsForTheProbe() async throws {
        try await withGroup(threads: 1) { group in
            let probe = AsyncStream<Void>.makeStream()
            let probed = AsyncStream<Void>.makeStream()
            let pings = Pings()
            let watchdog = Watchdog(
                interval: .seconds(1), group: group, clock: ManualClock(),
                probe: {
                    probed.continuation.yield()
                    for await _ in probe.stream { return }
                }, ping: pings.ping)
            let check = Task { await watchdog.check() }
            // The probe has started and does not answer: no ping.
            for await _ in probed.stream { break }
            #expect(pings.value == 0)
            probe.continuation.yield()
            await check.value
            #expect(pings.value == 1)
        }
    }

    @Test func pingsAtHalfTheIntervalOnItsClockUntilTheStop() async throws {
        try await withGroup(threads: 1) { group in
            let clock = ManualClock()
            let pings = Pings()
            let watchdog = Watchdog(interval: .seconds(10), group: group, clock: clock, ping: pings.ping)
            #expect(watchdog.period == .seconds(5))
            let running = Task { try await watchdog.run() }
            var sleeps = clock.sleeps.makeAsyncIterator()
            var arrivals = pings.arrivals.makeAsyncIterator()
            // The first check at once, then a sleep of half the interval.
            #expect(await arrivals.next() == 1)
            #expect(await sleeps.next()?.offset == .seconds(5))
            // Not a moment early.
            clock.advance(by: .seconds(4))
            #expect(pings.value == 1)
            clock.advance(by: .seconds(1))
            #expect(await arrivals.next() == 2)
            #expect(await sleeps.next()?.offset == .seconds(10))
            // The stop ends the sleep and the pings.
            running.cancel()
            try? await running.value
            clock.advance(by: .seconds(60))
            #expect(pings.value == 2)
        }
    }
}
