import Foundation

/// Timing helpers: every figure is a median over repeated rounds, measured
/// with the monotonic clock, so one noisy round does not decide a result.
enum Measure {
    /// The median duration of `rounds` runs of `body`, in seconds.
    static func median(rounds: Int, _ body: () throws -> Void) rethrows -> Double {
        var samples: [Double] = []
        samples.reserveCapacity(rounds)
        let clock = ContinuousClock()
        for _ in 0..<rounds {
            let elapsed = try clock.measure(body)
            samples.append(seconds(elapsed))
        }
        return medianOf(samples)
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }

    static func medianOf(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Seconds for a table cell: "850 µs", "6.2 ms", "1.35 s".
    static func duration(_ seconds: Double) -> String {
        if seconds < 1e-3 { return String(format: "%.0f µs", seconds * 1e6) }
        if seconds < 1 { return String(format: "%.1f ms", seconds * 1e3) }
        return String(format: "%.2f s", seconds)
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
}

/// One line of the results table.
struct BenchmarkRow {
    let name: String
    let measured: String
    let baseline: String
    let ratio: String
    let target: String
    let passed: Bool?
}

enum Report {
    static func print(_ rows: [BenchmarkRow]) {
        let header = ["benchmark", "lprojd", "baseline (same run)", "ratio", "target", ""]
        let cells = rows.map { [$0.name, $0.measured, $0.baseline, $0.ratio, $0.target, $0.passed.map { $0 ? "ok" : "MISSED" } ?? ""] }
        var widths = header.map(\.count)
        for row in cells { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        func line(_ row: [String]) -> String {
            "| " + row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
        }
        Swift.print(line(header))
        Swift.print("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
        for row in cells { Swift.print(line(row)) }
    }
}
