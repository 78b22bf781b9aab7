import Foundation
import LprojClient
import LprojInterface
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// `ListClients` and `lprojctl apps` against the real lprojd, as two real
/// users: each sees its own apps, never the other's.
@Suite(.serialized) struct ListClientsIntegrationTests {
    /// Runs lprojctl as uid 65534 through setpriv, from a copy beside the
    /// socket, where that user can reach it.
    func runAsNobody(_ daemon: DaemonProcess, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let copy = daemon.directory.appendingPathComponent("lprojctl")
        if !FileManager.default.fileExists(atPath: copy.path) {
            try FileManager.default.copyItem(at: DaemonProcess.binaries.appendingPathComponent("lprojctl"), to: copy)
            chmod(copy.path, 0o755)
        }
        let finished = try await run(
            "setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", copy.path] + arguments + ["--socket", daemon.socket])
        return (finished.status, (finished.output + finished.errors).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(.enabled(if: getuid() == 0, "needs root to act as a second user"))
    func eachUserListsOnlyItsOwnApps() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        _ = try await lprojd.select(client: "org.example.Editor", bundle: "demo", locale: "de")
        _ = try await lprojd.lookup(bundle: "demo", key: "welcome.title", client: "org.example.RootsOwn")

        // The other user: a choice of its own for an app of the same id, and an app of its own.
        #expect(try await runAsNobody(daemon, ["select", "org.example.Editor", "demo", "ja"]).output == "ja (saved)")
        #expect(
            try await runAsNobody(daemon, ["lookup", "demo", "welcome.title", "--client", "org.example.NobodysOwn"]).output
                == "Welcome to Demo")

        let nobodys = try await runAsNobody(daemon, ["apps", "--json"])
        #expect(nobodys.status == 0, "\(nobodys.output)")
        let reply = try JSONSerialization.jsonObject(with: Data(nobodys.output.utf8)) as? [String: Any]
        let clients = reply?["clients"] as? [[String: Any]] ?? []
        #expect(clients.compactMap { $0["client"] as? String } == ["org.example.Editor", "org.example.NobodysOwn"])
        let editor = (clients.first?["bundles"] as? [[String: Any]])?.first
        #expect(editor?["locale"] as? String == "ja" && editor?["reason"] as? String == "selected")
        #expect(!nobodys.output.contains("RootsOwn"))

        let roots = try await lprojd.clients(locale: "en")
        #expect(roots.clients.map(\.client) == ["org.example.Editor", "org.example.RootsOwn"])
        #expect(roots.clients.first?.bundles.first?.locale == "de" && roots.clients.first?.bundles.first?.reason == .selected)
        #expect(roots.bundles.first?.locales.first { $0.locale == "ja" }?.nativeName == "日本語")

        // The same list for a terminal.
        let text = try await runAsNobody(daemon, ["apps", "--locale", "en"])
        #expect(text.output.hasPrefix("org.example.Editor\n  demo: ja (日本語), selected; used "), "\(text.output)")
        #expect(text.output.contains("\norg.example.NobodysOwn\n  demo: en (English), development locale; used "), "\(text.output)")
        #expect(text.output.contains("demo offers (in en): ar العربية — Arabic, de Deutsch — German"), "\(text.output)")
    }
}
