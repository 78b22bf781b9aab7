import Foundation
import Testing

/// lprojd through the reference Python Varlink client (`pip install varlink`):
/// its CLI must parse the interface, and its library must drive every kind
/// of call, errors and subscriptions included.
@Suite(.serialized) struct PythonClientTests {
    func python(_ arguments: [String]) async throws -> Finished {
        try await run("python3", arguments)
    }

    @Test func theCLIReadsTheInterface() async throws {
        let daemon = try await DaemonProcess()
        let help = try await python(["-m", "varlink.cli", "help", "unix:\(daemon.socket)/org.lprojd.Localization"])
        #expect(help.status == 0, "\(help.errors)")
        let idl = try String(
            contentsOf: DaemonProcess.packageRoot.appendingPathComponent("Sources/LprojInterface/org.lprojd.Localization.varlink"),
            encoding: .utf8)
        // Served verbatim.
        #expect(help.output.trimmingCharacters(in: .whitespacesAndNewlines) == idl.trimmingCharacters(in: .whitespacesAndNewlines))
        let info = try await python(["-m", "varlink.cli", "info", "unix:\(daemon.socket)"])
        #expect(info.output.contains("org.lprojd.Localization") && info.output.contains("org.varlink.service"))
        let call = try await python([
            "-m", "varlink.cli", "call", "unix:\(daemon.socket)/org.lprojd.Localization.Lookup",
            #"{"bundle":"demo","key":"welcome.title","locale":"fr"}"#,
        ])
        #expect(call.output.contains("\"Bienvenue dans Demo\""))
        // The CLI prints errors on stderr (and exits 0).
        let error = try await python([
            "-m", "varlink.cli", "call", "unix:\(daemon.socket)/org.lprojd.Localization.Lookup", #"{"bundle":"nope","key":"x"}"#,
        ])
        #expect(error.errors.contains("org.lprojd.Localization.BundleNotFound"))
    }

    @Test func theLibraryDrivesEveryKindOfCall() async throws {
        let daemon = try await DaemonProcess()
        let script = Bundle.module.url(forResource: "varlink_client", withExtension: "py", subdirectory: "Python")!
        let result = try await python([script.path, daemon.socket])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.hasSuffix("all checks passed\n"), "\(result.output)\(result.errors)")
    }
}
