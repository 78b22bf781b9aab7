import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Lookups as an async app sends them: one connection keeps 64 calls
/// outstanding, and writes each call on its own as soon as a reply frees a
/// slot (the pipelined row writes them in batches). What it measures is the
/// daemon's CPU time per call, read from /proc, beside calls per second.
///
/// With `--baseline-daemon PATH` the same client runs against a second
/// lprojd too, alternating between the two round by round (the order
/// flipped each round), so that both see the same machine; against itself,
/// the pair shows the noise. The daemons run on one core and the client on
/// the other.
enum WindowBenchmark {
    /// What `--baseline-daemon`, `--rounds` and `--calls` asked for.
    struct Options {
        var baselineDaemon: URL?
        var rounds: Int?
        var calls: Int?
    }

    static let window = 64

    /// One daemon's round: calls per second, and CPU per call (all the
    /// daemon's threads, and its busiest one, which is the connection's
    /// event loop).
    struct Round {
        let callsPerSecond: Double
        let cpuPerCall: Double
        let busiestThreadPerCall: Double
        let busiestThread: String
    }

    static func run(directory: URL, bundle: URL, keys: [String], smoke: Bool, options: Options) throws -> [BenchmarkRow] {
        let rounds = options.rounds ?? (smoke ? 1 : 5)
        let calls = options.calls ?? (smoke ? 20_000 : 200_000)
        let messages = (0..<4096).map { _ in DaemonBenchmarks.lookupMessage(keys[Int.random(in: 0..<keys.count)]) }
        var daemons = [("lprojd", Binaries.lprojd)]
        if let baseline = options.baselineDaemon { daemons.append(("baseline", baseline)) }
        // The daemons on one core, the client on the other: no migrations.
        let started = try daemons.map { _, binary in
            try DaemonBenchmarks.startDaemon(directory: directory, bundles: ["bench=\(bundle.path)@en"], cpu: 1, binary: binary)
        }
        defer { for (daemon, _) in started { daemon.stop() } }
        pinCurrentThread(to: 0)
        defer { unpinCurrentThread() }
        var results = Array(repeating: [Round](), count: daemons.count)
        for round in 0..<rounds {
            let order = round % 2 == 0 ? Array(daemons.indices) : daemons.indices.reversed()
            for index in order {
                let (daemon, socket) = started[index]
                let result = try measure(pid: daemon.pid, socket: socket, messages: messages, calls: calls)
                results[index].append(result)
                FileHandle.standardError.write(
                    Data(
                        String(
                            format: "window round %d, %@: %.2f µs CPU per call (%@ %.2f µs), %.0fk calls/s\n", round + 1,
                            daemons[index].0, result.cpuPerCall * 1e6, result.busiestThread, result.busiestThreadPerCall * 1e6,
                            result.callsPerSecond / 1000
                        ).utf8))
            }
        }
        return rows(results, names: daemons.map(\.0), rounds: rounds)
    }

    static func rows(_ results: [[Round]], names: [String], rounds: Int) -> [BenchmarkRow] {
        func median(_ index: Int, _ value: (Round) -> Double) -> Double { Measure.medianOf(results[index].map(value)) }
        let cpu = median(0, \.cpuPerCall), loop = median(0, \.busiestThreadPerCall), rate = median(0, \.callsPerSecond)
        let what = "socket lookups, 64 outstanding, one write per call"
        let medians = "median of \(rounds) round\(rounds == 1 ? "" : "s")"
        guard results.count == 2 else {
            return [
                BenchmarkRow(
                    name: "\(what): daemon CPU per call (\(medians); on its busiest thread, the loop, \(microseconds(loop)))",
                    measured: microseconds(cpu), baseline: "(--baseline-daemon PATH compares)", ratio: "", target: "", passed: nil),
                BenchmarkRow(
                    name: "\(what): calls per second (\(medians))", measured: String(format: "%.0fk/s", rate / 1000), baseline: "",
                    ratio: "", target: "", passed: nil),
            ]
        }
        let baseCPU = median(1, \.cpuPerCall), baseLoop = median(1, \.busiestThreadPerCall), baseRate = median(1, \.callsPerSecond)
        return [
            BenchmarkRow(
                name: "\(what): daemon CPU per call (\(medians), alternating with the baseline lprojd)",
                measured: microseconds(cpu), baseline: "baseline lprojd \(microseconds(baseCPU))",
                ratio: String(format: "%.2f×", cpu / baseCPU), target: "≤ 0.5× baseline", passed: cpu <= 0.5 * baseCPU),
            BenchmarkRow(
                name: "\(what): CPU per call on the busiest thread, the loop (\(medians))",
                measured: microseconds(loop), baseline: "baseline lprojd \(microseconds(baseLoop))",
                ratio: String(format: "%.2f×", loop / baseLoop), target: "≤ 0.5× baseline", passed: loop <= 0.5 * baseLoop),
            BenchmarkRow(
                name: "\(what): calls per second (\(medians))", measured: String(format: "%.0fk/s", rate / 1000),
                baseline: String(format: "baseline lprojd %.0fk/s", baseRate / 1000), ratio: String(format: "%.2f×", rate / baseRate),
                target: "", passed: nil),
        ]
    }

    static func microseconds(_ seconds: Double) -> String { String(format: "%.2f µs", seconds * 1e6) }

    /// A warm-up, then `calls` lookups on a new connection, with the
    /// daemon's CPU time read before and after.
    static func measure(pid: Int32, socket: String, messages: [[UInt8]], calls: Int) throws -> Round {
        let client = try BenchSocket(path: socket)
        try slide(client, messages: messages, calls: min(calls, 20_000), checked: true)
        let before = ThreadTimes(pid: pid)
        let start = DispatchTime.now().uptimeNanoseconds
        try slide(client, messages: messages, calls: calls, checked: false)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let after = ThreadTimes(pid: pid)
        let used = after.since(before)
        let busiest = used.max { $0.value < $1.value }
        return Round(
            callsPerSecond: Double(calls) / seconds, cpuPerCall: Double(used.values.reduce(0, +)) / 1e9 / Double(calls),
            busiestThreadPerCall: Double(busiest?.value ?? 0) / 1e9 / Double(calls), busiestThread: after.names[busiest?.key ?? 0] ?? "?")
    }

    /// The sliding window: 64 calls written one by one, then one more
    /// written for each reply read.
    static func slide(_ client: BenchSocket, messages: [[UInt8]], calls: Int, checked: Bool) throws {
        var sent = 0
        var received = 0
        while sent < min(window, calls) {
            client.send(messages[sent % messages.count])
            sent += 1
        }
        while received < calls {
            if checked {
                guard let reply = client.receiveText() else { throw BenchmarkFailure("the server closed the connection") }
                if reply.contains("\"error\"") { throw BenchmarkFailure("the call failed: \(reply)") }
            } else {
                guard client.receive() >= 0 else { throw BenchmarkFailure("the server closed the connection") }
            }
            received += 1
            if sent < calls {
                client.send(messages[sent % messages.count])
                sent += 1
            }
        }
    }
}

/// The CPU time of each of a process's threads, in nanoseconds, from
/// /proc/PID/task/TID/schedstat (the scheduler's own count, not ticks).
struct ThreadTimes {
    var nanoseconds: [Int: UInt64] = [:]
    var names: [Int: String] = [:]

    init(pid: Int32) {
        let tasks = "/proc/\(pid)/task"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let tid = Int(entry),
                let schedstat = try? String(contentsOfFile: "\(tasks)/\(entry)/schedstat", encoding: .utf8),
                let time = schedstat.split(separator: " ").first.flatMap({ UInt64($0) })
            else { continue }
            nanoseconds[tid] = time
            names[tid] = (try? String(contentsOfFile: "\(tasks)/\(entry)/comm", encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
    }

    /// Each thread's time since `earlier` (a thread started since counts from zero).
    func since(_ earlier: ThreadTimes) -> [Int: UInt64] {
        nanoseconds.reduce(into: [:]) { result, entry in
            result[entry.key] = entry.value - min(entry.value, earlier.nanoseconds[entry.key] ?? 0)
        }
    }
}
