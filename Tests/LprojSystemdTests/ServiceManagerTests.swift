import LprojSystemd
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
        let error = #expect(throws: SocketActivation.Problem.self) {
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

@Suite(.serialized) struct WatchdogTests {
    final class Pings: Sendable {
        private let count = Atomic(0)
        func ping() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }

        func waitForMore(than value: Int, seconds: Double = 5) async -> Bool {
            let deadline = ContinuousClock.now + .seconds(seconds)
            // Look before giving up: a busy test machine may wake this task late.
            while true {
                if self.value > value { return true }
                if ContinuousClock.now >= deadline { return false }
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
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

    @Test func pingsWhileEveryLoopAnswersAndStopsWhenOneIsStuck() async throws {
        try await withGroup(threads: 2) { group in
        let pings = Pings()
        let watchdog = Watchdog(interval: .milliseconds(100), group: group, ping: pings.ping)
        watchdog.start()
        defer { watchdog.stop() }
        #expect(await pings.waitForMore(than: 2))

        // Wedge one loop, as a handler stuck in a blocking call would.
        let loops = Array(group.makeIterator())
        let release = Atomic(false)
        loops[1].execute {
            while !release.load(ordering: .relaxed) { usleep(1_000) }
        }
        // A check already past that loop may still land; after that, silence.
        try await Task.sleep(for: .milliseconds(150))
        let whileStuck = pings.value
        try await Task.sleep(for: .milliseconds(500))
        #expect(pings.value == whileStuck, "a stuck event loop must stop the pings")

        release.store(true, ordering: .relaxed)
        #expect(await pings.waitForMore(than: whileStuck), "pings resume once the loop answers")
        }
    }

    @Test func aStuckProbeStopsThePings() async throws {
        try await withGroup(threads: 1) { group in
        let stuck = Atomic(false)
        let pings = Pings()
        let watchdog = Watchdog(interval: .milliseconds(100), group: group, probe: {
            while stuck.load(ordering: .relaxed) { try? await Task.sleep(for: .milliseconds(5)) }
        }, ping: pings.ping)
        watchdog.start()
        defer { watchdog.stop() }
        #expect(await pings.waitForMore(than: 1))
        stuck.store(true, ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(150))
        let whileStuck = pings.value
        try await Task.sleep(for: .milliseconds(400))
        #expect(pings.value == whileStuck)
        stuck.store(false, ordering: .relaxed)
        #expect(await pings.waitForMore(than: whileStuck))
        }
    }

    @Test func stopEndsThePings() async throws {
        try await withGroup(threads: 1) { group in
        let pings = Pings()
        let watchdog = Watchdog(interval: .milliseconds(60), group: group, ping: pings.ping)
        watchdog.start()
        #expect(await pings.waitForMore(than: 1))
        watchdog.stop()
        try await Task.sleep(for: .milliseconds(100))
        let stopped = pings.value
        try await Task.sleep(for: .milliseconds(200))
        #expect(pings.value == stopped)
        }
    }
}
