import CBenchSupport
import Foundation
import LprojEngine
import LprojFiles
import LprojLocales
import LprojLocalizer
import LprojSnapshot

/// The Swift localizer against the real lprojd (release build): lookups
/// from its mirror, how soon a renamed table reaches the mirror, and what
/// the mirror of a large table weighs, each with a baseline of the same run.
enum LocalizerBenchmark {
    static func run(smoke: Bool) async throws -> [BenchmarkRow] {
        try Binaries.requireLprojd()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lproj-bench-loc-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var rows: [BenchmarkRow] = []
        rows += try await lookups(directory: directory, smoke: smoke)
        rows += try await renames(directory: directory, smoke: smoke)
        rows += try await mirrorMemory(directory: directory, smoke: smoke)
        rows += try await snapshotStart(directory: directory, smoke: smoke)
        return rows
    }

    // MARK: Lookups

    /// Hits over a 10k-key table: the localizer's mirror, against the
    /// engine in process and Foundation's `Bundle` on the same files.
    static func lookups(directory: URL, smoke: Bool) async throws -> [BenchmarkRow] {
        let bundle = directory.appendingPathComponent("lookup")
        let allKeys = try DaemonBenchmarks.writeLookupBundle(at: bundle, keys: 10_000)
        let (daemon, socket) = try DaemonBenchmarks.startDaemon(directory: directory, bundles: ["bench=\(bundle.path)@en"])
        defer { daemon.stop() }
        let localizer = try await Localizer.start(bundle: "bench", client: "bench.lookup", socketPath: socket, preferredLanguages: ["de"])
        var generator = SystemRandomNumberGenerator()
        let keys = (0..<4096).map { _ in allKeys[Int.random(in: 0..<allKeys.count, using: &generator)] }
        guard keys.allSatisfy({ localizer.localized($0).hasPrefix("Beschriftung") }) else {
            throw BenchmarkFailure("the localizer missed some of its lookups")
        }
        let rounds = smoke ? 20 : 400
        var sink = 0
        let mirrored = LookupBenchmark.perLookup(rounds: rounds, batch: 1000) { offset in
            sink &+= localizer.localized(keys[offset & 4095]).utf8.count
        }
        let engine = BundleLoader(files: DiskFileTree()).load(
            BundleConfiguration(name: "bench", directory: bundle.path, developmentLocale: try LocaleIdentifier("en")))
        let resolved = try engine.resolve(locale: "de")
        let inProcess = LookupBenchmark.perLookup(rounds: rounds, batch: 1000) { offset in
            sink &+= engine.lookup(keys[offset & 4095], locale: resolved).value.utf8.count
        }
        guard let foundationBundle = Bundle(path: bundle.appendingPathComponent("de.lproj").path) else {
            throw BenchmarkFailure("Foundation could not open the bundle")
        }
        let foundation = LookupBenchmark.perLookup(rounds: rounds / 4, batch: 1000) { offset in
            sink &+= foundationBundle.localizedString(forKey: keys[offset & 4095], value: nil, table: nil).utf8.count
        }
        await localizer.close()
        guard sink > 0 else { throw BenchmarkFailure("nothing was looked up") }
        return [
            BenchmarkRow(
                name: "Swift localizer: lookup hit, 10k keys (median)", measured: LookupBenchmark.nanoseconds(mirrored),
                baseline: "engine \(LookupBenchmark.nanoseconds(inProcess)), Bundle \(LookupBenchmark.nanoseconds(foundation))",
                ratio: String(format: "%.1f× Bundle", foundation / mirrored), target: "≤ 100 ns", passed: mirrored <= 100e-9)
        ]
    }

    // MARK: Renames

    /// A table renamed into place until the localizer's mirror answers its
    /// new value, against a plain subscriber's `tablesChanged` event.
    static func renames(directory: URL, smoke: Bool) async throws -> [BenchmarkRow] {
        let bundle = directory.appendingPathComponent("rename")
        _ = try DaemonBenchmarks.writeLookupBundle(at: bundle, keys: 200)
        let (daemon, socket) = try DaemonBenchmarks.startDaemon(directory: directory, bundles: ["bench=\(bundle.path)@en"])
        defer { daemon.stop() }
        let localizer = try await Localizer.start(bundle: "bench", client: "bench.rename", socketPath: socket, preferredLanguages: ["de"])
        let changes = localizer.changes()
        var iterator = changes.makeAsyncIterator()
        let table = bundle.appendingPathComponent("de.lproj/Localizable.strings")
        let staging = bundle.appendingPathComponent("de.lproj/.Localizable.strings.new")
        let clock = ContinuousClock()
        var samples: [Double] = []
        for round in 0..<(smoke ? 20 : 200) {
            let value = "Version \(round)"
            try Data("\"probe\" = \"\(value)\";\n\"screen0.label.0\" = \"Beschriftung\";\n".utf8).write(to: staging)
            // As for the bare subscriber: one change, not the hub's rate limit.
            try await Task.sleep(for: DaemonBenchmarks.quietGap)
            let start = clock.now
            guard rename(staging.path, table.path) == 0 else { throw BenchmarkFailure("rename failed") }
            while localizer.localized("probe") != value {
                guard await iterator.next() != nil else { throw BenchmarkFailure("the localizer closed") }
            }
            samples.append(Measure.seconds(clock.now - start))
        }
        await localizer.close()
        let baseline = try subscriberLatencies(socket: socket, table: table, staging: staging, rounds: smoke ? 20 : 200)
        let p50 = Measure.percentile(samples, 0.5), p99 = Measure.percentile(samples, 0.99)
        return [
            BenchmarkRow(
                name: "Swift localizer: .strings renamed → mirror answers (p50 / p99)",
                measured: String(format: "%.2f / %.2f ms", p50 * 1e3, p99 * 1e3),
                baseline: String(
                    format: "event at a subscriber %.2f / %.2f ms", Measure.percentile(baseline, 0.5) * 1e3,
                    Measure.percentile(baseline, 0.99) * 1e3),
                ratio: "", target: "≤ 2 / ≤ 10 ms", passed: p50 <= 2e-3 && p99 <= 10e-3)
        ]
    }

    /// The same renames, seen by a bare subscriber: when lprojd announces
    /// them, before any client fetches anything.
    static func subscriberLatencies(socket: String, table: URL, staging: URL, rounds: Int) throws -> [Double] {
        let subscriber = try BenchSocket(path: socket)
        subscriber.send(Array(#"{"method":"org.lprojd.Localization.Subscribe","parameters":{"bundle":"bench"},"more":true}"#.utf8) + [0])
        _ = subscriber.receiveText()
        return try DaemonBenchmarks.announcementLatencies(subscriber: subscriber, table: table, staging: staging, rounds: rounds) {
            Data("\"probe\" = \"Baseline \($0)\";\n".utf8)
        }
    }

    // MARK: Memory

    /// The heap a mirror of a 100k-entry table holds, against the table
    /// file's bytes.
    static func mirrorMemory(directory: URL, smoke: Bool) async throws -> [BenchmarkRow] {
        let bundle = directory.appendingPathComponent("memory")
        let count = smoke ? 10_000 : 100_000
        _ = try DaemonBenchmarks.writeLookupBundle(at: bundle, keys: count)
        let fileBytes =
            try FileManager.default.attributesOfItem(atPath: bundle.appendingPathComponent("de.lproj/Localizable.strings").path)[
                .size] as? Int ?? 0
        let (daemon, socket) = try DaemonBenchmarks.startDaemon(directory: directory, bundles: ["bench=\(bundle.path)@en"])
        defer { daemon.stop() }
        // Everything the localizer holds once started (its connections
        // too), measured after the fetch's transient buffers are freed: an
        // upper bound on the mirror's share.
        heap_trim()
        let before = heap_bytes_in_use()
        let localizer = try await Localizer.start(bundle: "bench", client: "bench.memory", socketPath: socket, preferredLanguages: ["de"])
        heap_trim()
        let held = heap_bytes_in_use() - before
        guard localizer.localized("screen1.label.1") == "Beschriftung Nummer 1" else { throw BenchmarkFailure("the mirror is wrong") }
        await localizer.close()
        let ratio = Double(held) / Double(fileBytes)
        return [
            BenchmarkRow(
                name: "Swift localizer: mirror of a \(count / 1000)k-entry table (heap)",
                measured: String(format: "%.1f MB", Double(held) / 1e6), baseline: String(format: "file %.1f MB", Double(fileBytes) / 1e6),
                ratio: String(format: "%.2f×", ratio), target: "≤ 2×", passed: ratio <= 2)
        ]
    }

    // MARK: Snapshots

    /// From nothing to the first string, for a 50-key and a 10k-key bundle:
    /// mapping a snapshot and looking a key up (the format alone), and a
    /// localizer started on shipped snapshots with no lprojd, against a
    /// localizer that fetches its table from lprojd into its mirror (today's
    /// start). Then a lookup hit in the 10k-key snapshot against the mirror.
    static func snapshotStart(directory: URL, smoke: Bool) async throws -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        let clock = ContinuousClock()
        let rounds = smoke ? 5 : 41
        for keys in [50, 10_000] {
            let bundle = directory.appendingPathComponent("snapshot-\(keys)")
            let allKeys = try DaemonBenchmarks.writeLookupBundle(at: bundle, keys: keys)
            let key = allKeys[allKeys.count / 2]
            let loaded = BundleLoader(files: DiskFileTree()).load(
                BundleConfiguration(name: "bench", directory: bundle.path, developmentLocale: try LocaleIdentifier("en")))
            let shipped = directory.appendingPathComponent("shipped-\(keys)")
            try FileManager.default.createDirectory(at: shipped, withIntermediateDirectories: true)
            for locale in loaded.supportedLocales {
                let bytes = try SnapshotWriter.bytes(of: SnapshotContent(bundle: loaded, locale: try loaded.resolve(locale: locale)))
                try Data(bytes).write(to: shipped.appendingPathComponent("\(locale.tag).lprojsnap"))
            }
            let file = shipped.appendingPathComponent("de.lprojsnap").path
            var mapped: [Double] = [], offline: [Double] = [], fetched: [Double] = []
            for _ in 0..<rounds {
                let start = clock.now
                let snapshot = try Snapshot.open(path: file)
                guard snapshot.value(key)?.hasPrefix("Beschriftung") == true else { throw BenchmarkFailure("the snapshot missed") }
                mapped.append(Measure.seconds(clock.now - start))
            }
            let none = directory.appendingPathComponent("no-daemon").path
            for _ in 0..<rounds {
                let start = clock.now
                let localizer = try await Localizer.start(
                    bundle: "bench", client: "bench.snapshot", socketPath: none, preferredLanguages: ["de"],
                    options: .init(fallback: .init(directory: shipped.path, developmentLocale: "en"), initialDelay: .seconds(60)))
                guard localizer.localized(key).hasPrefix("Beschriftung") else { throw BenchmarkFailure("the shipped snapshot missed") }
                offline.append(Measure.seconds(clock.now - start))
                await localizer.close()
            }
            let (daemon, socket) = try DaemonBenchmarks.startDaemon(directory: directory, bundles: ["bench=\(bundle.path)@en"])
            for _ in 0..<rounds {
                let start = clock.now
                let localizer = try await Localizer.start(
                    bundle: "bench", client: "bench.fetch", socketPath: socket, preferredLanguages: ["de"])
                guard localizer.localized(key).hasPrefix("Beschriftung") else { throw BenchmarkFailure("the mirror missed") }
                fetched.append(Measure.seconds(clock.now - start))
                await localizer.close()
            }
            daemon.stop()
            let map = Measure.percentile(mapped, 0.5), start = Measure.percentile(offline, 0.5), fetch = Measure.percentile(fetched, 0.5)
            rows.append(
                BenchmarkRow(
                    name: "Snapshot: map and first lookup, \(keys) keys (median)", measured: String(format: "%.0f µs", map * 1e6),
                    baseline: String(format: "localizer fetching from lprojd %.2f ms", fetch * 1e3),
                    ratio: String(format: "%.0f× sooner", fetch / map), target: "≤ 100 µs", passed: map <= 100e-6))
            rows.append(
                BenchmarkRow(
                    name: "Swift localizer on shipped snapshots, no lprojd: start to first string, \(keys) keys (median)",
                    measured: String(format: "%.0f µs", start * 1e6), baseline: String(format: "fetching from lprojd %.2f ms", fetch * 1e3),
                    ratio: String(format: "%.1f× sooner", fetch / start), target: "≤ 100 µs", passed: start <= 100e-6))
            if keys == 10_000 {
                let snapshot = try Snapshot.open(path: file)
                var generator = SystemRandomNumberGenerator()
                let sample = (0..<4096).map { _ in allKeys[Int.random(in: 0..<allKeys.count, using: &generator)] }
                var sink = 0
                let hits = LookupBenchmark.perLookup(rounds: smoke ? 20 : 400, batch: 1000) { offset in
                    sink &+= snapshot.value(sample[offset & 4095])?.utf8.count ?? 0
                }
                let (daemon, socket) = try DaemonBenchmarks.startDaemon(directory: directory, bundles: ["bench=\(bundle.path)@en"])
                let localizer = try await Localizer.start(
                    bundle: "bench", client: "bench.hits", socketPath: socket, preferredLanguages: ["de"])
                let mirror = LookupBenchmark.perLookup(rounds: smoke ? 20 : 400, batch: 1000) { offset in
                    sink &+= localizer.localized(sample[offset & 4095]).utf8.count
                }
                await localizer.close()
                daemon.stop()
                guard sink > 0 else { throw BenchmarkFailure("nothing was looked up") }
                rows.append(
                    BenchmarkRow(
                        name: "Snapshot: lookup hit, 10k keys (median)", measured: LookupBenchmark.nanoseconds(hits),
                        baseline: "localizer mirror \(LookupBenchmark.nanoseconds(mirror))", ratio: String(format: "%.2f×", hits / mirror),
                        target: "≤ 1.2× mirror", passed: hits <= 1.2 * mirror))
            }
        }
        return rows
    }
}
