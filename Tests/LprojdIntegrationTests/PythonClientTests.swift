import Foundation
import Testing

/// lprojd through the reference Python Varlink client (`pip install varlink`):
/// its CLI must parse the interface, and its library must drive every kind
/// of call, errors and subscriptions included.
@Suite(.serialized) struct PythonClientTests {
    func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    @Test func theCLIReadsTheInterface() async throws {
        let daemon = try await DaemonProcess()
        let help = try run(["-m", "varlink.cli", "help", "unix:\(daemon.socket)/org.lprojd.Localization"])
        #expect(help.status == 0, "\(help.errors)")
        let idl = try String(contentsOf: DaemonProcess.packageRoot.appendingPathComponent("Sources/LprojService/org.lprojd.Localization.varlink"), encoding: .utf8)
        // Served verbatim.
        #expect(help.output.trimmingCharacters(in: .whitespacesAndNewlines) == idl.trimmingCharacters(in: .whitespacesAndNewlines))
        let info = try run(["-m", "varlink.cli", "info", "unix:\(daemon.socket)"])
        #expect(info.output.contains("org.lprojd.Localization") && info.output.contains("org.varlink.service"))
        let call = try run(["-m", "varlink.cli", "call", "unix:\(daemon.socket)/org.lprojd.Localization.Lookup", #"{"bundle":"demo","key":"welcome.title","locale":"fr"}"#])
        #expect(call.output.contains("\"Bienvenue dans Demo\""))
        // The CLI prints errors on stderr (and exits 0).
        let error = try run(["-m", "varlink.cli", "call", "unix:\(daemon.socket)/org.lprojd.Localization.Lookup", #"{"bundle":"nope","key":"x"}"#])
        #expect(error.errors.contains("org.lprojd.Localization.BundleNotFound"))
    }

    @Test func theLibraryDrivesEveryKindOfCall() async throws {
        let daemon = try await DaemonProcess()
        let script = Bundle.module.url(forResource: "varlink_client", withExtension: "py", subdirectory: "Python")!
        let result = try run([script.path, daemon.socket])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.hasSuffix("all checks passed\n"), "\(result.output)\(result.errors)")
    }
}
