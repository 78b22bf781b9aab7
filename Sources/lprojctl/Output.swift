import ArgumentParser
import Foundation

/// Where lprojctl writes: results to stdout, notes and errors to stderr.
enum Output {
    /// Writes a line in one write(2), so that lines of processes sharing a
    /// terminal (a `watch &` and the next command) never interleave.
    static func write(_ data: Data) {
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    static func note(_ text: String) {
        FileHandle.standardError.write(Data("\(text)\n".utf8))
    }
}

/// A count and its noun, singular for one: "1 bundle", "2 bundles", "0
/// entries" (`many` when adding "s" is not the plural).
func count(_ number: Int, _ one: String, _ many: String? = nil) -> String {
    "\(number) \(number == 1 ? one : many ?? one + "s")"
}

/// A failure reported as one line on stderr and exit status 1.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
