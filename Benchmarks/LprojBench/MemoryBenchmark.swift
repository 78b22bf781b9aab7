import Foundation
import CBenchSupport
import LprojEngine
import LprojFiles
import LprojLocales

/// Heap held by 100k loaded entries, against the file's size, with
/// Foundation's dictionary of the same file as the baseline.
enum MemoryBenchmark {
    static func run(smoke: Bool) throws -> [BenchmarkRow] {
        let entries = smoke ? 10_000 : 100_000
        let text = ParseBenchmark.generatedTable(entries: entries)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lproj-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("en.lproj"), withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("en.lproj/Localizable.strings")
        let data = Data(text.utf8)
        try data.write(to: file)
        let configuration = BundleConfiguration(name: "bench", directory: directory.path, developmentLocale: try LocaleIdentifier("en"))

        let ours = try heapGrowth {
            let bundle = BundleLoader().load(configuration)
            guard bundle.entryCount == entries else { throw BenchmarkFailure("loaded \(bundle.entryCount) entries") }
            return bundle
        }
        let foundation = try heapGrowth {
            let object = try PropertyListSerialization.propertyList(from: try Data(contentsOf: file), options: [], format: nil)
            guard (object as? [String: Any])?.count == entries else { throw BenchmarkFailure("Foundation read a different table") }
            return object
        }
        let fileBytes = Double(data.count)
        return [
            BenchmarkRow(
                name: "memory for \(entries / 1000)k loaded entries (file \(String(format: "%.1f", fileBytes / 1e6)) MB)",
                measured: String(format: "%.1f MB (%.2f× file)", ours / 1e6, ours / fileBytes),
                baseline: String(format: "Foundation dictionary %.1f MB (%.2f× file)", foundation / 1e6, foundation / fileBytes),
                ratio: String(format: "%.1f× less", foundation / ours), target: "≤ 2× file", passed: ours <= 2 * fileBytes)
        ]
    }

    /// Bytes still allocated on the heap after `load` returns, while its
    /// result is alive (glibc's count of bytes in use).
    static func heapGrowth(_ load: () throws -> Any) throws -> Double {
        heap_trim()
        let before = heap_bytes_in_use()
        let kept = try load()
        let after = heap_bytes_in_use()
        withExtendedLifetime(kept) {}
        return Double(after) - Double(before)
    }
}
