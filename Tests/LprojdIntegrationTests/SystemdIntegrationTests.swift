import Foundation
import LprojClient
import LprojInterface
import LprojTestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// lprojd as systemd runs it, without systemd as PID 1: a datagram socket
/// stands in for `NOTIFY_SOCKET`, `systemd-socket-activate` passes the
/// listening socket, and a fake journald socket (in a private mount
/// namespace) receives the journal entries.
@Suite(.serialized) struct SystemdIntegrationTests {
    /// A directory for the stand-ins, removed afterwards.
    final class Scratch: Sendable {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("lprojd-sd-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            chmod(url.path, 0o755)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test func readyOnlyOnceServingThenStatusThenStopping() async throws {
        let scratch = try Scratch()
        let notify = try NotifyListener(directory: scratch.url)
        // A bundle large enough that loading it takes a while: READY=1
        // before it is loaded would make the lookup below fail.
        var big = "/* generated */\n"
        for index in 0..<60_000 { big += "\"key.\(index)\" = \"Wert \(index)\";\n" }
        let daemon = try await DaemonProcess(
            files: ["en.lproj/Localizable.strings": "\"welcome\" = \"Welcome\";\n", "de.lproj/Big.strings": big],
            launch: Launch(notify: notify, readiness: .launched))

        let (ready, readyIndex) = try await notify.next("READY", "1")
        #expect(readyIndex == 0, "READY=1 is the first thing lprojd says; got \(notify.messages)")
        // Sent together with the first status.
        #expect(ready["STATUS"] == "1 bundle, 2 tables, 60001 entries; 0 connections, 0 subscribers")
        // At READY=1 the socket accepts and every table is there.
        let lprojd = try await daemon.client()
        #expect(try await lprojd.lookup(bundle: "demo", key: "key.59999", table: "Big", locale: "de").value == "Wert 59999")

        // The status follows the connections and subscribers.
        let events = EventRecorder(try await lprojd.events())
        _ = try await events.next()
        let (status, _) = try await notify.next("STATUS", after: readyIndex + 1) {
            $0["STATUS"]!.hasSuffix("; 2 connections, 1 subscriber")
        }
        #expect(status["READY"] == nil)
        // No watchdog was asked for, so none is sent.
        #expect(!notify.messages.contains { $0["WATCHDOG"] != nil })

        // SIGTERM: STOPPING=1, a last reply to the subscription, exit 0.
        let before = notify.messages.count
        daemon.send(SIGTERM)
        let (stopping, _) = try await notify.next("STOPPING", "1", after: before)
        #expect(stopping["STATUS"]?.hasPrefix("Stopping") == true)
        let last = try await events.next()
        #expect(last.type == .shutdown)
        #expect(try await daemon.waitForExit() == 0)
        await lprojd.close()
    }

    @Test func aStopAskedForDuringStartUpIsGraceful() async throws {
        var big = ""
        for index in 0..<100_000 { big += "\"key.\(index)\" = \"value \(index)\";\n" }
        let daemon = try await DaemonProcess(
            files: ["en.lproj/Localizable.strings": big], launch: Launch(readiness: .logLine("loading 1 bundle")))
        // The bundle is still loading: SIGTERM must not kill lprojd outright.
        daemon.send(SIGTERM)
        #expect(try await daemon.waitForExit() == 0, "\(daemon.output)")
        #expect(daemon.output.contains("stopping gracefully"))
    }

    @Test func theWatchdogIsPingedAtHalfItsInterval() async throws {
        let scratch = try Scratch()
        let notify = try NotifyListener(directory: scratch.url)
        let daemon = try await DaemonProcess(launch: Launch(notify: notify, environment: ["WATCHDOG_USEC": "1000000"]))
        var (_, index) = try await notify.next("READY", "1")
        #expect(daemon.output.contains("the watchdog expects a sign of life every 1.0 seconds; pinging every 0.5 seconds"))
        var pings: [ContinuousClock.Instant] = []
        while pings.count < 6 {
            let (ping, at) = try await notify.next("WATCHDOG", "1", after: index + 1)
            pings.append(ping.arrival)
            index = at
        }
        // Every 500 ms, never a gap as long as the interval, after which
        // systemd would kill the daemon.
        let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 < .milliseconds(1000) }, "gaps: \(gaps)")
        #expect(gaps.allSatisfy { $0 > .milliseconds(250) }, "pings come at half the interval, not faster: \(gaps)")
        #expect(try await daemon.stop() == 0)

        // A watchdog meant for another process (WATCHDOG_PID) is not ours.
        let other = try NotifyListener(directory: scratch.url.appendingPathComponent("other", isDirectory: true).creatingDirectory())
        let unwatched = try await DaemonProcess(
            launch: Launch(notify: other, environment: ["WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"]))
        _ = try await other.next("READY", "1")
        // The watchdog is set up before READY=1, and was not.
        #expect(!unwatched.output.contains("the watchdog expects"))
        #expect(!other.messages.contains { $0["WATCHDOG"] != nil })
        #expect(try await unwatched.stop() == 0)
    }

    @Test func sighupReloadsTheConfigurationAroundRelodingAndReady() async throws {
        let scratch = try Scratch()
        let notify = try NotifyListener(directory: scratch.url)
        let extra = scratch.url.appendingPathComponent("extra")
        try FileManager.default.createDirectory(at: extra.appendingPathComponent("en.lproj"), withIntermediateDirectories: true)
        try Data("\"hello\" = \"Hello from extra\";\n".utf8).write(to: extra.appendingPathComponent("en.lproj/Localizable.strings"))
        let demoOnly = "bundles:\n  - name: demo\n    directory: $BUNDLE\n"
        let daemon = try await DaemonProcess(
            configuration: demoOnly, launch: Launch(notify: notify))
        _ = try await notify.next("READY", "1")
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let events = EventRecorder(try await lprojd.events())
        _ = try await events.next()

        // A bundle added.
        try daemon.writeConfiguration(demoOnly + "  - name: extra\n    directory: \(extra.path)\n")
        var mark = notify.messages.count
        daemon.send(SIGHUP)
        let (reloading, reloadingIndex) = try await notify.next("RELOADING", "1", after: mark)
        #expect(reloading["MONOTONIC_USEC"].flatMap(UInt64.init) != nil)
        let (ready, _) = try await notify.next("READY", "1", after: reloadingIndex + 1)
        #expect(ready["STATUS"]?.hasPrefix("2 bundles") == true)
        let added = try await events.next { $0.type == .bundleChanged }
        #expect(added.bundle == "extra")
        // The connection opened before the reload keeps working, with both.
        #expect(try await lprojd.lookup(bundle: "extra", key: "hello").value == "Hello from extra")
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de").value == "Willkommen bei Demo")
        #expect(try await lprojd.bundles().map(\.name) == ["demo", "extra"])

        // A smaller table file limit takes effect at once (the 31-byte table
        // is now refused), and is not reported as waiting for a restart.
        try daemon.writeConfiguration("limits:\n  max-table-file-size: 16\n" + demoOnly + "  - name: extra\n    directory: \(extra.path)\n")
        mark = notify.messages.count
        daemon.send(SIGHUP)
        let (_, limitedIndex) = try await notify.next("RELOADING", "1", after: mark)
        _ = try await notify.next("READY", "1", after: limitedIndex + 1)
        #expect(try await lprojd.lookup(bundle: "extra", key: "hello") == .init(value: "hello", found: false, locale: nil))
        #expect(!daemon.output.contains("takes effect at the next start"))

        // A configuration that does not parse changes nothing.
        try daemon.writeConfiguration("bundles: [this is not\n")
        mark = notify.messages.count
        daemon.send(SIGHUP)
        let (_, failedIndex) = try await notify.next("RELOADING", "1", after: mark)
        let (failed, _) = try await notify.next("READY", "1", after: failedIndex + 1)
        #expect(failed["STATUS"]?.hasPrefix("Reload failed, serving the previous configuration:") == true)
        #expect(try await lprojd.bundles().map(\.name) == ["demo", "extra"])
        #expect(daemon.output.contains("the configuration reload failed"))

        // A bundle removed.
        try daemon.writeConfiguration("bundles:\n  - name: extra\n    directory: \(extra.path)\n")
        mark = notify.messages.count
        daemon.send(SIGHUP)
        _ = try await notify.next("READY", "1", after: mark) { $0["STATUS"]?.hasPrefix("1 bundle,") == true }
        // (After the events of the bundles read again under the new limit.)
        _ = try await events.next {
            $0.type == .bundleChanged && $0.bundle == "demo" && $0.message == "the bundle is no longer served"
        }
        await expectError("org.lprojd.Localization.BundleNotFound") { _ = try await lprojd.lookup(bundle: "demo", key: "welcome.title") }
        #expect(try await lprojd.lookup(bundle: "extra", key: "hello").value == "Hello from extra")
        #expect(try await daemon.stop() == 0)
    }

    @Test func aFatalStartupErrorIsReportedWithItsErrno() async throws {
        let scratch = try Scratch()
        let notify = try NotifyListener(directory: scratch.url)
        // The socket path is taken by a regular file.
        let taken = scratch.url.appendingPathComponent("taken")
        try Data().write(to: taken)
        let (status, _) = try await runLprojd(
            [
                "--socket", taken.path, "--state-directory", scratch.url.appendingPathComponent("state").path,
                "--bundle", "demo=\(DaemonProcess.packageRoot.appendingPathComponent("Examples/DemoApp").path)",
            ],
            environment: ["NOTIFY_SOCKET": notify.path])
        #expect(status == 1)
        let (failure, _) = try await notify.next("ERRNO")
        #expect(failure["ERRNO"] == String(EEXIST))
        #expect(failure["STATUS"]?.contains("exists and is not a socket") == true)
        #expect(!notify.messages.contains { $0["READY"] != nil })

        // A configuration error.
        let config = scratch.url.appendingPathComponent("bad.conf")
        try Data("bundles: 3\n".utf8).write(to: config)
        let mark = notify.messages.count
        let (configStatus, output) = try await runLprojd(
            ["--config", config.path, "--socket", scratch.url.appendingPathComponent("s").path],
            environment: ["NOTIFY_SOCKET": notify.path])
        #expect(configStatus == 2)
        let (configFailure, _) = try await notify.next("ERRNO", after: mark)
        #expect(configFailure["ERRNO"] == String(EINVAL))
        #expect(output.hasPrefix("lprojd: \(config.path)"))
    }

    @Test func socketActivationServesThePassedSocket() async throws {
        let scratch = try Scratch()
        let notify = try NotifyListener(directory: scratch.url)
        let activated = scratch.url.appendingPathComponent("activated.sock").path
        let unused = scratch.url.appendingPathComponent("unused.sock").path
        // systemd-socket-activate binds, waits for the first connection,
        // then execs lprojd with LISTEN_FDS=1, LISTEN_FDNAMES=varlink.
        let daemon = try await DaemonProcess(
            arguments: ["--socket", unused],
            launch: Launch(
                wrapper: ["systemd-socket-activate", "--listen=\(activated)", "--fdname=varlink", "--setenv=NOTIFY_SOCKET=\(notify.path)"],
                passesSocketPath: false, readiness: .logLine("Listening on")))
        // This first connection starts the daemon, which then answers it.
        let lprojd = try await LprojClient.connect(path: activated)
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "fr").value == "Bienvenue dans Demo")
        let (ready, readyIndex) = try await notify.next("READY", "1")
        #expect(ready["STATUS"]?.contains("entries") == true)
        // READY=1 may be sent before the first connection is accepted; the
        // status follows the count within its refresh interval (1 s).
        _ = try await notify.next("STATUS", after: readyIndex) { $0["STATUS"]?.contains("1 connection") == true }
        #expect(daemon.output.contains("serving on the socket passed by the service manager (fd 3)"))
        #expect(daemon.output.contains("the configured \(unused) is not used"))
        #expect(!FileManager.default.fileExists(atPath: unused))
        await lprojd.close()
        #expect(try await daemon.stop() == 0)
        // The socket is the manager's: lprojd leaves it in place.
        #expect(FileManager.default.fileExists(atPath: activated))
    }

    @Test(.enabled(if: canUseMountNamespaces(), "needs `unshare -m` (root, or user namespaces) to stand in for journald"))
    func logsGoToTheJournalWhenStderrIsAJournalStream() async throws {
        let scratch = try Scratch()
        // In lprojd's own mount namespace, /run/systemd is this directory,
        // so sd_journal_sendv reaches the fake journal's socket.
        let run = scratch.url.appendingPathComponent("run-systemd", isDirectory: true)
        try FileManager.default.createDirectory(at: run.appendingPathComponent("journal"), withIntermediateDirectories: true)
        let journal = try FakeJournal(path: run.appendingPathComponent("journal/socket").path)
        let notify = try NotifyListener(directory: scratch.url)
        let daemon = try await DaemonProcess(
            launch: Launch(
                notify: notify,
                wrapper: ["unshare", "--mount", "sh", "-c", "mount --bind \"$0\" /run/systemd && exec \"$@\"", run.path],
                stderrIsJournalStream: true, readiness: .launched))
        _ = try await notify.next("READY", "1")

        let loaded = try await journal.entry { $0["MESSAGE"]?.hasPrefix("bundle demo from --bundle: ") == true }
        #expect(loaded["duplicates"] == nil, "each field once: \(loaded)")
        #expect(loaded["PRIORITY"] == "6")
        #expect(loaded["SYSLOG_IDENTIFIER"] == "lprojd")
        #expect(loaded["LPROJD_BUNDLE"] == "demo")
        #expect(loaded["CODE_FILE"]?.hasSuffix("Daemon.swift") == true, "\(loaded)")
        #expect(loaded["CODE_LINE"].flatMap(Int.init) != nil)
        #expect(loaded["CODE_FUNC"]?.isEmpty == false)

        // A client's selection is logged with the client's id.
        let lprojd = try await daemon.client()
        _ = try await lprojd.select(client: "org.example.Journal", bundle: "demo", locale: "ja")
        let selected = try await journal.entry { $0["LPROJD_CLIENT"] == "org.example.Journal" }
        #expect(selected["LPROJD_BUNDLE"] == "demo")
        await lprojd.close()
        #expect(try await daemon.stop() == 0)
        // Nothing went to stderr as plain lines.
        #expect(!daemon.output.contains("listening on"), "\(daemon.output)")
    }
}

/// Whether this process may create a mount namespace and bind-mount in it.
func canUseMountNamespaces() -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["unshare", "--mount", "sh", "-c", "mount --bind /tmp /mnt"]
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}

/// Runs lprojd to its end (a start-up failure); returns its status and stderr.
func runLprojd(_ arguments: [String], environment: [String: String]) async throws -> (Int32, String) {
    try await offload { try runLprojdBlocking(arguments, environment: environment) }
}

func runLprojdBlocking(_ arguments: [String], environment: [String: String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = DaemonProcess.binaries.appendingPathComponent("lprojd")
    process.arguments = arguments
    var inherited = ProcessInfo.processInfo.environment
    for name in Launch.managerVariables { inherited[name] = nil }
    process.environment = inherited.merging(environment) { $1 }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
}

extension URL {
    func creatingDirectory() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
