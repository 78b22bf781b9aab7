import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// Attacks and probes from `lproj-soak`, run as unprivileged uids against a
/// test's daemon; lprojd's memory is sampled meanwhile.
struct Hostile {
    /// What `lproj-soak attack` reports.
    struct Report: Decodable {
        var calls: Int
        var limits: [String: Int]
        var errors: [String: Int]
        var closed: Int
        var note: String
        /// Answers that held text the attacker may not read.
        var leaked: Int
    }

    /// What `lproj-soak probe` reports.
    struct ProbeResult: Decodable {
        var lookups: Int
        var errors: Int
        var p50Microseconds: Double
        var p99Microseconds: Double
        var maxMicroseconds: Double
        /// SelectLocale, SupportedLocales and Format, every 50 ms.
        var otherCalls: Int
        var otherP99Microseconds: Double
        var otherMaxMicroseconds: Double
        /// Its own events, and how late after the call that caused each.
        var events: Int
        var eventsMissed: Int
        var eventMaxMicroseconds: Double
        /// Tables renamed into its own bundle, and how long until announced.
        var reloads: Int
        var reloadsMissed: Int
        var reloadP99Microseconds: Double
        var reloadMaxMicroseconds: Double
    }

    /// An attack, the other uid's probe during it, and lprojd's memory.
    struct Outcome {
        var report: Report
        var probe: ProbeResult
        /// Resident memory before the attack, and at its peak.
        var residentBefore: Int
        var residentPeak: Int
        var residentGrowth: Int { residentPeak - residentBefore }
    }

    static let attackerUID: uid_t = 4242
    static let probeUID: uid_t = 4243

    let daemon: DaemonProcess

    /// The attacks' binary: `LPROJ_SOAK_BINARY` (a release build, as
    /// `make test` passes), else the one built beside the tests.
    static var toolPath: URL {
        ProcessInfo.processInfo.environment["LPROJ_SOAK_BINARY"].map { URL(fileURLWithPath: $0) }
            ?? DaemonProcess.binaries.appendingPathComponent("lproj-soak")
    }

    /// Whether the attacks run against optimized builds: what they measure
    /// (stalls of milliseconds) means little in a debug build, where the
    /// attacker itself takes seconds to build its payloads.
    static var optimized: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["LPROJ_SOAK_BINARY"] != nil && environment["LPROJD_TEST_BINARY"] != nil
    }

    /// The soak tool, copied where other uids can run it.
    private var tool: String {
        get throws {
            let copy = daemon.directory.appendingPathComponent("lproj-soak")
            if !FileManager.default.fileExists(atPath: copy.path) {
                try FileManager.default.copyItem(at: Self.toolPath, to: copy)
                chmod(copy.path, 0o755)
            }
            return copy.path
        }
    }

    private func runAs(_ uid: uid_t, _ arguments: [String]) async throws -> Finished {
        try await run("setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", try tool] + arguments)
    }

    /// Runs `attack` as one uid for `seconds` while another uid's probe
    /// looks keys up, sampling lprojd's memory every 20 ms.
    func attack(
        _ attack: String, seconds: Double, scale: Double = 1, attackArguments: [String] = [], probeArguments: [String] = []
    ) async throws -> Outcome {
        _ = try tool  // copied once, before the two run at once
        let before = daemon.residentBytes
        let peak = Mutex(before)
        let sampling = Task {
            while !Task.isCancelled {
                let now = daemon.residentBytes
                peak.withLock { $0 = max($0, now) }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        async let probing = runAs(Self.probeUID, ["probe", "--socket", daemon.socket, "--seconds", String(seconds + 1)] + probeArguments)
        let attacked = try await runAs(
            Self.attackerUID,
            ["attack", attack, "--socket", daemon.socket, "--seconds", String(seconds), "--scale", String(scale)] + attackArguments)
        let probed = try await probing
        sampling.cancel()
        guard attacked.status == 0 else { throw DaemonError(description: "the attack failed: \(attacked.errors)\n\(daemon.postMortem)") }
        guard probed.status == 0 else { throw DaemonError(description: "the probe failed: \(probed.errors)\n\(daemon.postMortem)") }
        return Outcome(
            report: try JSONDecoder().decode(Report.self, from: Data(attacked.output.utf8)),
            probe: try JSONDecoder().decode(ProbeResult.self, from: Data(probed.output.utf8)),
            residentBefore: before, residentPeak: peak.withLock { $0 })
    }
}
