import CBenchSupport
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A process the benchmark starts (lprojd, or its own echo server), waited
/// for until it prints a line that says it is ready.
final class ChildProcess {
    let process = Process()
    private let output = LockedText()

    init(_ executable: URL, _ arguments: [String], readyWhen marker: String, cpu: Int? = nil, timeout: Double = 120) throws {
        if let cpu {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["taskset", "-c", String(cpu), executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let ready = DispatchSemaphore(value: 0)
        let output = self.output
        let handle = pipe.fileHandleForReading
        let reader = Thread {
            var signalled = false
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                output.append(String(decoding: data, as: UTF8.self))
                if !signalled && output.text.contains(marker) {
                    signalled = true
                    ready.signal()
                }
            }
            if !signalled { ready.signal() }
        }
        try process.run()
        reader.start()
        guard ready.wait(timeout: .now() + timeout) == .success, output.text.contains(marker) else {
            process.terminate()
            throw BenchmarkFailure("\(executable.lastPathComponent) did not get ready:\n\(output.text)")
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// Resident memory, from /proc.
    var residentBytes: Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
    }

    func stop() {
        if process.isRunning {
            kill(pid, SIGTERM)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
    func append(_ text: String) {
        lock.lock()
        value += text
        lock.unlock()
    }
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// The binaries built next to this one (`swift build -c release`).
enum Binaries {
    static var directory: URL { URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent() }
    static var lprojd: URL { directory.appendingPathComponent("lprojd") }
    static var bench: URL { URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath() }

    static func requireLprojd() throws {
        guard FileManager.default.isExecutableFile(atPath: lprojd.path) else {
            throw BenchmarkFailure("\(lprojd.path) is missing: build it first (swift build -c release --product lprojd)")
        }
    }
}

/// Pins the calling thread to one CPU.
func pinCurrentThread(to cpu: Int) {
    pin_current_thread(Int32(cpu))
}

/// Lets the calling thread run on every CPU again.
func unpinCurrentThread() {
    pin_current_thread(-1)
}
