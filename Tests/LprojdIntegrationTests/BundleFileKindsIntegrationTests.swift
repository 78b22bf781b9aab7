import Foundation
import LprojClient
import LprojInterface
import LprojTestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// What lprojd does with what is not a plain table file in a bundle: a
/// FIFO, a symbolic link out of it. Whoever can write to a bundle folder
/// (an admin's mistake, a bundle in a user's directory) must not be able
/// to hang lprojd, nor to make it serve a file it can read and they cannot.
@Suite(.serialized) struct BundleFileKindsIntegrationTests {
    /// Opening a FIFO waits for a writer. One named like a table, there
    /// when lprojd starts, once kept it from ever answering; one in a
    /// folder moved in later left the watcher stuck for every bundle.
    @Test func aFIFOIsSkippedAtStartAndWhenItArrives() async throws {
        let daemon = try await DaemonProcess()
        _ = try await daemon.stop()
        #expect(mkfifo(daemon.bundleDirectory.appendingPathComponent("de.lproj/X.strings").path, 0o644) == 0)
        try await withTimeout(seconds: 30, "lprojd did not start with a FIFO in its bundle:\n\(daemon.output)") {
            try await daemon.start()
        }
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de").value == "Willkommen bei Demo")
        let status = try await lprojd.status()
        #expect(status.errors.contains { $0.file == "de.lproj/X.strings" && $0.message.contains("FIFO") })

        // A new folder holding a FIFO, moved into the running bundle.
        let events = EventRecorder(try await lprojd.events(bundle: "demo"))
        _ = try await events.next()
        let staging = daemon.bundleDirectory.deletingLastPathComponent().appendingPathComponent("it.lproj")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try Data("\"welcome.title\" = \"Benvenuto\";\n".utf8).write(to: staging.appendingPathComponent("Localizable.strings"))
        #expect(mkfifo(staging.appendingPathComponent("Y.strings").path, 0o644) == 0)
        #expect(rename(staging.path, daemon.bundleDirectory.appendingPathComponent("it.lproj").path) == 0)
        _ = try await events.next { $0.type == .localesChanged && $0.added == ["it"] }
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "it").value == "Benvenuto")
        // The watcher still follows every change.
        try daemon.replace("fr.lproj/Localizable.strings", "\"welcome.title\" = \"Bienvenue, encore\";\n")
        // (The new folder's own change may come in the same event.)
        _ = try await events.next { $0.type == .tablesChanged && ($0.locales ?? []).contains("fr") }
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "fr").value == "Bienvenue, encore")
    }

    /// A link in the bundle is followed while it stays in the bundle's
    /// directory. One that leads out is not: its target is neither served
    /// nor quoted in what any uid can read.
    @Test func aSymbolicLinkOutOfTheBundleIsNotFollowed() async throws {
        let daemon = try await DaemonProcess()
        let secret = daemon.bundleDirectory.deletingLastPathComponent().appendingPathComponent("secret")
        try FileManager.default.createDirectory(at: secret, withIntermediateDirectories: true)
        try Data("\"password\" = \"hunter2\";\n".utf8).write(to: secret.appendingPathComponent("Secret.strings"))
        try Data("root:$y$hunter2:19000:0:99999:7:::\n".utf8).write(to: secret.appendingPathComponent("shadow"))
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let events = EventRecorder(try await lprojd.events(bundle: "demo"))
        _ = try await events.next()

        let folder = daemon.bundleDirectory.appendingPathComponent("de.lproj")
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("Secret.strings").path,
            withDestinationPath: secret.appendingPathComponent("Secret.strings").path)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("Shadow.strings").path, withDestinationPath: secret.appendingPathComponent("shadow").path)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("Linked.strings").path, withDestinationPath: "Localizable.strings")
        // Links raise no event of their own: a reload reads the folder again.
        _ = try await lprojd.reload(bundle: "demo")

        let secretLookup = try await lprojd.lookup(bundle: "demo", key: "password", table: "Secret", locale: "de")
        #expect(!secretLookup.found && secretLookup.value != "hunter2")
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", table: "Linked", locale: "de").value == "Willkommen bei Demo")
        let status = try await lprojd.status()
        let errors = status.errors.filter { $0.file.hasPrefix("de.lproj/S") }
        #expect(Set(errors.map(\.file)) == ["de.lproj/Secret.strings", "de.lproj/Shadow.strings"])
        #expect(errors.allSatisfy { $0.message.contains("symbolic link") })
        let everything = try await daemon.call("GetStatus")
        #expect(!"\(everything)".contains("hunter2") && !"\(everything)".contains(secret.path))
        #expect(!daemon.output.contains("hunter2"))
    }
}
