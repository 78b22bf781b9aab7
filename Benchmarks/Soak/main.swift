// lproj-soak: lprojd under attack.
//
//   make soak                                   the whole soak against the release lprojd; prints a table
//   lproj-soak attack NAME --socket S [--seconds N] [--scale X] [--until-limit]
//                     [--bundle-directory DIR --bundle NAME [--swap-target DIR]]
//                                               one hostile client (JSON report on stdout);
//                                               --until-limit stops at the first limit lprojd names;
//                                               the attacks through files write in DIR, served as NAME
//   lproj-soak probe --socket S [--seconds N] [--reload-directory DIR --reload-bundle NAME]
//                                               a well-behaved client's lookup latencies, how late its
//                                               own events came, and (with a bundle directory of its
//                                               own) how long its renamed tables took to be announced
//                                               (JSON on stdout)
//   lproj-soak hold --socket S --connections N [--seconds N]
//   lproj-soak subscribe --socket S --connections N [--read yes|no] [--seconds N]
//                                               many connections, or subscriptions, of one uid
//   lproj-soak call --socket S JSON...          sends each call, prints each reply (a line each)
//   lproj-soak listen --socket S [--client C] [--seconds N]
//                                               subscribes, prints each event (a line each) until time is up
//   lproj-soak run [--seconds N] [--only a,b] [--rounds N]
//                                               the soak itself (what `make soak` runs); --rounds
//                                               runs each attack N times, each on a fresh lprojd
//
// The tests run `attack` and `probe` as two unprivileged uids with setpriv.
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

signal(SIGPIPE, SIG_IGN)
let arguments = CommandLine.arguments

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func printJSON<T: Encodable>(_ value: T) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    FileHandle.standardOutput.write((try? encoder.encode(value)) ?? Data())
    FileHandle.standardOutput.write(Data("\n".utf8))
}

do {
    switch arguments.dropFirst().first {
    case "attack":
        guard arguments.count > 2, let attack = Attack(rawValue: arguments[2]), let socket = option("--socket") else {
            throw SoakFailure(
                "usage: lproj-soak attack \(Attack.allCases.map(\.rawValue).joined(separator: "|")) --socket PATH [--seconds N] [--scale X] [--until-limit]"
            )
        }
        let files = option("--bundle-directory").map {
            HostileFiles(directory: $0, bundle: option("--bundle") ?? "hostile", swapTarget: option("--swap-target"))
        }
        printJSON(
            try attack.run(
                socket: socket, seconds: Double(option("--seconds") ?? "30") ?? 30, scale: Double(option("--scale") ?? "1") ?? 1,
                untilLimit: arguments.contains("--until-limit"), files: files))
    case "probe":
        guard let socket = option("--socket") else {
            throw SoakFailure("usage: lproj-soak probe --socket PATH [--seconds N] [--reload-directory DIR --reload-bundle NAME]")
        }
        let reloads = option("--reload-directory").map { Probe.ReloadTarget(directory: $0, bundle: option("--reload-bundle") ?? "probe") }
        printJSON(try Probe.run(socket: socket, seconds: Double(option("--seconds") ?? "30") ?? 30, reloads: reloads))
    case "hold":
        guard let socket = option("--socket") else { throw SoakFailure("usage: lproj-soak hold --socket PATH --connections N") }
        printJSON(
            try Modes.hold(
                socket: socket, count: Int(option("--connections") ?? "256") ?? 256, seconds: Double(option("--seconds") ?? "30") ?? 30))
    case "subscribe":
        guard let socket = option("--socket") else { throw SoakFailure("usage: lproj-soak subscribe --socket PATH --connections N") }
        printJSON(
            try Modes.subscribe(
                socket: socket, count: Int(option("--connections") ?? "100") ?? 100, read: option("--read") != "no",
                seconds: Double(option("--seconds") ?? "30") ?? 30))
    case "call":
        guard let socket = option("--socket") else { throw SoakFailure("usage: lproj-soak call --socket PATH JSON...") }
        let wire = try Wire(path: socket)
        for call in arguments.dropFirst(2) where call.hasPrefix("{") {
            wire.call(call)
            print(wire.receive() ?? "no reply")
        }
    case "listen":
        guard let socket = option("--socket") else {
            throw SoakFailure("usage: lproj-soak listen --socket PATH [--client C] [--seconds N]")
        }
        let wire = try Wire(path: socket)
        let client = option("--client").map { #"{"client":\#(jsonString($0))}"# } ?? "{}"
        wire.call(callText("Subscribe", client, more: true))
        let end = Date().addingTimeInterval(Double(option("--seconds") ?? "5") ?? 5)
        while end.timeIntervalSinceNow > 0, let event = wire.receive(timeout: end.timeIntervalSinceNow) {
            print(event)
            fflush(nil)
        }
    case "run", nil:
        try Soak.run(
            seconds: Double(option("--seconds") ?? "30") ?? 30,
            only: option("--only").map { Set($0.split(separator: ",").map(String.init)) },
            rounds: Int(option("--rounds") ?? "1") ?? 1)
    default:
        throw SoakFailure("unknown command \(arguments[1]); see the comment at the top of Benchmarks/Soak/main.swift")
    }
} catch {
    FileHandle.standardError.write(Data("lproj-soak: \(error)\n".utf8))
    exit(1)
}
