import Foundation
import LprojTestSupport

/// How a program ended, and what it wrote.
struct Finished {
    let status: Int32
    let output: String
    let errors: String
}

/// Runs a program to its end, found on PATH, waiting on a thread of its own
/// (not one of the few that run Swift's tasks).
@discardableResult
func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> Finished {
    try await offload { try runBlocking(program, arguments, environment: environment) }
}

func runBlocking(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Finished {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [program] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Read both pipes at once, so that neither fills up and blocks the program.
    let errorData = Mutexed<Data>(Data())
    let reader = Thread { errorData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errorData.isSet { usleep(1_000) }
    return Finished(
        status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
        errors: String(decoding: errorData.value, as: UTF8.self))
}

/// A value set once by another thread.
final class Mutexed<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    private var wasSet = false
    init(_ value: Value) { stored = value }
    func set(_ value: Value) {
        lock.withLock {
            stored = value
            wasSet = true
        }
    }
    var value: Value { lock.withLock { stored } }
    var isSet: Bool { lock.withLock { wasSet } }
}
