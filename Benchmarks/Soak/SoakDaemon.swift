import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// The release lprojd, started for one scenario of the soak.
final class SoakDaemon {
    let process = Process()
    let socket: String
    let directory: URL
    let log = LockedLog()
    /// The bundles served besides `demo`.
    let bundles: [String]

    /// Whether it serves a bundle of that name.
    func serves(_ name: String) -> Bool { name == "demo" || bundles.contains(name) }

    /// Starts lprojd (beside this binary) on `directory`'s socket, state and
    /// bundle, with `limits` as its configuration's limits section and
    /// `wrapper` (such as unshare) around it.
    init(
        directory: URL, limits: String = "{}", wrapper: [String] = [], stateDirectory: String? = nil,
        bundles: [(name: String, directory: String)] = []
    ) throws {
        socket = directory.appendingPathComponent("lprojd.sock").path
        self.directory = directory
        self.bundles = bundles.map(\.name)
        let configuration = directory.appendingPathComponent("lprojd.conf")
        let others = bundles.map { ", {name: \($0.name), directory: \($0.directory)}" }.joined()
        try Data(
            """
            bundles: [{name: demo, directory: \(directory.appendingPathComponent("bundle").path), development-locale: en}\(others)]
            limits: \(limits)
            """.utf8
        ).write(to: configuration)
        let lprojd = SoakPaths.lprojd
        let arguments = [
            "--socket", socket, "--state-directory", stateDirectory ?? directory.appendingPathComponent("state").path, "--config",
            configuration.path,
        ]
        if wrapper.isEmpty {
            process.executableURL = URL(fileURLWithPath: lprojd)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = wrapper + [lprojd] + arguments
        }
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        let log = self.log
        let ready = DispatchSemaphore(value: 0)
        let reading = pipe.fileHandleForReading
        let reader = Thread {
            var signalled = false
            while true {
                let data = reading.availableData
                if data.isEmpty { break }
                log.append(String(decoding: data, as: UTF8.self))
                if !signalled, log.text.contains("listening on") {
                    signalled = true
                    ready.signal()
                }
            }
            if !signalled { ready.signal() }
        }
        try process.run()
        reader.start()
        guard ready.wait(timeout: .now() + 60) == .success, log.text.contains("listening on") else {
            process.terminate()
            throw SoakFailure("lprojd did not start:\n\(log.text)")
        }
    }

    /// lprojd's pid (the wrapper's child, if it runs one that forks).
    var pid: Int32 {
        let wrapper = process.processIdentifier
        if let children = try? String(contentsOfFile: "/proc/\(wrapper)/task/\(wrapper)/children", encoding: .utf8),
            let child = children.split(separator: " ").first.flatMap({ Int32($0) })
        {
            return child
        }
        return wrapper
    }

    /// Resident memory, from /proc.
    var residentBytes: Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
    }

    /// Throws, saying how lprojd ended and the end of its log, unless it
    /// still runs: a scenario's failure is first of all lprojd's death.
    func expectRunning(during scenario: String) throws {
        guard !process.isRunning else { return }
        let how =
            process.terminationReason == .uncaughtSignal
            ? "was killed by signal \(process.terminationStatus)" : "exited with status \(process.terminationStatus)"
        let tail = log.text.split(separator: "\n").suffix(30).joined(separator: "\n")
        throw SoakFailure("lprojd \(how) during \(scenario); the end of its log:\n\(tail)")
    }

    /// Runs `body`; if lprojd has died meanwhile, says that instead of
    /// what `body` returned or threw.
    func checking<Result>(_ scenario: String, _ body: () throws -> Result) throws -> Result {
        let result: Result
        do {
            result = try body()
        } catch {
            try expectRunning(during: scenario)
            throw error
        }
        try expectRunning(during: scenario)
        return result
    }

    func kill(_ signal: Int32 = SIGTERM) {
        Glibc.kill(pid, signal)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill() }
    }
}

final class LockedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
    func append(_ text: String) { lock.withLock { value += text } }
    var text: String { lock.withLock { value } }
    var lineCount: Int { lock.withLock { value.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) } } }
}

/// Where the soak finds things.
enum SoakPaths {
    static var directory: URL { URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent() }
    static var lprojd: String { directory.appendingPathComponent("lprojd").path }
    static var soak: String { URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path }
}

/// Samples a daemon's memory until stopped; keeps the peak.
final class MemorySampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peakBytes = 0
    private var running = true

    init(_ daemon: SoakDaemon) {
        let pid = daemon.pid
        peakBytes = daemon.residentBytes
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
                else { break }
                let bytes = (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
                lock.withLock { peakBytes = max(peakBytes, bytes) }
                usleep(20_000)
            }
        }
        thread.start()
    }

    func stop() -> Int {
        lock.withLock {
            running = false
            return peakBytes
        }
    }
}

/// Runs a program to its end and returns what it printed.
@discardableResult
func runProgram(_ arguments: [String], check: Bool = true) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.standardError
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    if check, process.terminationStatus != 0 {
        throw SoakFailure("\(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
}

/// Starts a program and returns it running, its standard output collected.
final class Background: @unchecked Sendable {
    let process = Process()
    private let output = LockedLog()
    private let done = DispatchSemaphore(value: 0)

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.standardError
        let reading = pipe.fileHandleForReading
        let output = self.output, done = self.done
        let reader = Thread {
            while true {
                let data = reading.availableData
                if data.isEmpty { break }
                output.append(String(decoding: data, as: UTF8.self))
            }
            done.signal()
        }
        try process.run()
        reader.start()
    }

    /// Waits until its output contains `marker`.
    func waitFor(_ marker: String, timeout: Double = 120) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !output.text.contains(marker) {
            guard Date() < deadline, process.isRunning else { throw SoakFailure("\(process.arguments ?? []) never printed \(marker)") }
            usleep(10_000)
        }
    }

    /// Waits for it to end; returns its output.
    func finish() -> String {
        process.waitUntilExit()
        done.wait()
        return output.text
    }
}

/// Bytes of a directory's files.
func directorySize(_ path: String) -> Int {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: "\(path)/\($1)")[.size] as? Int) ?? 0) }
}

/// The last non-empty line of a text.
func lastLine(_ text: String) -> String {
    text.split(separator: "\n").last.map(String.init) ?? ""
}
