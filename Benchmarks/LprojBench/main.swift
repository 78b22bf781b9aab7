// lproj-bench: lprojd's benchmarks. Each figure is compared with a baseline
// measured in the same run on the same machine.
//
//   swift build -c release --product lprojd && swift run -c release lproj-bench
//   ... lproj-bench --smoke                 a quick check that everything runs
//   ... lproj-bench --only parse,catalog,lookup,memory,daemon,dropins,localizer,cli
//                                           (socket: the daemon's rows of one
//                                           connection's calls; window: the
//                                           sliding window alone; dropins:
//                                           drop-in files at start and live)
//   ... lproj-bench --lprojctl PATH         the lprojctl the cli rows run
//                                           (default: the one beside lproj-bench)
//   ... lproj-bench --only window --baseline-daemon PATH [--rounds N] [--calls N]
//                                           the sliding window against this
//                                           lprojd and another, alternating
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments
if let index = arguments.firstIndex(of: "--echo-server"), index + 1 < arguments.count {
    EchoServer.run(path: arguments[index + 1])
}
if arguments.contains("--help") || arguments.contains("-h") {
    print(
        """
        usage: lproj-bench [--smoke] [--only SECTION,...] [--lprojctl PATH]
                           [--baseline-daemon PATH] [--rounds N] [--calls N]
          sections: parse, catalog, lookup, memory, daemon, dropins, localizer, cli (all by default);
                    socket (the daemon's rows of one connection's calls), window (the sliding window alone)
          --baseline-daemon PATH  the sliding window also against this lprojd, alternating round by round
          --rounds N, --calls N   the sliding window's rounds (5) and calls per round (200000)
        """)
    exit(0)
}

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let smoke = arguments.contains("--smoke")
var sections: Set<String> = ["parse", "catalog", "lookup", "memory", "daemon", "dropins", "localizer", "cli"]
var lprojctl = Binaries.directory.appendingPathComponent("lprojctl")
if let index = arguments.firstIndex(of: "--lprojctl"), index + 1 < arguments.count {
    lprojctl = URL(fileURLWithPath: arguments[index + 1])
}
if let index = arguments.firstIndex(of: "--only"), index + 1 < arguments.count {
    sections = Set(arguments[index + 1].split(separator: ",").map(String.init))
}

// The fan-out benchmark opens a thousand sockets.
var limit = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}
signal(SIGPIPE, SIG_IGN)

var rows: [BenchmarkRow] = []
do {
    if sections.contains("parse") { rows += try ParseBenchmark.run(smoke: smoke) }
    if sections.contains("catalog") { rows += try CatalogBenchmark.run(smoke: smoke) }
    if sections.contains("lookup") { rows += try LookupBenchmark.run(smoke: smoke) }
    if sections.contains("memory") { rows += try MemoryBenchmark.run(smoke: smoke) }
    let window = WindowBenchmark.Options(
        baselineDaemon: option("--baseline-daemon").map { URL(fileURLWithPath: $0) }, rounds: option("--rounds").flatMap { Int($0) },
        calls: option("--calls").flatMap { Int($0) })
    if sections.contains("daemon") {
        rows += try DaemonBenchmarks.run(smoke: smoke, window: window)
    } else if sections.contains("socket") {
        rows += try DaemonBenchmarks.run(smoke: smoke, rows: .socket, window: window)
    } else if sections.contains("window") {
        rows += try DaemonBenchmarks.run(smoke: smoke, rows: .window, window: window)
    }
    if sections.contains("dropins") { rows += try DropInBenchmark.run(smoke: smoke) }
    if sections.contains("localizer") { rows += try await LocalizerBenchmark.run(smoke: smoke) }
    if sections.contains("cli") { rows += try CommandLineBenchmark.run(smoke: smoke, lprojctl: lprojctl) }
} catch {
    Report.print(rows)
    FileHandle.standardError.write(Data("lproj-bench: \(error)\n".utf8))
    exit(1)
}
Report.print(rows)
if smoke { print("(smoke run: sizes are reduced and figures are not comparable with the targets)") }
