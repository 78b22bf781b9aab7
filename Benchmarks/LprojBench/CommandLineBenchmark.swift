import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// `lprojctl` as a whole process, the way scripts and people run it: a
/// one-shot lookup against the real lprojd, and `dump` of a 100k-entry
/// table, each against a baseline of the same run.
///
/// The figures depend on how lprojctl is linked: `make release` links the
/// Swift runtime and Foundation in (what `make install` installs); a plain
/// `swift build` links them as shared libraries, which costs a lookup about
/// 10 ms more in loading alone. The row says which was measured; `make
/// bench` measures the static one.
enum CommandLineBenchmark {
    static func run(smoke: Bool, lprojctl: URL) throws -> [BenchmarkRow] {
        try Binaries.requireLprojd()
        guard FileManager.default.isExecutableFile(atPath: lprojctl.path) else {
            throw BenchmarkFailure(
                "\(lprojctl.path) is missing: build it first (swift build -c release --product lprojctl), or pass --lprojctl PATH")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lproj-bench-cli-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let linkage = isLinkedStatically(lprojctl) ? "static" : "shared Swift libraries"
        return try oneShotLookups(directory: directory, lprojctl: lprojctl, linkage: linkage, smoke: smoke)
            + dump(directory: directory, lprojctl: lprojctl, linkage: linkage, smoke: smoke)
    }

    // MARK: One-shot lookups

    static func oneShotLookups(directory: URL, lprojctl: URL, linkage: String, smoke: Bool) throws -> [BenchmarkRow] {
        let bundle = directory.appendingPathComponent("lookup")
        _ = try DaemonBenchmarks.writeLookupBundle(at: bundle, keys: 1000)
        let (daemon, socket) = try DaemonBenchmarks.startDaemon(directory: directory, bundles: ["bench=\(bundle.path)@en"])
        defer { daemon.stop() }
        let plain = ["lookup", "bench", "screen1.label.1", "--locale", "de", "--socket", socket]
        guard try output(of: lprojctl, plain) == "Beschriftung Nummer 1\n" else {
            throw BenchmarkFailure("lprojctl lookup answered wrongly")
        }
        let rounds = smoke ? 10 : 200
        let quick = try medianRun(lprojctl, plain, rounds: rounds)
        // The same lookup through the argument parser and an event loop
        // (what every lookup took before the quick path).
        let parsed = try medianRun(lprojctl, plain + ["--json"], rounds: rounds)
        return [
            BenchmarkRow(
                name: "lprojctl lookup, whole process (\(linkage); median)", measured: Measure.duration(quick),
                baseline: "through the parser (--json) \(Measure.duration(parsed))", ratio: String(format: "%.1f× faster", parsed / quick),
                target: "≤ 5 ms", passed: quick <= 5e-3)
        ]
    }

    // MARK: Dump

    static func dump(directory: URL, lprojctl: URL, linkage: String, smoke: Bool) throws -> [BenchmarkRow] {
        let count = smoke ? 10_000 : 100_000
        let bundle = directory.appendingPathComponent("dump")
        _ = try DaemonBenchmarks.writeLookupBundle(at: bundle, keys: count)
        let file = bundle.appendingPathComponent("de.lproj/Localizable.strings")
        let data = try Data(contentsOf: file)
        let rounds = smoke ? 3 : 10
        var foundation: [Double] = []
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            guard let parsed = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String],
                parsed.count == count
            else { throw BenchmarkFailure("Foundation misread the table") }
            foundation.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let dumped = try medianRun(lprojctl, ["dump", file.path], rounds: rounds)
        let baseline = Measure.percentile(foundation, 0.5)
        return [
            BenchmarkRow(
                name: "lprojctl dump, \(count / 1000)k-entry .strings, whole process (\(linkage); median)",
                measured: Measure.duration(dumped), baseline: "Foundation parsing it in process \(Measure.duration(baseline))",
                ratio: String(format: "%.2f×", dumped / baseline), target: "≤ 1× Foundation", passed: dumped <= baseline)
        ]
    }

    // MARK: Processes

    /// The median wall time of `rounds` runs, start to exit, output
    /// discarded. Started with `posix_spawn` and reaped with `waitpid`:
    /// Foundation's `Process` added some 50 ms per run.
    static func medianRun(_ program: URL, _ arguments: [String], rounds: Int) throws -> Double {
        var samples: [Double] = []
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            let status = try spawnAndWait(program.path, arguments)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            guard status == 0 else { throw BenchmarkFailure("lprojctl \(arguments.joined(separator: " ")) failed") }
        }
        return Measure.percentile(samples, 0.5)
    }

    /// Runs a program with stdout and stderr on /dev/null; its exit status.
    static func spawnAndWait(_ path: String, _ arguments: [String]) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard result == 0 else { throw BenchmarkFailure("cannot start \(path): \(String(cString: strerror(result)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
    }

    static func output(of program: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether the binary carries the Swift runtime itself (no
    /// `libswiftCore.so` among the libraries it needs).
    static func isLinkedStatically(_ program: URL) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = [program.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return !text.contains("libswiftCore")
    }
}
