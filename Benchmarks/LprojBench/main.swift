// lproj-bench: lprojd's benchmarks. Each figure is compared with a baseline
// measured in the same run on the same machine.
//
//   swift run -c release lproj-bench            full run
//   swift run -c release lproj-bench --smoke    a quick check that everything runs
import Foundation

let smoke = CommandLine.arguments.contains("--smoke")
var rows: [BenchmarkRow] = []
do {
    rows += try ParseBenchmark.run(smoke: smoke)
    rows += try LookupBenchmark.run(smoke: smoke)
    rows += try MemoryBenchmark.run(smoke: smoke)
} catch {
    FileHandle.standardError.write(Data("lproj-bench: \(error)\n".utf8))
    exit(1)
}
Report.print(rows)
