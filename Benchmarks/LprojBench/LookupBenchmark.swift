import Foundation
import LprojEngine
import LprojFiles
import LprojLocales

/// In-process lookups of hits over a 10k-key table, against Foundation's
/// `Bundle.localizedString` on the same files in the same run.
enum LookupBenchmark {
    static func run(smoke: Bool) throws -> [BenchmarkRow] {
        let keyCount = 10_000
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lproj-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var english = "", german = ""
        for index in 0..<keyCount {
            english += "\"screen\(index % 40).label.\(index)\" = \"Label number \(index)\";\n"
            german += "\"screen\(index % 40).label.\(index)\" = \"Beschriftung Nummer \(index)\";\n"
        }
        for (folder, text) in [("en.lproj", english), ("de.lproj", german)] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: directory.appendingPathComponent("\(folder)/Localizable.strings"))
        }
        let configuration = BundleConfiguration(name: "bench", directory: directory.path, developmentLocale: try LocaleIdentifier("en"))
        let bundle = BundleLoader().load(configuration)

        var generator = SystemRandomNumberGenerator()
        let keys = (0..<4096).map { _ -> String in
            let index = Int.random(in: 0..<keyCount, using: &generator)
            return "screen\(index % 40).label.\(index)"
        }
        let batch = 1000
        let rounds = smoke ? 20 : 400

        // lprojd, like the Foundation baseline, with the locale resolved once
        // (an app resolves its locale once, as it opens its bundle once).
        let resolved = try bundle.resolve(locale: "de")
        guard keys.allSatisfy({ bundle.lookup($0, locale: resolved).value.hasPrefix("Beschriftung") }) else {
            throw BenchmarkFailure("lprojd missed some of its lookups")
        }
        var sink = 0
        let ours = perLookup(rounds: rounds, batch: batch) { offset in
            sink &+= bundle.lookup(keys[offset & 4095], locale: resolved).value.utf8.count
        }
        // And the whole path from the locale's text, as the daemon takes it.
        let fromText = perLookup(rounds: rounds, batch: batch) { offset in
            let locale = try! bundle.resolve(locale: "de")
            sink &+= bundle.lookup(keys[offset & 4095], locale: locale).value.utf8.count
        }

        // Foundation: a Bundle opened on the de.lproj folder (Foundation on
        // Linux ignores preferred languages, so this pins the localization).
        guard let foundationBundle = Bundle(path: directory.appendingPathComponent("de.lproj").path) else {
            throw BenchmarkFailure("Foundation could not open the bundle")
        }
        guard keys.allSatisfy({ foundationBundle.localizedString(forKey: $0, value: nil, table: nil).hasPrefix("Beschriftung") }) else {
            throw BenchmarkFailure("Foundation missed some lookups")
        }
        let foundation = perLookup(rounds: rounds / 4, batch: batch) { offset in
            sink &+= foundationBundle.localizedString(forKey: keys[offset & 4095], value: nil, table: nil).utf8.count
        }

        if ProcessInfo.processInfo.environment["LPROJ_BENCH_BREAKDOWN"] != nil {
            let resolved = try bundle.resolve(locale: "de")
            let onlyResolve = perLookup(rounds: rounds, batch: batch) { _ in _ = try! bundle.resolve(locale: "de") }
            let preResolved = perLookup(rounds: rounds, batch: batch) { offset in _ = bundle.lookup(keys[offset & 4095], locale: resolved) }
            let table = bundle.localizations.first { $0.folderName == "de.lproj" }!.tables["Localizable"]!.strings
            let indexOnly = perLookup(rounds: rounds, batch: batch) { offset in _ = table.entryIndex(forKey: keys[offset & 4095]) }
            let valueOnly = perLookup(rounds: rounds, batch: batch) { offset in _ = table.value(forKey: keys[offset & 4095]) }
            let tables = bundle.localizations.first { $0.folderName == "de.lproj" }!.tables
            let tableLookup = perLookup(rounds: rounds, batch: batch) { _ in _ = tables["Localizable"] }
            print(
                "resolve \(nanoseconds(onlyResolve)) lookup(pre-resolved) \(nanoseconds(preResolved)) entryIndex \(nanoseconds(indexOnly)) value(forKey:) \(nanoseconds(valueOnly)) tables[name] \(nanoseconds(tableLookup))"
            )
        }

        // For context: a plain Swift dictionary of the same table.
        let dictionary = bundle.resolvedTable(locale: try bundle.resolve(locale: "de")).entries.mapValues(\.value)
        let plain = perLookup(rounds: rounds, batch: batch) { offset in
            sink &+= dictionary[keys[offset & 4095]]?.utf8.count ?? 0
        }
        guard sink > 0 else { throw BenchmarkFailure("nothing was looked up") }
        let service = try ServiceLookupBenchmark.run(directory: directory, keys: keys, smoke: smoke)

        return [
            BenchmarkRow(
                name: "in-process lookup, hit, 10k keys (median per lookup)",
                measured: nanoseconds(ours), baseline: "Bundle.localizedString \(nanoseconds(foundation))",
                ratio: String(format: "%.1f× faster", foundation / ours), target: "≤ 250 ns", passed: ours <= 250e-9),
            BenchmarkRow(
                name: "  the same, resolving the locale text each time", measured: nanoseconds(fromText),
                baseline: "", ratio: String(format: "%.1f× faster", foundation / fromText), target: "", passed: nil),
            BenchmarkRow(
                name: "  for context: Swift [String: String] lookup", measured: nanoseconds(plain), baseline: "", ratio: "", target: "",
                passed: nil),
        ] + service
    }

    /// The median over `rounds` of the mean time per call in a batch.
    static func perLookup(rounds: Int, batch: Int, _ body: (Int) -> Void) -> Double {
        var samples: [Double] = []
        let clock = ContinuousClock()
        var offset = 0
        for _ in 0..<batch {
            body(offset)
            offset &+= 1
        }  // warm caches, untimed
        for _ in 0..<rounds {
            let elapsed = clock.measure {
                for _ in 0..<batch {
                    body(offset)
                    offset &+= 1
                }
            }
            samples.append(Measure.seconds(elapsed) / Double(batch))
        }
        return Measure.medianOf(samples)
    }

    static func nanoseconds(_ seconds: Double) -> String {
        String(format: "%.0f ns", seconds * 1e9)
    }
}
