import Foundation

/// A well-behaved client: one lookup at a time, as fast as it can, for a
/// while; and every 50 ms the calls that the workers answer (SelectLocale,
/// SupportedLocales) and a Format, as an app switching language would make.
/// What it measures is how long each waited, how late the `localeChanged`
/// each SelectLocale causes reached its own subscription, and, given a
/// bundle directory of its own, how long a table renamed into it took to be
/// announced (every 100 ms).
enum Probe {
    struct Result: Codable {
        var lookups = 0
        var errors = 0
        var p50Microseconds = 0.0
        var p99Microseconds = 0.0
        var maxMicroseconds = 0.0
        /// SelectLocale, SupportedLocales and Format calls, and their waits.
        var otherCalls = 0
        var otherP99Microseconds = 0.0
        var otherMaxMicroseconds = 0.0
        /// Its own `localeChanged` events: how many came, and how late
        /// after the SelectLocale reply that caused each.
        var events = 0
        var eventsMissed = 0
        var eventP50Microseconds = 0.0
        var eventP99Microseconds = 0.0
        var eventMaxMicroseconds = 0.0
        /// Tables renamed into its own bundle: how long until announced.
        var reloads = 0
        var reloadsMissed = 0
        var reloadP50Microseconds = 0.0
        var reloadP99Microseconds = 0.0
        var reloadMaxMicroseconds = 0.0
    }

    /// Where the probe renames tables and which bundle serves them.
    struct ReloadTarget {
        let directory: String
        let bundle: String
    }

    static func run(socket: String, seconds: Double, bundle: String = "demo", reloads: ReloadTarget? = nil) throws -> Result {
        let wire = try Wire(path: socket)
        let name = jsonString(bundle)
        let call = Array(callText("Lookup", #"{"bundle":\#(name),"key":"welcome.title","locale":"de"}"#).utf8) + [0]
        let others = ["de", "fr"].map { locale in
            [
                callText("SelectLocale", #"{"client":"probe","bundle":\#(name),"locale":"\#(locale)"}"#),
                callText("SupportedLocales", #"{"bundle":\#(name),"client":"probe"}"#),
                callText("Format", #"{"style":"template","template":"yMMMdjm","date":1700000000,"bundle":\#(name),"locale":"\#(locale)"}"#),
            ].map { Array($0.utf8) + [0] }
        }
        // Its own events, on a subscription of its own.
        let events = try Wire(path: socket)
        events.call(callText("Subscribe", #"{"client":"probe","bundle":\#(name)}"#, more: true))
        guard events.receive(timeout: 30) != nil else { throw SoakFailure("the probe's subscription got no ready reply") }
        let reloading = try reloads.map { target in try Reloader(target, socket: socket) }

        var samples: [Double] = [], otherSamples: [Double] = [], eventSamples: [Double] = [], reloadSamples: [Double] = []
        samples.reserveCapacity(1 << 20)
        var result = Result()
        let end = Date().addingTimeInterval(seconds)
        var nextOthers = Date(), nextReload = Date(), round = 0
        func timed(_ bytes: [UInt8]) throws -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            guard wire.send(bytes) else { throw SoakFailure("the probe's connection was closed") }
            let reply = wire.receive(timeout: 60)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
            guard let reply else {
                throw SoakFailure(wire.closedByPeer ? "lprojd closed the probe's connection" : "the probe got no reply within 60 s")
            }
            if Wire.errorName(reply) != nil { result.errors += 1 }
            return elapsed
        }
        var selected: String?
        while Date() < end {
            samples.append(try timed(call))
            if Date() >= nextOthers {
                let locale = round % 2 == 0 ? "de" : "fr"
                for (index, other) in others[round % 2].enumerated() {
                    otherSamples.append(try timed(other))
                    // The SelectLocale's event: how long after its reply.
                    if index == 0 {
                        let replied = DispatchTime.now().uptimeNanoseconds
                        if selected != locale {
                            if let arrived = events.awaitEvent(
                                timeout: 30, { $0.contains(#""localeChanged""#) && $0.contains(#""locale":"\#(locale)""#) })
                            {
                                eventSamples.append(Double(arrived > replied ? arrived - replied : 0) / 1000)
                            } else {
                                result.eventsMissed += 1
                            }
                        }
                        selected = locale
                    }
                }
                round += 1
                nextOthers = Date().addingTimeInterval(0.05)
            }
            if let reloading, Date() >= nextReload {
                if let took = try reloading.renameAndAwait() { reloadSamples.append(took) } else { result.reloadsMissed += 1 }
                nextReload = Date().addingTimeInterval(0.1)
            }
        }
        (result.lookups, result.p50Microseconds, result.p99Microseconds, result.maxMicroseconds) = Self.percentiles(samples)
        (result.otherCalls, _, result.otherP99Microseconds, result.otherMaxMicroseconds) = Self.percentiles(otherSamples)
        (result.events, result.eventP50Microseconds, result.eventP99Microseconds, result.eventMaxMicroseconds) = Self.percentiles(
            eventSamples)
        (result.reloads, result.reloadP50Microseconds, result.reloadP99Microseconds, result.reloadMaxMicroseconds) = Self.percentiles(
            reloadSamples)
        return result
    }

    /// Count, p50, p99, worst.
    static func percentiles(_ samples: [Double]) -> (Int, Double, Double, Double) {
        guard !samples.isEmpty else { return (0, 0, 0, 0) }
        let sorted = samples.sorted()
        return (sorted.count, sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)], sorted[sorted.count - 1])
    }

    /// Renames a new version of a table into the probe's own bundle, and
    /// waits for lprojd to announce it.
    final class Reloader {
        let target: ReloadTarget
        let events: Wire
        var version = 0

        init(_ target: ReloadTarget, socket: String) throws {
            self.target = target
            events = try Wire(path: socket)
            events.call(callText("Subscribe", #"{"bundle":\#(jsonString(target.bundle))}"#, more: true))
            guard events.receive(timeout: 30) != nil else { throw SoakFailure("the probe's reload subscription got no ready reply") }
            try FileManager.default.createDirectory(atPath: target.directory + "/en.lproj", withIntermediateDirectories: true)
        }

        /// Microseconds from the rename to the announcement; nil if none came within 30 s.
        func renameAndAwait() throws -> Double? {
            version += 1
            let table = target.directory + "/en.lproj/Localizable.strings"
            try Data("\"probe.version\" = \"\(version)\";\n".utf8).write(to: URL(fileURLWithPath: table + ".new"))
            let start = DispatchTime.now().uptimeNanoseconds
            guard rename(table + ".new", table) == 0 else { throw SoakFailure("the probe could not rename into \(target.directory)") }
            guard let arrived = events.awaitEvent(timeout: 30, { $0.contains(#""tablesChanged""#) }) else { return nil }
            return Double(arrived - start) / 1000
        }
    }
}

extension Wire {
    /// Reads messages until one that `matches`; returns when it arrived
    /// (uptime nanoseconds), or nil when none did within `timeout`.
    func awaitEvent(timeout: Double, _ matches: (String) -> Bool) -> UInt64? {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let message = receive(timeout: deadline.timeIntervalSinceNow) else { return nil }
            if matches(message) { return DispatchTime.now().uptimeNanoseconds }
        }
        return nil
    }
}
