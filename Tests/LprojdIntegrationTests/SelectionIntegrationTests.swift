import Foundation
import LprojClient
import LprojInterface
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// Selections: SDLocalizationManager's algorithm, persistence, isolation.
@Suite(.serialized) struct SelectionIntegrationTests {
    @Test func selectionFollowsSavedThenPreferredThenDefault() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let app = "org.example.App"

        // Nothing saved, nothing preferred: the development locale, not saved.
        #expect(
            try await lprojd.selection(client: app, bundle: "demo")
                == .init(client: app, bundle: "demo", locale: "en", reason: .default, requested: nil))
        // A preferred language the bundle has, by its language without region: chosen and saved.
        #expect(try await lprojd.selection(client: app, bundle: "demo", preferredLanguages: ["it", "fr-CA", "de"]).locale == "fr")
        // Saved as the best match for the preferred languages, not as the app's choice: it follows them.
        #expect(try await lprojd.selection(client: app, bundle: "demo").reason == .preferred)
        // The client's lookups follow it.
        #expect(try await lprojd.lookup(bundle: "demo", key: "settings.title", client: app).value == "Réglages")

        // Selecting an unsupported region falls back to its language...
        let austrian = try await lprojd.select(client: app, bundle: "demo", locale: "de-AT")
        #expect(austrian.locale == "de" && austrian.reason == .saved && austrian.requested == "de-AT")
        // ...and an unsupported language to the default.
        let klingon = try await lprojd.select(client: app, bundle: "demo", locale: "tlh")
        #expect(klingon.locale == "en" && klingon.reason == .default && klingon.requested == "tlh")
        #expect(try await lprojd.select(client: app, bundle: "demo", locale: "ja").locale == "ja")
        // Forgetting the choice: the preferred languages the app's process sent apply again at once.
        #expect(try await lprojd.reset(client: app, bundle: "demo").locale == "fr")
        #expect(try await lprojd.selection(client: app, bundle: "demo").reason == .preferred)
        // An app that never sent any (and no desktop): the development locale.
        _ = try await lprojd.select(client: "org.example.Quiet", bundle: "demo", locale: "ja")
        #expect(
            try await lprojd.reset(client: "org.example.Quiet", bundle: "demo")
                == .init(client: "org.example.Quiet", bundle: "demo", locale: "en", reason: .default, requested: nil))

        await expectError("org.lprojd.Localization.InvalidLocale") {
            _ = try await lprojd.select(client: app, bundle: "demo", locale: "not a locale")
        }
        await expectError("org.varlink.service.InvalidParameter", ["parameter": "client"]) {
            _ = try await lprojd.select(client: "has space", bundle: "demo", locale: "de")
        }
        await expectError("org.lprojd.Localization.BundleNotFound") {
            _ = try await lprojd.select(client: app, bundle: "nope", locale: "de")
        }
    }

    /// An acknowledged selection survives `kill -9`.
    @Test func selectionsSurviveAKill() async throws {
        let daemon = try await DaemonProcess()
        do {
            let lprojd = try await daemon.client()
            for index in 0..<20 {
                _ = try await lprojd.select(client: "app\(index)", bundle: "demo", locale: index % 2 == 0 ? "de" : "ja")
            }
            await lprojd.close()
        }
        let status = try await daemon.stop(signal: SIGKILL)
        #expect(status != 0)
        try await daemon.start()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        for index in 0..<20 {
            let selection = try await lprojd.selection(client: "app\(index)", bundle: "demo")
            #expect(selection.locale == (index % 2 == 0 ? "de" : "ja") && selection.reason == .saved)
        }
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", client: "app0").value == "Willkommen bei Demo")
    }

    /// Runs lprojctl as another user (uid 65534) through setpriv. The binary
    /// is copied next to the socket first, where that user can reach it.
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

    /// Two users running the same app id never see each other's choices,
    /// and only root or lprojd's own user may reload.
    @Test(.enabled(if: getuid() == 0, "needs root to act as a second user"))
    func usersAreIsolated() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        _ = try await lprojd.select(client: "shared.app", bundle: "demo", locale: "ja")
        _ = try await lprojd.addStrings(["welcome.title": "root's own"], client: "shared.app", bundle: "demo", locale: "de")

        #expect(try await runAsNobody(daemon, ["selection", "shared.app", "demo"]).output == "en (default)")
        #expect(try await runAsNobody(daemon, ["select", "shared.app", "demo", "fr"]).output == "fr (saved)")
        #expect(
            try await runAsNobody(daemon, ["lookup", "demo", "welcome.title", "--client", "shared.app", "--locale", "de"]).output
                == "Willkommen bei Demo")
        let reload = try await runAsNobody(daemon, ["reload"])
        #expect(reload.status != 0 && reload.output.contains("permission denied"), "\(reload.output)")

        // Root's choice and added string are untouched.
        #expect(try await lprojd.selection(client: "shared.app", bundle: "demo").locale == "ja")
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de", client: "shared.app").value == "root's own")
        // Root may reload.
        #expect(try await lprojd.reload().map(\.name) == ["demo"])
    }

    @Test func addedStringsOverlayOneClient() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        #expect(
            try await lprojd.addStrings(["welcome.title": "Hallöchen", "promo.banner": "Neu!"], client: "a", bundle: "demo", locale: "de")
                == 2)
        #expect(
            try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de", client: "a")
                == .init(value: "Hallöchen", found: true, locale: "de"))
        // A more specific file still wins over strings added at its parent.
        #expect(try await lprojd.lookup(bundle: "demo", key: "promo.banner", locale: "de-AT", client: "a").value == "Neu!")
        // Other clients see the files.
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de", client: "b").value == "Willkommen bei Demo")
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de").value == "Willkommen bei Demo")
        // A locale without a folder.
        _ = try await lprojd.addStrings(["welcome.title": "Benvenuto"], client: "a", bundle: "demo", locale: "it")
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "it", client: "a").value == "Benvenuto")
        let table = try await lprojd.table(bundle: "demo", locale: "de", client: "a")
        #expect(table.strings["promo.banner"] == "Neu!")
        #expect(try await lprojd.removeAddedStrings(client: "a", bundle: "demo", locale: "de") == 2)
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de", client: "a").value == "Willkommen bei Demo")
        await expectError("org.lprojd.Localization.InvalidLocale") {
            _ = try await lprojd.addStrings(["x": "y"], client: "a", bundle: "demo", locale: "tlh")
        }
    }

    @Test func addedStringsAreLimited() async throws {
        let daemon = try await DaemonProcess(
            configuration: """
                bundles:
                  - name: demo
                    directory: $BUNDLE
                limits:
                  max-added-strings: 3
                  max-added-string-length: 10
                """)
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        _ = try await lprojd.addStrings(["a": "1", "b": "2"], client: "c", bundle: "demo", locale: "de")
        await expectError("org.lprojd.Localization.LimitExceeded", ["limit": "addedStrings", "maximum": 3]) {
            _ = try await lprojd.addStrings(["c": "3", "d": "4"], client: "c", bundle: "demo", locale: "de")
        }
        await expectError("org.lprojd.Localization.LimitExceeded", ["limit": "addedStringLength", "maximum": 10]) {
            _ = try await lprojd.addStrings(["e": String(repeating: "x", count: 11)], client: "c", bundle: "demo", locale: "de")
        }
        // What was refused was not half-added.
        #expect(try await lprojd.lookup(bundle: "demo", key: "c", locale: "de", client: "c").found == false)
    }
}
