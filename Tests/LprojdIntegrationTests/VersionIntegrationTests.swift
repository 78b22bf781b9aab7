import Foundation
import LprojClient
import LprojTestSupport
import Testing

/// One version, written once (`LprojVersion`), reported alike by the
/// programs and the daemon, and by `make print-version` for packaging.
@Suite struct VersionIntegrationTests {
    @Test func theProgramsTheDaemonAndTheMakefileReportOneVersion() async throws {
        let lprojd = try await run(DaemonProcess.lprojdPath, ["--version"])
        let lprojctl = try await run(DaemonProcess.binaries.appendingPathComponent("lprojctl").path, ["--version"])
        #expect(lprojd.status == 0 && lprojctl.status == 0, "\(lprojd.errors)\(lprojctl.errors)")
        let version = lprojd.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.wholeMatch(of: /\d+\.\d+\.\d+/) != nil, "lprojd --version: \(lprojd.output)")
        #expect(lprojctl.output.trimmingCharacters(in: .whitespacesAndNewlines) == version)
        let make = try await run("make", ["-s", "-C", DaemonProcess.packageRoot.path, "print-version"])
        #expect(make.status == 0 && make.output == "\(version)\n", "\(make.output)\(make.errors)")

        let daemon = try await DaemonProcess()
        let raw = try RawClient(path: daemon.socket)
        try raw.send(#"{"method":"org.varlink.service.GetInfo"}"#)
        let info = try #require(try await raw.receiveJSON()?["parameters"] as? [String: Any])
        #expect(info["product"] as? String == "lprojd")
        #expect(info["version"] as? String == version)
        let client = try await daemon.client()
        #expect(try await client.status().version == version)
        await client.close()
    }
}
