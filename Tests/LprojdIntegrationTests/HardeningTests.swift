import Foundation
import LprojClient
import LprojInterface
import LprojTestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// The holes of the hardening issue, each tried as a hostile local user
/// would (one uid), while a well-behaved client of another uid looks keys
/// up. Each would fail on the daemon before the fix: memory in hundreds of
/// MiB or GiB, stalls of seconds, rows without end. Run them against
/// another build with `LPROJD_TEST_BINARY=/path/to/lprojd`.
///
/// The bounds asserted are generous (the machines running tests are small
/// and busy); `make soak` measures the real figures. They run against
/// release builds of lprojd and lproj-soak, on their own, as `make test`
/// does (`LPROJD_TEST_BINARY`, `LPROJ_SOAK_BINARY`).
@Suite(
    .serialized,
    .enabled(if: getuid() == 0, "acts as two other uids (setpriv); runs as root, as CI does"),
    .enabled(if: Hostile.optimized, "needs release builds: set LPROJD_TEST_BINARY and LPROJ_SOAK_BINARY, as make test does"))
struct HardeningTests {
    /// A stall no well-behaved client should ever see (the soak's target is 10 ms).
    static let worstStall = 250_000.0
    /// The same for the calls the workers answer (a commit to disk among them).
    static let worstWorkerStall = 1_000_000.0
    /// How late the other uid's own events may come (the soak's target is
    /// 100 ms; a subscriber once waited seconds behind another uid's).
    static let worstEventDelay = 500_000.0
    static let mebibyte = 1 << 20

    /// The probe was answered throughout, never waiting long.
    func expectTheOtherUserUnaffected(_ outcome: Hostile.Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.probe.lookups > 100, "the probe was hardly answered: \(outcome.probe)", sourceLocation: sourceLocation)
        #expect(outcome.probe.errors == 0, sourceLocation: sourceLocation)
        #expect(
            outcome.probe.maxMicroseconds < Self.worstStall, "the other uid waited \(outcome.probe.maxMicroseconds) µs",
            sourceLocation: sourceLocation)
        #expect(outcome.probe.otherCalls > 10, "\(outcome.probe)", sourceLocation: sourceLocation)
        #expect(
            outcome.probe.otherMaxMicroseconds < Self.worstWorkerStall,
            "the other uid's SelectLocale, SupportedLocales or Format waited \(outcome.probe.otherMaxMicroseconds) µs",
            sourceLocation: sourceLocation)
        #expect(outcome.probe.events > 10 && outcome.probe.eventsMissed == 0, "\(outcome.probe)", sourceLocation: sourceLocation)
        #expect(
            outcome.probe.eventMaxMicroseconds < Self.worstEventDelay,
            "the other uid's own event came \(outcome.probe.eventMaxMicroseconds) µs late", sourceLocation: sourceLocation)
    }

    // MARK: (A) Memory and disk a client can pin

    @Test func unfinishedMessagesAreBoundedByTheUsersBudget() async throws {
        let daemon = try await DaemonProcess()
        // 64 connections of the same uid, each sending 1 MiB that never ends.
        let outcome = try await Hostile(daemon: daemon).attack("unfinished-messages", seconds: 4)
        #expect(
            outcome.report.limits["inputPerUID", default: 0] + outcome.report.limits["memoryPerUID", default: 0] > 0, "\(outcome.report)")
        #expect(outcome.residentGrowth < 96 * Self.mebibyte, "lprojd grew by \(outcome.residentGrowth >> 20) MiB")
        expectTheOtherUserUnaffected(outcome)
    }

    @Test func aMessageOfTooManyValuesIsRefusedBeforeItIsAllInMemory() async throws {
        let daemon = try await DaemonProcess()
        let raw = try RawClient(path: daemon.socket, timeout: 10)
        // 70,000 values in 700 KB: under the message size, over its values.
        try raw.send(
            #"{"method":"org.lprojd.Negotiate","parameters":{"available":[\#((0..<70_000).map { _ in "1" }.joined(separator: ","))]}}"#)
        let reply = try #require(try await raw.receiveJSON())
        #expect(reply["error"] as? String == "org.lprojd.Localization.LimitExceeded")
        #expect((reply["parameters"] as? [String: Any])?["limit"] as? String == "messageValues")
    }

    @Test func anUnfinishedMessageThatGoesQuietClosesItsConnection() async throws {
        let daemon = try await DaemonProcess(
            configuration: """
                bundles: [{name: demo, directory: $BUNDLE}]
                limits: {incomplete-message-timeout: 1}
                """)
        let raw = try RawClient(path: daemon.socket, timeout: 10)
        try raw.sendBytes(Array(#"{"method":"org.lprojd.Localization.Lookup","parameters":{"#.utf8))
        let reply = try #require(try await raw.receiveJSON())
        #expect(reply["error"] as? String == "org.lprojd.Localization.LimitExceeded")
        #expect((reply["parameters"] as? [String: Any])?["limit"] as? String == "incompleteMessageTimeout")
        #expect(try await raw.receive() == nil)
    }

    @Test func repliesThatAreNeverReadAreBoundedByTheUsersBudget() async throws {
        let daemon = try await DaemonProcess()
        // 16 connections pipelining GetTable calls without ever reading.
        let outcome = try await Hostile(daemon: daemon).attack("unread-replies", seconds: 4)
        #expect(outcome.residentGrowth < 64 * Self.mebibyte, "lprojd grew by \(outcome.residentGrowth >> 20) MiB")
        expectTheOtherUserUnaffected(outcome)
    }

    @Test func addedStringsAreBoundedPerUserWhateverItsClientIDs() async throws {
        let daemon = try await DaemonProcess()
        let outcome = try await Hostile(daemon: daemon).attack("added-strings", seconds: 3)
        #expect(outcome.report.limits["addedStringsPerUID", default: 0] > 0, "\(outcome.report)")
        #expect(outcome.residentGrowth < 48 * Self.mebibyte, "lprojd grew by \(outcome.residentGrowth >> 20) MiB")
        expectTheOtherUserUnaffected(outcome)
    }

    @Test func queuedCallsAreCountedInBytes() async throws {
        let daemon = try await DaemonProcess()
        // 32 connections held by a subscription, each queueing 60 KiB calls.
        let outcome = try await Hostile(daemon: daemon).attack("queued-calls", seconds: 3)
        #expect(outcome.residentGrowth < 64 * Self.mebibyte, "lprojd grew by \(outcome.residentGrowth >> 20) MiB")
        expectTheOtherUserUnaffected(outcome)
    }

    @Test func subscribersThatNeverReadAreDroppedWithinTheBudget() async throws {
        let daemon = try await DaemonProcess()
        let outcome = try await Hostile(daemon: daemon).attack("subscriber-queues", seconds: 3)
        #expect(outcome.residentGrowth < 64 * Self.mebibyte, "lprojd grew by \(outcome.residentGrowth >> 20) MiB")
        expectTheOtherUserUnaffected(outcome)
    }

    @Test func savedRowsAreBoundedPerUserAndSurviveARestart() async throws {
        // A small budget, so that it is reached in seconds despite each row's fsync.
        let daemon = try await DaemonProcess(
            configuration: """
                bundles: [{name: demo, directory: $BUNDLE}]
                limits: {max-saved-state-bytes-per-uid: 64 KiB}
                """)
        let outcome = try await Hostile(daemon: daemon).attack("saved-rows", seconds: 3)
        #expect(outcome.report.limits["savedStatePerUID", default: 0] > 0, "\(outcome.report)")
        let state = daemon.directory.appendingPathComponent("state")
        let bytes = try FileManager.default.contentsOfDirectory(atPath: state.path).reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: state.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
        #expect(bytes < 4 * Self.mebibyte, "the state grew to \(bytes >> 10) KiB")
        // What was acknowledged is there after a restart, and no more.
        _ = try await daemon.stop()
        try await daemon.start()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        // At most what 64 KiB holds: a few hundred rows.
        let selections = try await lprojd.status().selections
        #expect(selections > 0 && selections < 400, "\(selections) selections")
        expectTheOtherUserUnaffected(outcome)
    }

    @Test func textsThatWouldBeCachedAsSentAreRefusedBeforehand() async throws {
        let daemon = try await DaemonProcess()
        // 1 MB of whitespace around a locale, and around a currency code.
        let outcome = try await Hostile(daemon: daemon).attack("cache-keys", seconds: 3)
        #expect(
            outcome.report.errors["InvalidLocale", default: 0] > 0 && outcome.report.errors["InvalidValue", default: 0] > 0,
            "\(outcome.report)")
        #expect(outcome.residentGrowth < 96 * Self.mebibyte, "lprojd grew by \(outcome.residentGrowth >> 20) MiB")
        expectTheOtherUserUnaffected(outcome)
    }

    // MARK: (B) Event loops

    @Test func aBatchOfCostlyCallsDoesNotHoldTheLoop() async throws {
        let daemon = try await DaemonProcess()
        let outcome = try await Hostile(daemon: daemon).attack("batches", seconds: 4)
        expectTheOtherUserUnaffected(outcome)
    }

    @Test func aFloodOfChangesReachesManySubscribersWithoutHoldingTheLoop() async throws {
        let daemon = try await DaemonProcess()
        let outcome = try await Hostile(daemon: daemon).attack("fan-out", seconds: 4)
        expectTheOtherUserUnaffected(outcome)
        #expect(outcome.report.calls > 0)
    }

    /// Connections opened and closed as fast as one thread goes (tens of
    /// thousands a second, nearly all refused at accept): the other uid's
    /// calls once waited 150–290 ms behind the set-ups queued on their
    /// loop; accepting now has a loop of its own, at a lower priority, and
    /// a bound on the set-ups it leaves waiting (`AcceptGate`). (At this
    /// suite's bound, 250 ms, the old daemon passed too; the soak's
    /// connection-churn row measures the difference, AcceptGateTests the gate.)
    @Test func connectionChurnDoesNotHoldTheOtherUsersCalls() async throws {
        let daemon = try await DaemonProcess()
        let outcome = try await Hostile(daemon: daemon).attack("connection-churn", seconds: 4)
        #expect(outcome.report.calls > 1_000, "\(outcome.report)")
        expectTheOtherUserUnaffected(outcome)
    }

    @Test func inputsThatWereQuadraticAreLinearOrRefused() async throws {
        let daemon = try await DaemonProcess()
        // 60k members; 3,000 keys with long common prefixes then GetTable;
        // Negotiate 2000 × 2000; GetSelection with 60k languages.
        let outcome = try await Hostile(daemon: daemon).attack("quadratic", seconds: 6)
        #expect(outcome.report.calls >= 4, "not even one round in 6 s: \(outcome.report)")
        #expect(outcome.report.limits["placeholders", default: 0] > 0)
        #expect(outcome.report.limits["locales", default: 0] > 0)
        #expect(outcome.report.limits["preferredLanguages", default: 0] > 0)
        expectTheOtherUserUnaffected(outcome)
    }

    // MARK: (C) Inputs bounded before work

    @Test func outputIsBoundedBeforeItIsBuilt() async throws {
        let daemon = try await DaemonProcess()
        let outcome = try await Hostile(daemon: daemon).attack("amplification", seconds: 3)
        #expect(outcome.report.limits["valueLength", default: 0] > 0, "\(outcome.report)")
        #expect(outcome.report.errors["InvalidValue", default: 0] > 0, "the 64 KiB separator was accepted: \(outcome.report)")
        #expect(outcome.residentGrowth < 96 * Self.mebibyte, "lprojd grew by \(outcome.residentGrowth >> 20) MiB")
        expectTheOtherUserUnaffected(outcome)
    }

    @Test func textsAreLimitedInBytesAsSent() async throws {
        let daemon = try await DaemonProcess()
        // A currency symbol of one base and 500k combining marks; a locale
        // behind 1 MB of spaces; a 1 MB bundle name.
        let outcome = try await Hostile(daemon: daemon).attack("long-texts", seconds: 3)
        #expect(outcome.report.errors["InvalidValue", default: 0] > 0)
        #expect(outcome.report.errors["InvalidLocale", default: 0] > 0)
        #expect(outcome.report.errors["BundleNotFound", default: 0] > 0)
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        // Nothing saved for the attacker (the probe saves its own choice).
        let attacker = try await lprojd.status().usage.first { $0.uid == Int(Hostile.attackerUID) }
        #expect((attacker?.savedState ?? 0) == 0, "\(String(describing: attacker))")
        expectTheOtherUserUnaffected(outcome)
    }

    @Test func whatAClientMakesLprojdLogIsRateLimitedPerUser() async throws {
        let daemon = try await DaemonProcess()
        let linesBefore = daemon.output.split(separator: "\n").count
        let outcome = try await Hostile(daemon: daemon).attack("log-flood", seconds: 3)
        let lines = daemon.output.split(separator: "\n").count - linesBefore
        #expect(outcome.report.calls > 1000, "\(outcome.report)")
        // A burst of 20 and 2 a second afterwards, for each of the two kinds.
        #expect(lines < 120, "\(lines) log lines for \(outcome.report.calls) calls")
        expectTheOtherUserUnaffected(outcome)
    }

    // MARK: Round 3: the work a request causes

    /// `%.4096g` 7,200 times in a key, and in an added value looked up by
    /// small calls: each once held a loop for a second.
    @Test func formatPrecisionIsBoundedByTheWorkLimit() async throws {
        let daemon = try await DaemonProcess()
        let outcome = try await Hostile(daemon: daemon).attack("format-precision", seconds: 4)
        #expect(outcome.report.limits["work", default: 0] > 0, "\(outcome.report)")
        expectTheOtherUserUnaffected(outcome)
    }

    /// Sixty values of control characters: few entries, 23 MB to send.
    @Test func aTableIsCountedByItsBytesBeforeItIsBuilt() async throws {
        let daemon = try await DaemonProcess()
        let outcome = try await Hostile(daemon: daemon).attack("wide-tables", seconds: 4)
        #expect(outcome.report.limits["replySize", default: 0] > 0, "\(outcome.report)")
        expectTheOtherUserUnaffected(outcome)
    }

    /// Messages of 1 MB sent to the workers by connections that hang up,
    /// and eight waiting: memory once grew by 3 GiB, and another uid's
    /// SelectLocale waited 35 s.
    @Test func workerJobsAreChargedCancelledAndShared() async throws {
        let daemon = try await DaemonProcess()
        let outcome = try await Hostile(daemon: daemon).attack("worker-jobs", seconds: 5)
        #expect(outcome.report.calls > 20, "\(outcome.report)")
        #expect(outcome.residentGrowth < 128 * Self.mebibyte, "lprojd grew by \(outcome.residentGrowth >> 20) MiB")
        expectTheOtherUserUnaffected(outcome)
    }

    /// 128 subscribers that never read, and changes under new client ids:
    /// memory once grew by 900 MiB, and another uid's events came seconds late.
    @Test func eventsThatDefeatCoalescingAreBoundedPerUser() async throws {
        let daemon = try await DaemonProcess()
        let outcome = try await Hostile(daemon: daemon).attack("event-flood", seconds: 5)
        #expect(outcome.report.limits["changesPerSecond", default: 0] > 0, "\(outcome.report)")
        #expect(outcome.residentGrowth < 128 * Self.mebibyte, "lprojd grew by \(outcome.residentGrowth >> 20) MiB")
        expectTheOtherUserUnaffected(outcome)
    }

    /// Ever new templates, patterns, zones and locales: one uid's entries
    /// displace only its own.
    @Test func formatterCachesKeepEachUserToItsShare() async throws {
        let daemon = try await DaemonProcess()
        let outcome = try await Hostile(daemon: daemon).attack("format-caches", seconds: 4)
        #expect(outcome.report.calls > 100, "\(outcome.report)")
        expectTheOtherUserUnaffected(outcome)
    }
}
