import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Drop-in bundle files (`--only dropins`): lprojd's start with a thousand
/// of them, against the same bundles listed in `lprojd.conf`; and a file
/// renamed into a drop-in directory until a subscriber hears of its
/// bundle, against the inotify event alone.
enum DropInBenchmark {
    static func run(smoke: Bool) throws -> [BenchmarkRow] {
        try Binaries.requireLprojd()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lproj-bench-dropins-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try startup(directory: directory, smoke: smoke) + latency(directory: directory, smoke: smoke)
    }

    /// A daemon with these arguments, started and listening; the seconds it took.
    static func start(_ directory: URL, _ arguments: [String]) throws -> (ChildProcess, String, Double) {
        let name = "lprojd-\(UUID().uuidString.prefix(6))"
        let socket = directory.appendingPathComponent("\(name).sock").path
        let started = DispatchTime.now().uptimeNanoseconds
        let daemon = try ChildProcess(
            Binaries.lprojd, ["--socket", socket, "--state-directory", directory.appendingPathComponent("\(name).state").path] + arguments,
            readyWhen: "listening on")
        return (daemon, socket, Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
    }

    // MARK: Start-up

    /// 1,000 bundles (en and de, 10 keys each), each registered by its own
    /// drop-in, against the same bundles in `lprojd.conf`: time to listening,
    /// alternating, median of the rounds.
    static func startup(directory: URL, smoke: Bool) throws -> [BenchmarkRow] {
        let count = smoke ? 100 : 1000
        let rounds = smoke ? 2 : 5
        let dropIns = directory.appendingPathComponent("bundles.d")
        try FileManager.default.createDirectory(at: dropIns, withIntermediateDirectories: true)
        chmod(dropIns.path, 0o755)
        var configuration = "bundles:\n"
        for index in 0..<count {
            let name = "org.example.App\(index)"
            let bundle = directory.appendingPathComponent("bundles/\(name)")
            _ = try DaemonBenchmarks.writeLookupBundle(at: bundle, keys: 10)
            try Data("directory: ../bundles/\(name)\n".utf8).write(to: dropIns.appendingPathComponent("\(name).conf"))
            configuration += "  - name: \(name)\n    directory: \(bundle.path)\n"
        }
        let listed = directory.appendingPathComponent("listed.conf")
        try Data(configuration.utf8).write(to: listed)
        let none = directory.appendingPathComponent("no-drop-ins").path
        var fromDropIns: [Double] = [], fromConfiguration: [Double] = []
        for _ in 0..<rounds {
            for usesDropIns in [true, false] {
                let arguments =
                    usesDropIns ? ["--drop-in-directory", dropIns.path] : ["--config", listed.path, "--drop-in-directory", none]
                let (daemon, socket, seconds) = try start(directory, arguments)
                let client = try BenchSocket(path: socket)
                client.send(Array(#"{"method":"org.lprojd.Localization.GetStatus"}"#.utf8) + [0])
                let status = client.receiveText() ?? ""
                daemon.stop()
                guard status.contains("\"bundles\":\(count)") else { throw BenchmarkFailure("lprojd served other bundles: \(status)") }
                if usesDropIns { fromDropIns.append(seconds) } else { fromConfiguration.append(seconds) }
            }
        }
        let ours = Measure.medianOf(fromDropIns), baseline = Measure.medianOf(fromConfiguration)
        return [
            BenchmarkRow(
                name: "startup: \(count) bundles, each from its own drop-in, to listening (median of \(rounds))",
                measured: Measure.duration(ours), baseline: "the same in lprojd.conf \(Measure.duration(baseline))",
                ratio: String(format: "%.2f×", ours / baseline), target: "≤ 1.5× lprojd.conf", passed: ours <= 1.5 * baseline)
        ]
    }

    // MARK: Latency

    /// A drop-in written as dpkg writes it (`NAME.conf.dpkg-new`, then
    /// renamed into place) until a subscriber reads `bundleChanged`; then
    /// removed, until the next. Against a bare inotify watch on the
    /// directory seeing the rename.
    static func latency(directory: URL, smoke: Bool) throws -> [BenchmarkRow] {
        let rounds = smoke ? 20 : 200
        let live = directory.appendingPathComponent("live.d")
        try FileManager.default.createDirectory(at: live, withIntermediateDirectories: true)
        chmod(live.path, 0o755)
        let bundle = directory.appendingPathComponent("live-bundle")
        _ = try DaemonBenchmarks.writeLookupBundle(at: bundle, keys: 100)
        let (daemon, socket, _) = try start(directory, ["--drop-in-directory", live.path, "--bundle", "bench=\(bundle.path)@en"])
        defer { daemon.stop() }
        let subscriber = try BenchSocket(path: socket)
        subscriber.send(Array(#"{"method":"org.lprojd.Localization.Subscribe","more":true}"#.utf8) + [0])
        _ = subscriber.receiveText()
        let file = live.appendingPathComponent("org.example.Live.conf"),
            staged = live.appendingPathComponent("org.example.Live.conf.dpkg-new")
        try Data("directory: \(bundle.path)\n".utf8).write(to: staged)
        var installs: [Double] = [], removals: [Double] = []
        for _ in 0..<rounds {
            // Past the event hub's tick (10 ms): one change's way, not the rate limit.
            usleep(useconds_t(Measure.seconds(DaemonBenchmarks.quietGap) * 1e6))
            var start = DispatchTime.now().uptimeNanoseconds
            guard rename(staged.path, file.path) == 0 else { throw BenchmarkFailure("rename failed") }
            while let text = subscriber.receiveText(), !text.contains("bundleChanged") {}
            installs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            try Data("directory: \(bundle.path)\n".utf8).write(to: staged)
            usleep(useconds_t(Measure.seconds(DaemonBenchmarks.quietGap) * 1e6))
            start = DispatchTime.now().uptimeNanoseconds
            unlink(file.path)
            while let text = subscriber.receiveText(), !text.contains("bundleChanged") {}
            removals.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        // Baseline: the same rename seen by a bare inotify watch.
        let watch = inotify_init1(0)
        defer { close(watch) }
        inotify_add_watch(watch, live.path, UInt32(IN_MOVED_TO))
        var floors: [Double] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let other = live.appendingPathComponent("baseline.txt"), otherStaged = live.appendingPathComponent("baseline.txt.new")
        for _ in 0..<rounds {
            try Data("x".utf8).write(to: otherStaged)
            let start = DispatchTime.now().uptimeNanoseconds
            rename(otherStaged.path, other.path)
            _ = buffer.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
            floors.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let p50 = Measure.medianOf(installs), p99 = Measure.percentile(installs, 0.99)
        let floor = DaemonBenchmarks.microseconds(Measure.medianOf(floors))
        return [
            BenchmarkRow(
                name: "drop-in: rename() into bundles.d to bundleChanged, bundle served (p50; p99 \(Measure.duration(p99)))",
                measured: Measure.duration(p50), baseline: "inotify event alone \(floor)", ratio: "",
                target: "served within 100 ms", passed: p99 <= 0.100),
            BenchmarkRow(
                name:
                    "drop-in: unlink() to bundleChanged, bundle withdrawn (p50; p99 \(Measure.duration(Measure.percentile(removals, 0.99))))",
                measured: Measure.duration(Measure.medianOf(removals)), baseline: "", ratio: "", target: "within 100 ms",
                passed: Measure.percentile(removals, 0.99) <= 0.100),
        ]
    }
}
