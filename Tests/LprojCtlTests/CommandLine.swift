import Foundation

/// Runs the real `lprojctl` binary built next to the tests.
enum Tool {
    struct Result {
        let status: Int32
        let output: String
        let errors: String
    }

    static var packageRoot: URL {
        var url = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { url.deleteLastPathComponent() }
        return url
    }

    static var corpus: URL { packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus") }

    /// The directory of the test runner, where SwiftPM also puts the executables.
    static var binaries: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:], input: Data? = nil) throws -> Result {
        let process = Process()
        process.executableURL = binaries.appendingPathComponent(name)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        if let input {
            let pipe = Pipe()
            process.standardInput = pipe
            try process.run()
            pipe.fileHandleForWriting.write(input)
            try pipe.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        // Read stderr on another thread so a full pipe cannot block the child.
        let errorData = DataBox()
        let reader = Thread {
            errorData.data = errors.fileHandleForReading.readDataToEndOfFile()
            errorData.done.signal()
        }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        errorData.done.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData.data, as: UTF8.self))
    }
}

/// Hands data from the reader thread to the test; `done` orders the accesses.
final class DataBox: @unchecked Sendable {
    var data = Data()
    let done = DispatchSemaphore(value: 0)
}
