import Foundation
import LprojClient
import LprojInterface
import Testing

/// Misses on the real daemon: real lookups are counted, shown by
/// `GetMisses` and `lprojctl misses`, and survive a restart.
@Suite struct MissesIntegrationTests {
    @Test func missesShowUpAfterLookupsAndSurviveARestart() async throws {
        let daemon = try await DaemonProcess()
        do {
            let lprojd = try await daemon.client()
            for client in ["app.one", "app.two", "app.two"] {
                _ = try await lprojd.lookup(bundle: "demo", key: "colour.label", locale: "fr", client: client)
            }
            _ = try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "fr")  // translated
            _ = try await lprojd.lookup(bundle: "demo", key: "not.a.key", locale: "fr")
            let reply = try await lprojd.misses(bundle: "demo")
            #expect(reply.misses.map { "\($0.locale) \($0.key) \($0.count) \($0.clients)" } == ["fr colour.label 3 2"])
            #expect(reply.unknownKeys.first?.sample == ["not.a.key"])
            await lprojd.close()
        }
        // SIGTERM: lprojd saves them as it stops.
        #expect(try await daemon.stop() == 0)
        try await daemon.start()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let again = try await lprojd.misses()
        #expect(again.misses.map { "\($0.bundle) \($0.locale) \($0.key) \($0.count)" } == ["demo fr colour.label 3"])

        let ctl = DaemonProcess.binaries.appendingPathComponent("lprojctl").path
        let listed = try await run(ctl, ["misses", "--since", "1h", "--socket", daemon.socket])
        #expect(listed.status == 0)
        let lines = listed.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("COUNT") == true)
        let row = lines.dropFirst().first?.split(separator: " ").map(String.init) ?? []
        #expect(
            Array(row.prefix(2)) == ["3", "2"] && Array(row.suffix(4)) == ["demo", "fr", "Localizable", "colour.label"], "\(listed.output)")
        #expect(listed.output.contains("\"not.a.key\""))
        // The test runs as the daemon's own user: it may reset them.
        let reset = try await run(ctl, ["misses", "--reset", "--socket", daemon.socket])
        #expect(reset.output == "forgot 1 miss\n")
        #expect(try await lprojd.misses().misses.isEmpty)
    }
}
