import Foundation
import LprojTables

/// `.strings` parse throughput against `PropertyListSerialization` on the same bytes.
enum ParseBenchmark {
    /// A generated table of `count` entries, the way real tables look: a
    /// comment per entry, dotted keys, sentences with format specifiers, some
    /// escapes and some non-ASCII text.
    static func generatedTable(entries count: Int) -> String {
        let words = [
            "Open", "the", "file", "Save", "changes", "before", "closing", "Größe", "réglages", "設定", "Ошибка", "%@", "%d", "items",
            "selected", "window",
        ]
        var text = ""
        text.reserveCapacity(count * 90)
        var seed: UInt64 = 12345
        for index in 0..<count {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let length = 3 + Int(seed >> 60)
            var value = ""
            for offset in 0..<length {
                if offset > 0 { value += " " }
                value += words[Int((seed >> UInt64(offset * 4 % 56)) & 15)]
            }
            if index % 7 == 0 { value += "\\n\\\"quoted\\\"" }
            text += "/* Label for item \(index) */\n\"section\(index % 97).item.\(index)\" = \"\(value)\";\n\n"
        }
        return text
    }

    static func utf16LE(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xFE]
        bytes.reserveCapacity(text.utf16.count * 2 + 2)
        for unit in text.utf16 {
            bytes.append(UInt8(unit & 0xFF))
            bytes.append(UInt8(unit >> 8))
        }
        return bytes
    }

    static func run(smoke: Bool) throws -> [BenchmarkRow] {
        let entries = smoke ? 5_000 : 100_000
        let text = generatedTable(entries: entries)
        var rows: [BenchmarkRow] = []
        for (label, bytes) in [("UTF-8", Array(text.utf8)), ("UTF-16", utf16LE(text))] {
            let data = Data(bytes)
            let parser = StringsParser()
            var parsedCount = 0
            let ours = try Measure.median(rounds: smoke ? 3 : 7) {
                parsedCount = try parser.parse(bytes).table.count
            }
            var foundationCount = 0
            let foundation = try Measure.median(rounds: smoke ? 2 : 3) {
                let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                foundationCount = (object as? [String: Any])?.count ?? -1
            }
            guard parsedCount == entries, foundationCount == entries else {
                throw BenchmarkFailure("parsed \(parsedCount) entries, Foundation \(foundationCount), expected \(entries)")
            }
            let megabytes = Double(bytes.count) / 1_000_000
            let ratio = foundation / ours
            rows.append(
                BenchmarkRow(
                    name: ".strings parse, \(entries / 1000)k entries, \(label) (\(String(format: "%.1f", megabytes)) MB)",
                    measured: String(format: "%.0f MB/s", megabytes / ours),
                    baseline: String(format: "PropertyListSerialization %.0f MB/s", megabytes / foundation),
                    ratio: String(format: "%.1f×", ratio),
                    target: "≥ 10×",
                    passed: ratio >= 10))
        }
        return rows
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
