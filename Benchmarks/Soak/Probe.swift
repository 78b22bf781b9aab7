import Foundation

/// A well-behaved client: one lookup at a time, as fast as it can, for a
/// while; and every 50 ms the calls that the workers answer (SelectLocale,
/// SupportedLocales) and a Format, as an app switching language would make.
/// What it measures is how long each waited.
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
    }

    static func run(socket: String, seconds: Double, bundle: String = "demo") throws -> Result {
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
        var samples: [Double] = [], otherSamples: [Double] = []
        samples.reserveCapacity(1 << 20)
        var result = Result()
        let end = Date().addingTimeInterval(seconds)
        var nextOthers = Date(), round = 0
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
        while Date() < end {
            samples.append(try timed(call))
            if Date() >= nextOthers {
                for other in others[round % 2] { otherSamples.append(try timed(other)) }
                round += 1
                nextOthers = Date().addingTimeInterval(0.05)
            }
        }
        samples.sort()
        otherSamples.sort()
        result.lookups = samples.count
        if !samples.isEmpty {
            result.p50Microseconds = samples[samples.count / 2]
            result.p99Microseconds = samples[min(samples.count - 1, samples.count * 99 / 100)]
            result.maxMicroseconds = samples[samples.count - 1]
        }
        result.otherCalls = otherSamples.count
        if !otherSamples.isEmpty {
            result.otherP99Microseconds = otherSamples[min(otherSamples.count - 1, otherSamples.count * 99 / 100)]
            result.otherMaxMicroseconds = otherSamples[otherSamples.count - 1]
        }
        return result
    }
}
