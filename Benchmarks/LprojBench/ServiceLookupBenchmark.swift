import Foundation
import Logging
import LprojEngine
import LprojInterface
import LprojLimits
import LprojLocales
import LprojService
import LprojStore

/// The service's `Lookup` in process (what the daemon runs for each call,
/// without the socket), counting misses and not, in the same run: what
/// counting costs a lookup its own chain answers, and one it misses.
enum ServiceLookupBenchmark {
    /// Events go nowhere: none are made by lookups.
    struct NoEvents: EventSink {
        func publish(_ event: ServiceEvent) {}
        var subscriberCount: Int { 0 }
        func subscriberCount(uid: UInt32) -> Int { 0 }
    }

    static func run(directory: URL, keys: [String], smoke: Bool) throws -> [BenchmarkRow] {
        func service(countingMisses: Bool) throws -> LocalizationService {
            let served = ServedBundles()
            let configurations = [
                BundleConfiguration(name: "bench", directory: directory.path, developmentLocale: try LocaleIdentifier("en"))
            ]
            let logger = Logger(label: "bench")
            let watcher = try BundleWatcher(
                served: served, events: NoEvents(), configurations: configurations, clock: ContinuousClock(), logger: logger)
            served.load(configurations)
            let store = try ClientStore.inMemory()
            return LocalizationService(
                served: served, watcher: watcher, events: NoEvents(), store: store,
                added: AddedStringsRegistry(limits: AddedStringLimits(maximumStrings: 10, maximumLength: 1024)),
                countsMisses: countingMisses, daemonUID: getuid(), logger: logger)
        }
        let counting = try service(countingMisses: true), notCounting = try service(countingMisses: false)
        let caller = Caller(uid: 1000)
        let rounds = smoke ? 20 : 400, batch = 1000
        // de has every key (its own chain answers); fr has none (en answers: a miss).
        func measure(_ service: LocalizationService, locale: String) -> Double {
            var sink = 0
            let seconds = LookupBenchmark.perLookup(rounds: rounds, batch: batch) { offset in
                let reply = try! service.lookup(.init(bundle: "bench", key: keys[offset & 4095], locale: locale), caller: caller)
                sink &+= reply.value.utf8.count
            }
            precondition(sink > 0)
            return seconds
        }
        // Interleaved, so that drift on a shared machine falls on both.
        var hits: [(Double, Double)] = [], misses: [(Double, Double)] = []
        for _ in 0..<3 {
            hits.append((measure(counting, locale: "de"), measure(notCounting, locale: "de")))
            misses.append((measure(counting, locale: "fr"), measure(notCounting, locale: "fr")))
        }
        let hit = (Measure.medianOf(hits.map(\.0)), Measure.medianOf(hits.map(\.1)))
        let miss = (Measure.medianOf(misses.map(\.0)), Measure.medianOf(misses.map(\.1)))
        guard try counting.getMissesNow().misses.count > 100 else { throw BenchmarkFailure("the misses were not counted") }
        return [
            BenchmarkRow(
                name: "service Lookup in process, its own chain has the key, counting misses",
                measured: LookupBenchmark.nanoseconds(hit.0), baseline: "not counting \(LookupBenchmark.nanoseconds(hit.1))",
                ratio: String(format: "%.3f×", hit.0 / hit.1), target: "≤ 1.05×", passed: hit.0 <= hit.1 * 1.05),
            BenchmarkRow(
                name: "service Lookup in process, a miss (answered by en), counting it",
                measured: LookupBenchmark.nanoseconds(miss.0), baseline: "not counting \(LookupBenchmark.nanoseconds(miss.1))",
                ratio: String(format: "%.3f×", miss.0 / miss.1), target: "", passed: nil),
        ]
    }
}

extension LocalizationService {
    /// Everyone's misses, at once (the benchmark runs off any event loop).
    fileprivate func getMissesNow() throws -> (misses: [MissLedger.Summary], dropped: Int) {
        let found = misses.misses(uid: nil, bundle: nil, locale: nil, since: nil, limit: 10_000)
        return (found.misses, found.dropped)
    }
}
