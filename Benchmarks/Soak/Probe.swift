import Foundation

/// A well-behaved client: one lookup at a time, as fast as it can, for a
/// while; what it measures is how long each waited.
enum Probe {
    struct Result: Codable {
        var lookups = 0
        var errors = 0
        var p50Microseconds = 0.0
        var p99Microseconds = 0.0
        var maxMicroseconds = 0.0
    }

    static func run(socket: String, seconds: Double, bundle: String = "demo") throws -> Result {
        let wire = try Wire(path: socket)
        let call = Array(callText("Lookup", #"{"bundle":\#(jsonString(bundle)),"key":"welcome.title","locale":"de"}"#).utf8) + [0]
        var samples: [Double] = []
        samples.reserveCapacity(1 << 20)
        var result = Result()
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            let start = DispatchTime.now().uptimeNanoseconds
            guard wire.send(call) else { throw SoakFailure("the probe's connection was closed") }
            let reply = wire.receive(timeout: 30)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
            guard let reply else { throw SoakFailure("the probe got no reply within 30 s") }
            if Wire.errorName(reply) != nil { result.errors += 1 }
            samples.append(elapsed)
        }
        samples.sort()
        result.lookups = samples.count
        if !samples.isEmpty {
            result.p50Microseconds = samples[samples.count / 2]
            result.p99Microseconds = samples[min(samples.count - 1, samples.count * 99 / 100)]
            result.maxMicroseconds = samples[samples.count - 1]
        }
        return result
    }
}
