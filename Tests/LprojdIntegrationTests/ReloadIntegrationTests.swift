import Foundation
import LprojClient
import LprojInterface
import Synchronization
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// Hot reload and notifications, through the real daemon and inotify.
@Suite(.serialized) struct ReloadIntegrationTests {
    @Test func aRenamedOverTableIsServedBeforeItIsAnnounced() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let events = EventRecorder(try await lprojd.events(bundle: "demo"))
        let ready = try await events.next()
        #expect(ready.type == .ready)

        try daemon.replace("fr.lproj/Localizable.strings", "\"welcome.title\" = \"Bienvenue, version 2\";\n")
        let changed = try await events.next { $0.type == .tablesChanged }
        #expect(changed.tables == ["Localizable"] && changed.locales == ["fr"])
        #expect((changed.generation ?? 0) > (ready.generation ?? 0))
        // A lookup made on receipt sees the new strings.
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "fr").value == "Bienvenue, version 2")
        // The other French keys are gone from fr (this version dropped them) and fall back per key.
        #expect(try await lprojd.lookup(bundle: "demo", key: "settings.title", locale: "fr").locale == "en")

        // Written in place: a reader may see the file truncated, or the
        // rename's last event may still come, before the write's own event
        // does; after that one, a lookup sees version 3.
        try daemon.write("fr.lproj/Localizable.strings", "\"welcome.title\" = \"Bienvenue, version 3\";\n")
        var value = ""
        for _ in 0..<5 where value != "Bienvenue, version 3" {
            _ = try await events.next { $0.type == .tablesChanged }
            value = try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "fr").value
        }
        #expect(value == "Bienvenue, version 3")
    }

    /// `git checkout` deletes a table and writes a new one in its place;
    /// editors truncate it and write it again. A lookup meanwhile sees the
    /// old table or the new one, never none (a fallback to English) and
    /// never half of one. A table deleted for good is withdrawn after its
    /// grace.
    @Test func aTableRewrittenInPlaceIsNeverServedHalfWritten() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let events = EventRecorder(try await lprojd.events(bundle: "demo"))
        _ = try await events.next()
        let path = daemon.bundleDirectory.appendingPathComponent("de.lproj/Localizable.strings").path
        let padding = (0..<2_000).map { "\"pad.\($0)\" = \"Füllung \($0)\";\n" }.joined()
        let table = Array((try String(contentsOfFile: path, encoding: .utf8) + padding).utf8)
        try daemon.replace("de.lproj/Localizable.strings", String(decoding: table, as: UTF8.self))
        _ = try await events.next { $0.type == .tablesChanged }

        let written = Flag(), enoughLookups = Flag()
        Thread.detachNewThread {
            defer { written.raise() }
            // At least 40 rewrites, and on until 200 lookups were made meanwhile.
            for round in 0..<4_000 where round < 40 || !enoughLookups.isRaised {
                // As git writes a file it checks out: unlink, create, write, close;
                // and as an editor saves in place: truncate, write, close. The
                // writer takes its time between the two halves, as a slow disk would.
                if round % 2 == 0 { unlink(path) }
                let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                precondition(descriptor >= 0)
                table.withUnsafeBytes { bytes in
                    let half = bytes.count / 2
                    _ = Glibc.write(descriptor, bytes.baseAddress!, half)
                    usleep(3_000)
                    _ = Glibc.write(descriptor, bytes.baseAddress! + half, bytes.count - half)
                }
                close(descriptor)
            }
        }
        var lookups = 0
        var wrong: [String] = []
        while !written.isRaised {
            let reply = try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de")
            let padded = try await lprojd.lookup(bundle: "demo", key: "pad.1999", locale: "de")
            lookups += 2
            if lookups >= 200 { enoughLookups.raise() }
            if reply.value != "Willkommen bei Demo" || reply.locale != "de" {
                wrong.append("\(reply.value) (\(reply.locale ?? "no locale"))")
            }
            if padded.value != "Füllung 1999" { wrong.append("pad.1999: \(padded.value) (\(padded.locale ?? "no locale"))") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(lookups) lookups saw no table or half of one: \(wrong.prefix(5))")
        #expect(lookups >= 200)

        // Deleted for good: withdrawn once its grace is over (after the
        // changes the rewrites announced, which may still be on their way).
        unlink(path)
        var locale: String?
        for _ in 0..<50 where locale != "en" {
            _ = try await events.next { $0.type == .tablesChanged && ($0.locales ?? []).contains("de") }
            locale = try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de").locale
        }
        #expect(locale == "en")
    }

    @Test func foldersAppearAndVanish() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let events = EventRecorder(try await lprojd.events())
        _ = try await events.next()
        try FileManager.default.createDirectory(
            at: daemon.bundleDirectory.appendingPathComponent("it.lproj"), withIntermediateDirectories: false)
        let added = try await events.next { $0.type == .localesChanged }
        #expect(added.added == ["it"])
        try daemon.write("it.lproj/Localizable.strings", "\"welcome.title\" = \"Benvenuto\";\n")
        _ = try await events.next { $0.type == .tablesChanged && $0.locales == ["it"] }
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "it-CH").value == "Benvenuto")
        #expect(try await lprojd.bundles()[0].supportedLocales.contains("it"))

        try FileManager.default.removeItem(at: daemon.bundleDirectory.appendingPathComponent("it.lproj"))
        let removed = try await events.next { $0.type == .localesChanged && $0.removed == ["it"] }
        #expect(removed.bundle == "demo")
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "it").value == "Welcome to Demo")
    }

    @Test func aBrokenTableKeepsItsLastGoodVersionUntilFixed() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let events = EventRecorder(try await lprojd.events())
        _ = try await events.next()

        // An editor's swap file changes nothing.
        try daemon.write("de.lproj/.Localizable.strings.swp", "garbage")
        try daemon.write("de.lproj/Localizable.strings", "\"welcome.title\" = \"Hallo\";\n\"broken\" = \"no end;\n")
        let error = try await events.next { $0.type == .tableError }
        #expect(error.file == "de.lproj/Localizable.strings")
        #expect(error.line == 2 && error.column == 12)
        #expect(error.message?.contains("never closed") == true)
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de").value == "Willkommen bei Demo")
        let broken = try await lprojd.status()
        #expect(broken.errors.count == 1 && broken.errors[0].line == 2 && broken.errors[0].file == "de.lproj/Localizable.strings")

        try daemon.replace("de.lproj/Localizable.strings", "\"welcome.title\" = \"Hallo, repariert\";\n")
        _ = try await events.next { $0.type == .tablesChanged }
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de").value == "Hallo, repariert")
        #expect(try await lprojd.status().errors.isEmpty)
        #expect(!events.events.contains { $0.type == .tableError && $0.file?.contains("swp") == true })
    }

    @Test func aDeletedBundleDirectoryRecoversWhenItComesBack() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let events = EventRecorder(try await lprojd.events())
        _ = try await events.next()
        _ = try await lprojd.select(client: "app", bundle: "demo", locale: "ja")
        let saved = daemon.directory.appendingPathComponent("saved-bundle")
        try FileManager.default.moveItem(at: daemon.bundleDirectory, to: saved)
        let gone = try await events.next { $0.type == .bundleChanged }
        #expect(gone.message?.contains("gone") == true)
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de").value == "welcome.title")
        #expect(try await lprojd.status().errors.contains { $0.message.contains("cannot be read") })
        // Meanwhile the app's choice does not apply, and asking does not
        // forget it (nor replace it with a preferred language).
        let meanwhile = try await lprojd.selection(client: "app", bundle: "demo", preferredLanguages: ["de"])
        #expect(meanwhile.locale == "en" && meanwhile.reason == .default)

        try FileManager.default.moveItem(at: saved, to: daemon.bundleDirectory)
        let back = try await events.next { $0.type == .bundleChanged }
        #expect(back.message?.contains("back") == true)
        let backGeneration = back.generation ?? 0
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de").value == "Willkommen bei Demo")
        let again = try await lprojd.selection(client: "app", bundle: "demo", preferredLanguages: ["de"])
        #expect(again.locale == "ja" && again.reason == .saved)
        // And it is watched again. (Changes within one tick of each other
        // reach a subscriber merged: the event names ja, with a later generation.)
        try daemon.replace("ja.lproj/Localizable.strings", "\"welcome.title\" = \"ようこそ\";\n")
        _ = try await events.next {
            $0.type == .tablesChanged && $0.locales?.contains("ja") == true && ($0.generation ?? 0) > backGeneration
        }
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "ja").value == "ようこそ")
    }

    @Test func localeChangesReachTheClientsSubscribers() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let mine = EventRecorder(try await lprojd.events(client: "app.one"))
        let other = EventRecorder(try await lprojd.events(client: "app.two"))
        _ = try await mine.next()
        _ = try await other.next()
        _ = try await lprojd.select(client: "app.one", bundle: "demo", locale: "ja")
        let changed = try await mine.next { $0.type == .localeChanged }
        #expect(changed.client == "app.one" && changed.locale == "ja" && changed.previousLocale == "en")
        _ = try await lprojd.select(client: "app.two", bundle: "demo", locale: "de")
        let second = try await other.next { $0.type == .localeChanged }
        #expect(second.client == "app.two")
        #expect(!mine.events.contains { $0.client == "app.two" })
        _ = try await lprojd.addStrings(["k": "v"], client: "app.one", bundle: "demo", locale: "de")
        let added = try await mine.next { $0.type == .tablesChanged }
        #expect(added.client == "app.one")
    }

    @Test func subscribingNeedsMoreAndEndsWithShutdown() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        await expectError("org.varlink.service.ExpectedMore") { _ = try await daemon.call("Subscribe") }
        await expectError("org.lprojd.Localization.BundleNotFound") { _ = try await lprojd.events(bundle: "nope").first { _ in true } }
        let events = EventRecorder(try await lprojd.events())
        _ = try await events.next()
        await lprojd.close()
        #expect(try await daemon.stop(signal: SIGTERM) == 0)
        let last = try await events.next()
        #expect(last.type == .shutdown)
    }

    @Test func reloadReadsEverythingAgain() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let before = try await lprojd.bundles()[0].generation
        let bundles = try await lprojd.reload(bundle: "demo")
        #expect(bundles.map(\.name) == ["demo"] && bundles[0].generation > before)
        await expectError("org.lprojd.Localization.BundleNotFound") { _ = try await lprojd.reload(bundle: "nope") }
    }
}

/// Raised once, by one thread, for another to see.
private final class Flag: Sendable {
    private let raised = Atomic(false)
    var isRaised: Bool { raised.load(ordering: .acquiring) }
    func raise() { raised.store(true, ordering: .releasing) }
}
