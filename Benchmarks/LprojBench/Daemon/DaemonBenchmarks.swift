import Foundation
import LprojLocales
#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's benchmarks: the real lprojd (release build) as a separate
/// process, driven by a plain blocking client, against baselines measured
/// in the same run.
enum DaemonBenchmarks {
    /// The rows: all of them (`daemon`), or those of one connection's calls (`socket`), or the sliding window alone (`window`).
    enum Rows {
        case all, socket, window
    }

    static func run(smoke: Bool, rows selected: Rows = .all, window: WindowBenchmark.Options = .init()) throws -> [BenchmarkRow] {
        try Binaries.requireLprojd()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lproj-bench-daemon-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("bundle")
        let keys = try writeLookupBundle(at: bundle, keys: 10_000)

        var rows: [BenchmarkRow] = []
        if selected != .window {
            rows += try latency(directory: directory, bundle: bundle, keys: keys, smoke: smoke)
            rows += try pipelined(directory: directory, bundle: bundle, keys: keys, smoke: smoke)
        }
        rows += try WindowBenchmark.run(directory: directory, bundle: bundle, keys: keys, smoke: smoke, options: window)
        if selected == .all {
            rows += try reload(directory: directory, bundle: bundle, smoke: smoke)
            rows += try fanOut(directory: directory, bundle: bundle, smoke: smoke)
            rows += try startup(directory: directory, smoke: smoke)
        }
        return rows
    }

    /// en and de tables of `keys` keys; returns the keys.
    static func writeLookupBundle(at bundle: URL, keys count: Int) throws -> [String] {
        var keys: [String] = []
        var english = "", german = ""
        for index in 0..<count {
            let key = "screen\(index % 40).label.\(index)"
            keys.append(key)
            english += "\"\(key)\" = \"Label number \(index)\";\n"
            german += "\"\(key)\" = \"Beschriftung Nummer \(index)\";\n"
        }
        for (folder, text) in [("en.lproj", english), ("de.lproj", german)] {
            try FileManager.default.createDirectory(at: bundle.appendingPathComponent(folder), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: bundle.appendingPathComponent("\(folder)/Localizable.strings"))
        }
        return keys
    }

    static func startDaemon(
        directory: URL, bundles: [String], cpu: Int? = nil, configuration: String? = nil, binary: URL = Binaries.lprojd
    ) throws -> (ChildProcess, String) {
        let name = "lprojd-\(UUID().uuidString.prefix(6))"
        let socket = directory.appendingPathComponent("\(name).sock").path
        // A state directory of its own: two daemons may run side by side.
        var arguments = ["--socket", socket, "--state-directory", directory.appendingPathComponent("\(name).state").path]
        for bundle in bundles { arguments += ["--bundle", bundle] }
        if let configuration {
            let path = directory.appendingPathComponent("bench.conf")
            try Data(configuration.utf8).write(to: path)
            arguments += ["--config", path.path]
        }
        let daemon = try ChildProcess(binary, arguments, readyWhen: "listening on", cpu: cpu)
        return (daemon, socket)
    }

    static func lookupMessage(_ key: String) -> [UInt8] {
        Array(#"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"bench","key":"\#(key)","locale":"de"}}"#.utf8) + [0]
    }

    static func microseconds(_ seconds: Double) -> String { String(format: "%.1f µs", seconds * 1e6) }

    // MARK: Latency

    /// One call at a time: median round trip, against an echo server.
    static func latency(directory: URL, bundle: URL, keys: [String], smoke: Bool) throws -> [BenchmarkRow] {
        let calls = smoke ? 2_000 : 20_000
        let messages = (0..<1024).map { _ in lookupMessage(keys[Int.random(in: 0..<keys.count)]) }
        var rows: [BenchmarkRow] = []
        for pinned in [false, true] {
            if pinned { pinCurrentThread(to: 0) } else { unpinCurrentThread() }
            defer { unpinCurrentThread() }
            let cpu = pinned ? 0 : nil
            let echoPath = directory.appendingPathComponent("echo-\(pinned).sock").path
            let echo = try ChildProcess(Binaries.bench, ["--echo-server", echoPath], readyWhen: "listening", cpu: cpu)
            let echoSamples = try roundTrips(path: echoPath, messages: messages, calls: calls)
            echo.stop()
            let (daemon, socket) = try startDaemon(directory: directory, bundles: ["bench=\(bundle.path)@en"], cpu: cpu)
            let daemonSamples = try roundTrips(path: socket, messages: messages, calls: calls)
            // Formatting goes through ICU per call: its cost beside a lookup's.
            var formatRows: [BenchmarkRow] = []
            // Pinned: on one core the comparison shows CPU cost, not wake-ups.
            if pinned {
                let lookupMedian = Measure.medianOf(daemonSamples)
                for (style, extra) in [("currency", #""number":1234.5"#), ("simpleDate", #""date":1700000000"#)] {
                    let format = (0..<64).map { index in
                        Array(
                            #"{"method":"org.lprojd.Localization.Format","parameters":{"style":"\#(style)","locale":"\#(["de", "fr", "ja", "ar"][index % 4])",\#(extra)}}"#
                                .utf8) + [0]
                    }
                    let samples = try roundTrips(path: socket, messages: format, calls: calls / 4)
                    let median = Measure.medianOf(samples)
                    formatRows.append(
                        BenchmarkRow(
                            name:
                                "socket Format (\(style); de, fr, ja, ar), one at a time, one core (median; p99 \(microseconds(Measure.percentile(samples, 0.99))))",
                            measured: microseconds(median), baseline: "socket lookup \(microseconds(lookupMedian))",
                            ratio: String(format: "%.2f× lookup", median / lookupMedian), target: "", passed: nil))
                }
            }
            daemon.stop()
            let ours = Measure.medianOf(daemonSamples), floor = Measure.medianOf(echoSamples)
            rows.append(
                BenchmarkRow(
                    name:
                        "socket lookup, one at a time, \(pinned ? "both on one core" : "unpinned") (median; p99 \(microseconds(Measure.percentile(daemonSamples, 0.99))))",
                    measured: microseconds(ours), baseline: "Unix-socket echo \(microseconds(floor))",
                    ratio: String(format: "%.2f× echo", ours / floor), target: "≤ 2× echo", passed: ours <= 2 * floor))
            rows += formatRows
        }
        return rows
    }

    static func roundTrips(path: String, messages: [[UInt8]], calls: Int) throws -> [Double] {
        let socket = try BenchSocket(path: path)
        for index in 0..<200 {  // warm up, and check that the calls succeed
            socket.send(messages[index % messages.count])
            guard let reply = socket.receiveText() else { throw BenchmarkFailure("the server closed the connection") }
            if reply.contains("\"error\"") { throw BenchmarkFailure("the call failed: \(reply)") }
        }
        var samples: [Double] = []
        samples.reserveCapacity(calls)
        for index in 0..<calls {
            let start = DispatchTime.now().uptimeNanoseconds
            socket.send(messages[index % messages.count])
            guard socket.receive() >= 0 else { throw BenchmarkFailure("the server closed the connection") }
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return samples
    }

    // MARK: Pipelining

    /// 64 calls outstanding on one connection: lookups per second.
    static func pipelined(directory: URL, bundle: URL, keys: [String], smoke: Bool) throws -> [BenchmarkRow] {
        let total = smoke ? 20_000 : 300_000
        let window = 64
        let messages = (0..<4096).map { _ in lookupMessage(keys[Int.random(in: 0..<keys.count)]) }
        let (daemon, socket) = try startDaemon(directory: directory, bundles: ["bench=\(bundle.path)@en"])
        defer { daemon.stop() }
        func measure(_ path: String) throws -> Double {
            let client = try BenchSocket(path: path)
            var sent = 0, received = 0
            let start = DispatchTime.now().uptimeNanoseconds
            var batch: [UInt8] = []
            for _ in 0..<window {
                batch += messages[sent % messages.count]
                sent += 1
            }
            client.send(batch)
            while received < total {
                guard client.receive() >= 0 else { throw BenchmarkFailure("the server closed the connection") }
                received += 1
                // Refill the window in batches, as a pipelining client does.
                if sent < total && sent - received <= window / 2 {
                    batch.removeAll(keepingCapacity: true)
                    while sent < total && sent - received < window {
                        batch += messages[sent % messages.count]
                        sent += 1
                    }
                    client.send(batch)
                }
            }
            return Double(total) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let rate = try measure(socket)
        let echoPath = directory.appendingPathComponent("echo-pipe.sock").path
        let echo = try ChildProcess(Binaries.bench, ["--echo-server", echoPath], readyWhen: "listening")
        let floor = try measure(echoPath)
        echo.stop()
        return [
            BenchmarkRow(
                name: "socket lookups, 64 outstanding on one connection", measured: String(format: "%.0fk/s", rate / 1000),
                baseline: String(format: "echo %.0fk/s", floor / 1000), ratio: String(format: "%.2f× echo", rate / floor),
                target: "≥ 150k/s", passed: rate >= 150_000)
        ]
    }

    // MARK: Reload

    /// From rename() of a 1k-key table to a subscriber's tablesChanged,
    /// against the inotify event alone.
    static func reload(directory: URL, bundle: URL, smoke: Bool) throws -> [BenchmarkRow] {
        let rounds = smoke ? 20 : 300
        let reloadBundle = directory.appendingPathComponent("reload")
        _ = try writeLookupBundle(at: reloadBundle, keys: 10)
        let (daemon, socket) = try startDaemon(directory: directory, bundles: ["reload=\(reloadBundle.path)@en"])
        defer { daemon.stop() }
        let subscriber = try BenchSocket(path: socket)
        subscriber.send(Array(#"{"method":"org.lprojd.Localization.Subscribe","parameters":{"bundle":"reload"},"more":true}"#.utf8) + [0])
        _ = subscriber.receiveText()
        let table = reloadBundle.appendingPathComponent("de.lproj/Localizable.strings")
        let temporary = reloadBundle.appendingPathComponent("de.lproj/.next.strings")
        func content(_ round: Int) -> Data {
            var text = ""
            for index in 0..<1000 { text += "\"key.\(index)\" = \"Wert \(index) in Runde \(round)\";\n" }
            return Data(text.utf8)
        }
        let samples = try announcementLatencies(subscriber: subscriber, table: table, staging: temporary, rounds: rounds, content: content)
        // Baseline: the same rename seen by a bare inotify watch.
        let watch = inotify_init1(0)
        defer { close(watch) }
        inotify_add_watch(watch, reloadBundle.appendingPathComponent("de.lproj").path, UInt32(IN_MOVED_TO))
        var floors: [Double] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for round in 0..<rounds {
            try content(round).write(to: temporary)
            let start = DispatchTime.now().uptimeNanoseconds
            rename(temporary.path, table.path)
            _ = buffer.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
            floors.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            while subscriber.hasBufferedMessage || poll1(subscriber.descriptor, timeoutMilliseconds: 50) {
                if subscriber.receiveText() == nil { break }
            }
        }
        let p50 = Measure.medianOf(samples), p99 = Measure.percentile(samples, 0.99)
        return [
            BenchmarkRow(
                name: "reload: rename() of a 1k-key table to tablesChanged (p50; p99 \(microseconds(p99)))",
                measured: microseconds(p50), baseline: "inotify event alone \(microseconds(Measure.medianOf(floors)))",
                ratio: "", target: "p50 ≤ 2 ms, p99 ≤ 10 ms", passed: p50 <= 0.002 && p99 <= 0.010)
        ]
    }

    /// Writes `content(round)` to `staging` and renames it over `table`,
    /// `rounds` times: the seconds from each `rename()` until `subscriber`
    /// (subscribed to the table's bundle) reads `tablesChanged`.
    /// Longer than the event hub's tick (`EventDelivery.tick`, 10 ms).
    static let quietGap: Duration = .milliseconds(15)

    static func announcementLatencies(
        subscriber: BenchSocket, table: URL, staging: URL, rounds: Int, content: (Int) -> Data
    ) throws -> [Double] {
        var samples: [Double] = []
        for round in 0..<rounds {
            try content(round).write(to: staging)
            // A subscriber gets at most one delivery per tick of the event hub
            // (10 ms); changes closer together merge into the next tick's one.
            // Waiting out the tick measures one change's way to a subscriber,
            // not the rate limit.
            usleep(useconds_t(Measure.seconds(quietGap) * 1e6))
            let start = DispatchTime.now().uptimeNanoseconds
            guard rename(staging.path, table.path) == 0 else { throw BenchmarkFailure("rename failed") }
            while let text = subscriber.receiveText(), !text.contains("tablesChanged") {}
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return samples
    }

    static func poll1(_ descriptor: Int32, timeoutMilliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, timeoutMilliseconds) > 0
    }

    // MARK: Fan-out

    /// 1,000 subscribers: how long until each has an event.
    static func fanOut(directory: URL, bundle: URL, smoke: Bool) throws -> [BenchmarkRow] {
        let count = smoke ? 200 : 1000
        let rounds = smoke ? 5 : 30
        // One uid holds all the subscribers: the per-uid limits are raised
        // for them (by default a uid may hold 256 connections and 128
        // subscriptions).
        let (daemon, socket) = try startDaemon(
            directory: directory, bundles: ["bench=\(bundle.path)@en"],
            configuration:
                "limits:\n  max-connections-per-uid: \(count + 64)\n  max-subscriptions-per-uid: \(count + 64)\n  max-memory-per-uid: 256 MiB\n"
        )
        defer { daemon.stop() }
        let subscribe = Array(#"{"method":"org.lprojd.Localization.Subscribe","more":true}"#.utf8) + [0]
        let subscribers = try (0..<count).map { _ in try confirmedConnection(at: socket, first: subscribe) }
        let trigger = try confirmedConnection(at: socket, first: lookupMessage("k0"))
        var samples: [Double] = []
        for round in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            trigger.send(
                Array(
                    #"{"method":"org.lprojd.Localization.AddStrings","parameters":{"client":"bench","bundle":"bench","locale":"de","strings":{"k\#(round)":"v"}}}"#
                        .utf8) + [0])
            samples += waitForAll(subscribers, since: start)
            guard samples.count == (round + 1) * count else { throw BenchmarkFailure("subscribers lost their events (dropped?)") }
            _ = trigger.receive()
        }
        // Baseline: one process writing a message to 1,000 socket pairs.
        var pairs: [(Int32, BenchSocket)] = []
        for _ in 0..<count {
            var descriptors: [Int32] = [0, 0]
            socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors)
            pairs.append((descriptors[0], BenchSocket(descriptor: descriptors[1])))
        }
        defer { for (writer, _) in pairs { close(writer) } }
        var floors: [Double] = []
        let message: [UInt8] = Array(#"{"parameters":{"event":{"type":"tablesChanged"}},"continues":true}"#.utf8) + [0]
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            for (writer, _) in pairs { _ = message.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } }
            floors += waitForAll(pairs.map(\.1), since: start)
        }
        let p99 = Measure.percentile(samples, 0.99)
        return [
            BenchmarkRow(
                name: "fan-out: \(count) subscribers each get an event (p99; p50 \(microseconds(Measure.medianOf(samples))))",
                measured: String(format: "%.1f ms", p99 * 1000),
                baseline: String(format: "writing \(count) socket pairs %.1f ms", Measure.percentile(floors, 0.99) * 1000),
                ratio: "", target: "p99 ≤ 50 ms", passed: p99 <= 0.050)
        ]
    }

    /// A connection lprojd has answered `first` on. lprojd closes a uid's
    /// connections beyond its rate (a burst of 512, then 200 a second)
    /// before reading them, so one closed is opened again a little later: a
    /// thousand opened at once would leave about half of them closed, and
    /// the connection that triggers the events after them closed too.
    static func confirmedConnection(at socket: String, first: [UInt8]) throws -> BenchSocket {
        for _ in 0..<1000 {
            let connection = try BenchSocket(path: socket)
            connection.send(first)
            if connection.receiveText() != nil { return connection }
            usleep(5_000)
        }
        throw BenchmarkFailure("lprojd closed every connection for five seconds")
    }

    /// When each socket has its next message, in seconds since `start`.
    static func waitForAll(_ sockets: [BenchSocket], since start: UInt64) -> [Double] {
        var pending = Set(sockets.indices)
        var latencies: [Double] = []
        var entries = sockets.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        while !pending.isEmpty {
            for index in pending where sockets[index].hasBufferedMessage {
                _ = sockets[index].receive()
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                pending.remove(index)
            }
            guard poll(&entries, nfds_t(entries.count), 1000) > 0 else { break }
            let now = DispatchTime.now().uptimeNanoseconds
            for index in pending where entries[index].revents != 0 {
                _ = sockets[index].receive()
                latencies.append(Double(now - start) / 1e9)
                pending.remove(index)
            }
            // A socket that has answered leaves the poll set (a negative
            // descriptor is skipped): one the daemon closed would report
            // POLLHUP whatever its events, and poll would spin.
            for index in entries.indices where !pending.contains(index) { entries[index].fd = -1 }
        }
        return latencies
    }

    // MARK: Startup

    /// 100 locales × 20 tables × 1,000 keys: time to listening, and memory.
    static func startup(directory: URL, smoke: Bool) throws -> [BenchmarkRow] {
        let (localeCount, tableCount, keyCount) = smoke ? (10, 5, 200) : (100, 20, 1000)
        let big = directory.appendingPathComponent("big")
        let locales = KnownLocales.available.map(\.tag).filter { !$0.contains("-") || $0.split(separator: "-").count == 2 }.prefix(
            localeCount)
        var fileBytes = 0
        var files: [URL] = []
        for locale in locales {
            let folder = big.appendingPathComponent("\(locale).lproj")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for table in 0..<tableCount {
                var text = ""
                text.reserveCapacity(keyCount * 60)
                for key in 0..<keyCount { text += "\"table\(table).key.\(key)\" = \"Value \(key) of table \(table) in \(locale)\";\n" }
                let url = folder.appendingPathComponent("Table\(table).strings")
                try Data(text.utf8).write(to: url)
                fileBytes += text.utf8.count
                files.append(url)
            }
        }
        let entries = locales.count * tableCount * keyCount
        let start = DispatchTime.now().uptimeNanoseconds
        let (daemon, socket) = try startDaemon(directory: directory, bundles: ["big=\(big.path)@\(locales.first ?? "en")"])
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let client = try BenchSocket(path: socket)
        client.send(Array(#"{"method":"org.lprojd.Localization.GetStatus"}"#.utf8) + [0])
        let status = client.receiveText() ?? ""
        let rss = daemon.residentBytes
        daemon.stop()
        guard status.contains("\"entries\":\(entries)") else {
            throw BenchmarkFailure("lprojd loaded a different number of entries: \(status)")
        }
        // Baseline: Foundation reading the same files, one after another, in this process.
        let foundation = try Measure.median(rounds: 1) {
            for file in files {
                _ = try PropertyListSerialization.propertyList(from: Data(contentsOf: file), options: [], format: nil)
            }
        }
        return [
            BenchmarkRow(
                name:
                    "startup: \(entries / 1000)k entries (\(locales.count) locales × \(tableCount) tables × \(keyCount) keys, \(fileBytes / 1_000_000) MB) to listening; RSS \(rss / 1_000_000) MB",
                measured: String(format: "%.2f s", seconds), baseline: String(format: "Foundation parsing the files %.2f s", foundation),
                ratio: String(format: "%.1f× faster", foundation / seconds), target: "≤ 3 s", passed: seconds <= 3)
        ]
    }
}
