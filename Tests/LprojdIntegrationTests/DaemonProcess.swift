import Foundation
import LprojClient
import LprojInterface
import Synchronization
import VarlinkClient
import VarlinkProtocol
import LprojTestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// How a test starts lprojd: plainly, or as systemd would.
struct Launch {
    /// The stand-in for systemd's notify socket lprojd is given
    /// (`NOTIFY_SOCKET`); when nil, the daemon gets one of its own.
    var notify: NotifyListener?
    /// Variables added to lprojd's environment (NOTIFY_SOCKET, WATCHDOG_USEC…).
    var environment: [String: String] = [:]
    /// A program lprojd runs under: given its own arguments, then lprojd's
    /// path and arguments (systemd-socket-activate, unshare, strace).
    var wrapper: [String] = []
    /// Whether the wrapper runs lprojd as its child (strace) instead of
    /// becoming it with exec; signals then go to the child.
    var wrapperForks = false
    /// Whether lprojd gets `--socket` (a socket-activated one is passed its socket instead).
    var passesSocketPath = true
    /// Sets JOURNAL_STREAM to lprojd's stderr, as systemd does for a
    /// service whose output goes to the journal.
    var stderrIsJournalStream = false
    /// When lprojd runs as another user (the wrapper switches), its socket
    /// and state directories are made that user's.
    var writableBy: uid_t?
    /// When `start()` returns.
    var readiness = Readiness.notified

    enum Readiness {
        /// Once lprojd sends `READY=1`, as systemd waits for it.
        case notified
        /// Once the log has this line (for a wrapper's own messages, or a
        /// moment before lprojd is ready).
        case logLine(String)
        /// As soon as it is launched.
        case launched
    }

    /// What a test may not inherit from whatever runs the tests.
    static let managerVariables = [
        "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "JOURNAL_STREAM",
    ]
}

/// The real `lprojd` binary, started for a test on a temporary socket with
/// its own state directory and a copy of a bundle it may change.
final class DaemonProcess: @unchecked Sendable {
    let directory: URL
    let socket: String
    let stateDirectory: String
    let bundleDirectory: URL
    let configurationPath: URL
    private(set) var process: Process?
    private let log = LogBuffer()
    /// Where lprojd says it is ready.
    let notify: NotifyListener
    private var extraArguments: [String]
    private let launch: Launch

    static var packageRoot: URL {
        var url = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { url.deleteLastPathComponent() }
        return url
    }

    /// The directory of the test runner, where SwiftPM also puts the executables.
    static var binaries: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }

    /// The lprojd the tests start: the one built beside them, or
    /// `LPROJD_TEST_BINARY` (to run the black-box tests against another
    /// build, such as the one before a fix).
    static var lprojdPath: String {
        ProcessInfo.processInfo.environment["LPROJD_TEST_BINARY"] ?? binaries.appendingPathComponent("lprojd").path
    }

    /// Copies the demo bundle (or the given files) and starts lprojd on it.
    /// `dropIns` names its drop-in directories (made, in the daemon's
    /// directory, the first the one that wins), and `dropInFiles` what is in
    /// them at start (by path in the daemon's directory; `$BUNDLE` is the
    /// bundle's directory); without any, lprojd gets one that does not
    /// exist, so that no test reads the machine's. `beforeStart` runs last
    /// before lprojd starts.
    init(
        configuration: String? = nil, files: [String: String]? = nil, arguments: [String] = [], dropIns: [String] = [],
        dropInFiles: [String: String] = [:], launch: Launch = Launch(), beforeStart: (DaemonProcess) throws -> Void = { _ in }
    ) async throws {
        self.launch = launch
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("lprojd-it-\(UUID().uuidString.prefix(8))")
        configurationPath = directory.appendingPathComponent("lprojd.conf")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Other users (the per-uid tests) must reach the socket.
        chmod(directory.path, 0o755)
        notify = try launch.notify ?? NotifyListener(directory: directory)
        socket = directory.appendingPathComponent("run/org.lprojd.Localization").path
        stateDirectory = directory.appendingPathComponent("state").path
        bundleDirectory = directory.appendingPathComponent("bundle")
        if let files {
            for (path, contents) in files {
                let url = bundleDirectory.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(contents.utf8).write(to: url)
            }
        } else {
            try FileManager.default.copyItem(at: Self.packageRoot.appendingPathComponent("Examples/DemoApp"), to: bundleDirectory)
        }
        var arguments = arguments
        if let configuration {
            try Data(configuration.replacingOccurrences(of: "$BUNDLE", with: bundleDirectory.path).utf8).write(to: configurationPath)
            arguments += ["--config", configurationPath.path]
        } else {
            arguments += ["--bundle", "demo=\(bundleDirectory.path)"]
        }
        for name in dropIns {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(name), withIntermediateDirectories: true)
            chmod(directory.appendingPathComponent(name).path, 0o755)
            arguments += ["--drop-in-directory", directory.appendingPathComponent(name).path]
        }
        for (path, contents) in dropInFiles {
            try Data(contents.replacingOccurrences(of: "$BUNDLE", with: bundleDirectory.path).utf8).write(
                to: directory.appendingPathComponent(path))
        }
        if !arguments.contains("--drop-in-directory") {
            arguments += ["--drop-in-directory", directory.appendingPathComponent("no-drop-ins").path]
        }
        extraArguments = arguments
        if let owner = launch.writableBy {
            for path in [URL(fileURLWithPath: socket).deletingLastPathComponent().path, stateDirectory] {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                chown(path, owner, gid_t(owner))
            }
        }
        try beforeStart(self)
        try await start()
    }

    /// Stops a daemon the test left running, on a thread of its own: the
    /// last reference often goes on one of the few threads that run Swift's
    /// tasks, and waiting there could stall every other test. One that
    /// ignores SIGTERM for 10 s is killed.
    deinit {
        let process = self.process, directory = self.directory
        guard let process, process.isRunning else {
            try? FileManager.default.removeItem(at: directory)
            return
        }
        if launch.wrapperForks { kill(pid, SIGTERM) }
        process.terminate()
        Thread.detachNewThread {
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// Writes the configuration file (`$BUNDLE` is the bundle's directory).
    func writeConfiguration(_ text: String) throws {
        try Data(text.replacingOccurrences(of: "$BUNDLE", with: bundleDirectory.path).utf8).write(to: configurationPath)
    }

    /// Starts lprojd and returns once it is listening (or as `launch` says).
    func start() async throws {
        log.reset()
        let process = Process()
        let lprojd = Self.lprojdPath
        let arguments =
            (launch.passesSocketPath ? ["--socket", socket] : []) + ["--state-directory", stateDirectory, "--log-level", "debug"]
            + extraArguments
        if launch.wrapper.isEmpty {
            process.executableURL = URL(fileURLWithPath: lprojd)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = launch.wrapper + [lprojd] + arguments
        }
        let errors = Pipe()
        var environment = ProcessInfo.processInfo.environment
        for name in Launch.managerVariables { environment[name] = nil }
        // No test follows the machine's desktop languages by chance: only
        // a test that names a system bus gets one.
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(directory.path)/no-system-bus"
        // Snapshots go to a runtime directory of the test's own.
        let runtime = directory.appendingPathComponent("runtime")
        try? FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        environment["RUNTIME_DIRECTORY"] = nil
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment.merge(launch.environment) { $1 }
        environment["NOTIFY_SOCKET"] = notify.path
        if launch.stderrIsJournalStream {
            var info = stat()
            fstat(errors.fileHandleForWriting.fileDescriptor, &info)
            environment["JOURNAL_STREAM"] = "\(info.st_dev):\(info.st_ino)"
        }
        process.environment = environment
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let ready = AsyncStream<Void>.makeStream()
        let log = self.log
        let readyMarker: String? = if case .logLine(let line) = launch.readiness { line } else { nil }
        let notifiedBefore = notify.messages.count
        let reading = errors.fileHandleForReading
        // A thread of its own reads the log with blocking reads (Foundation's
        // readabilityHandler is fragile on Linux when descriptors close).
        let reader = Thread {
            while true {
                let data = reading.availableData
                if data.isEmpty { break }
                log.append(String(decoding: data, as: UTF8.self))
                if let readyMarker, log.text.contains(readyMarker) { ready.continuation.yield() }
            }
            ready.continuation.finish()
        }
        try process.run()
        reader.start()
        self.process = process
        switch launch.readiness {
        case .launched:
            return
        case .logLine:
            try await withTimeout(seconds: 30, "lprojd did not start:\n\(log.text)") {
                for await _ in ready.stream { return }
                throw DaemonError(description: "lprojd exited:\n\(log.text)")
            }
        case .notified:
            // READY=1, or the end of the log (lprojd exited), whichever comes first.
            let notify = self.notify
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    _ = try await notify.next("READY", "1", after: notifiedBefore, seconds: 30)
                    return true
                }
                group.addTask {
                    for await _ in ready.stream {}
                    return false
                }
                let started = try await group.next() ?? false
                group.cancelAll()
                guard started else { throw DaemonError(description: "lprojd exited:\n\(log.text)") }
            }
        }
    }

    /// lprojd's process id: the wrapper's, which execs it, or the
    /// wrapper's child.
    var pid: Int32 {
        guard let process else { return 0 }
        let wrapper = process.processIdentifier
        guard launch.wrapperForks else { return wrapper }
        let children = (try? String(contentsOfFile: "/proc/\(wrapper)/task/\(wrapper)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { Int32($0) } ?? wrapper
    }

    /// Sends a signal and returns at once.
    func send(_ signal: Int32) {
        if process != nil { kill(pid, signal) }
    }

    /// Waits for lprojd to end by itself; returns its exit status.
    func waitForExit(seconds: Double = 15) async throws -> Int32 {
        guard let process else { return -1 }
        try await withTimeout(seconds: seconds, "lprojd did not exit:\n\(self.output)") {
            while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        }
        self.process = nil
        return process.terminationStatus
    }

    /// Sends a signal and waits for the process to end.
    func stop(signal: Int32 = SIGTERM) async throws -> Int32 {
        guard let process else { return -1 }
        kill(pid, signal)
        try await withTimeout(seconds: 15, "lprojd did not stop") {
            while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        }
        self.process = nil
        return process.terminationStatus
    }

    /// Everything lprojd has logged.
    var output: String { log.text }

    /// Whether lprojd still runs, or how it ended, and the end of its log:
    /// for the message of a test that saw it go away.
    var postMortem: String {
        let condition: String
        if let process {
            condition =
                process.isRunning
                ? "lprojd is still running"
                : process.terminationReason == .uncaughtSignal
                    ? "lprojd was killed by signal \(process.terminationStatus)" : "lprojd exited with status \(process.terminationStatus)"
        } else {
            condition = "lprojd was stopped by the test"
        }
        return condition + "; the end of its log:\n" + output.split(separator: "\n").suffix(30).joined(separator: "\n")
    }

    /// lprojd's resident memory now, from /proc.
    var residentBytes: Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
    }

    func client() async throws -> LprojClient {
        try await LprojClient.connect(path: socket)
    }

    /// A call with any parameters, well-formed or not, on a connection of
    /// its own: for what lprojd must refuse, which the typed client cannot
    /// send. An error reply is thrown as the client would throw it.
    func call(_ method: String, _ parameters: JSONObject = [:]) async throws -> JSONObject {
        let connection = try await VarlinkConnection.connect(path: socket)
        defer { Task { await connection.close() } }
        let reply = try await connection.call(VarlinkCall(method: "org.lprojd.Localization.\(method)", parameters: parameters))
        if let error = reply.error { throw LprojError.varlink(VarlinkError(error, reply.parameters)) }
        return reply.parameters
    }

    func write(_ path: String, _ contents: String) throws {
        let url = bundleDirectory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    /// Installs a drop-in file as dpkg does: written as `NAME.dpkg-new`
    /// beside its place, then renamed into place. Returns when it renamed.
    @discardableResult
    func installDropIn(_ file: String, in dropIns: String, _ contents: String) throws -> ContinuousClock.Instant {
        let url = directory.appendingPathComponent("\(dropIns)/\(file)")
        let staged = url.appendingPathExtension("dpkg-new")
        try Data(contents.replacingOccurrences(of: "$BUNDLE", with: bundleDirectory.path).utf8).write(to: staged)
        let renamed = ContinuousClock.now
        guard rename(staged.path, url.path) == 0 else { throw DaemonError(description: "rename failed") }
        return renamed
    }

    /// A drop-in directory's path.
    func dropIns(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Writes a file next to its final place, then renames it over, as
    /// editors and `git checkout` do.
    func replace(_ path: String, _ contents: String) throws {
        let url = bundleDirectory.appendingPathComponent(path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp")
        try Data(contents.utf8).write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else { throw DaemonError(description: "rename failed") }
    }
}

/// What lprojd wrote to stderr.
final class LogBuffer: Sendable {
    private let buffer = Mutex("")

    func append(_ text: String) { buffer.withLock { $0 += text } }
    func reset() { buffer.withLock { $0 = "" } }
    var text: String { buffer.withLock { $0 } }
}

struct DaemonError: Error, CustomStringConvertible {
    let description: String
}

/// Records a subscription's events as they come, so that a test can wait
/// for the next one matching a condition, with a timeout.
final class EventRecorder: Sendable {
    private struct State {
        var events: [Localization.Event] = []
        var cursor = 0
        var ended = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(_ stream: AsyncThrowingStream<Localization.Event, any Error>) {
        let reader = Task { [weak self] in
            do {
                for try await event in stream {
                    guard let self else { return }
                    let waiters = self.state.withLock { state in
                        state.events.append(event)
                        defer { state.waiters = [:] }
                        return Array(state.waiters.values)
                    }
                    for waiter in waiters { waiter.resume() }
                }
            } catch {}
            guard let self else { return }
            let waiters = self.state.withLock { state in
                state.ended = true
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume() }
        }
        task.withLock { $0 = reader }
    }

    deinit { task.withLock { $0?.cancel() } }

    /// Every event so far.
    var events: [Localization.Event] { state.withLock { $0.events } }

    /// The next event (after those already returned) matching `predicate`.
    func next(timeout: Double = 10, where predicate: @escaping @Sendable (Localization.Event) -> Bool = { _ in true }) async throws
        -> Localization.Event
    {
        try await withTimeout(seconds: timeout, "no matching event; got \(self.events.map(\.type))") {
            while true {
                let found: Localization.Event?? = self.state.withLock { state in
                    while state.cursor < state.events.count {
                        let event = state.events[state.cursor]
                        state.cursor += 1
                        if predicate(event) { return .some(event) }
                    }
                    return state.ended ? .some(nil) : nil
                }
                if let found {
                    guard let event = found else { throw DaemonError(description: "the subscription ended") }
                    return event
                }
                await self.waitForMore()
                try Task.checkCancellation()
            }
        }
    }

    private func waitForMore() async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.cursor < state.events.count || state.ended || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}
