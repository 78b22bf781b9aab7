import ArgumentParser
import Foundation

/// `lprojctl extract …`: runs `lproj-extract`, a program of its own (it is
/// built on swift-syntax, which lprojctl does not carry), found beside
/// lprojctl or on PATH.
struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Add the localizable strings of Swift, C, Objective-C and Python sources to .strings tables (lproj-extract).",
        discussion: "Runs lproj-extract (make extract builds it) with the same arguments; `lproj-extract --help` lists them.")

    @Argument(parsing: .allUnrecognized, help: "lproj-extract's arguments.") var arguments: [String] = []

    func run() throws {
        guard let program = Self.extractor() else {
            throw CommandError("lproj-extract is not installed beside lprojctl nor on PATH (make extract builds it)")
        }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        execv(program, argv)
        throw CommandError("cannot run \(program): \(String(cString: strerror(errno)))")
    }

    /// `$LPROJ_EXTRACT`, else lproj-extract beside this lprojctl, else on PATH.
    static func extractor() -> String? {
        let environment = ProcessInfo.processInfo.environment
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var candidates = environment["LPROJ_EXTRACT"].map { [$0] } ?? []
        candidates.append(URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("lproj-extract").path)
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            candidates.append("\(directory)/lproj-extract")
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
