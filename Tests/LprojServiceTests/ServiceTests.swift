import Foundation
import Logging
import LprojEngine
import LprojLimits
import LprojFiles
import LprojLocales
import LprojStore
import LprojWatch
import Synchronization
import LprojTestSupport
import Testing
import LprojInterface
@testable import LprojService

@Suite struct AddedStringsTests {
    @Test func limitsAreEnforcedWithoutHalfAdding() throws {
        let registry = AddedStringsRegistry(limits: AddedStringLimits(maximumStrings: 3, maximumLength: 5))
        let key = try LocaleIdentifier("de")
        #expect(try registry.add(["a": "1", "b": "2"], uid: 1, client: "c", bundle: "b", table: "T", locale: key) == 2)
        #expect(throws: AddedStringsError.tooMany(maximum: 3)) {
            try registry.add(["c": "3", "d": "4"], uid: 1, client: "c", bundle: "b", table: "T", locale: key)
        }
        #expect(registry.overlay(uid: 1, client: "c", bundle: "b")?.count == 2)
        #expect(throws: AddedStringsError.tooLong(maximum: 5)) {
            try registry.add(["x": "too long"], uid: 1, client: "c", bundle: "b", table: "T", locale: key)
        }
        // Replacing a value does not count twice.
        #expect(try registry.add(["a": "9"], uid: 1, client: "c", bundle: "b", table: "T", locale: key) == 2)
        #expect(registry.remove(uid: 1, client: "c", bundle: "b", table: nil, locale: nil) == 2)
        #expect(registry.overlay(uid: 1, client: "c", bundle: "b") == nil)
    }

    @Test func oneUserCannotInventClientsWithoutEnd() throws {
        let registry = AddedStringsRegistry(limits: AddedStringLimits(maximumStrings: 10, maximumLength: 10))
        let key = try LocaleIdentifier("de")
        for index in 0..<64 { _ = try registry.add(["k": "v"], uid: 7, client: "c\(index)", bundle: "b", table: "T", locale: key) }
        #expect(throws: AddedStringsError.tooManyClients(maximum: 64)) {
            try registry.add(["k": "v"], uid: 7, client: "c64", bundle: "b", table: "T", locale: key)
        }
        // Another user is not affected.
        #expect(try registry.add(["k": "v"], uid: 8, client: "c0", bundle: "b", table: "T", locale: key) == 1)
    }
}

@Suite struct SelectionPolicyTests {
    func bundle() throws -> (LoadedBundle, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString)")
        for folder in ["en", "de", "fr-CA", "pt-BR", "zh-Hant"] {
            let url = directory.appendingPathComponent("\(folder).lproj")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data("\"k\" = \"v\";".utf8).write(to: url.appendingPathComponent("Localizable.strings"))
        }
        let configuration = BundleConfiguration(name: "b", directory: directory.path, developmentLocale: try LocaleIdentifier("en"))
        return (BundleLoader().load(configuration), directory)
    }

    @Test func theOrderIsSavedPreferredDefault() throws {
        let (bundle, directory) = try bundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        func current(_ saved: String?, _ preferred: [String]) throws -> SelectionPolicy.Choice {
            SelectionPolicy.current(in: bundle, saved: saved, preferred: try preferred.map { try LocaleIdentifier($0) })
        }
        #expect(try current("de", ["fr-CA"]) == .init(locale: try .init("de"), reason: .saved, save: false, forgetSaved: false))
        // Each preferred language exactly, then by its language, before the next.
        #expect(try current(nil, ["de-AT", "fr-CA"]).locale.tag == "de")
        #expect(try current(nil, ["fr-CA"]).locale.tag == "fr-CA")
        #expect(try current(nil, ["fr", "pt-BR"]).locale.tag == "pt-BR")  // fr-CA is not "fr"
        #expect(try current(nil, ["zh-TW"]).locale.tag == "zh-Hant")
        #expect(try current(nil, ["ja"]) == .init(locale: try .init("en"), reason: .default, save: false, forgetSaved: false))
        // A saved locale the bundle lacks now is neither forgotten nor
        // replaced: it applies again when its folder comes back.
        #expect(try current("it", []) == .init(locale: try .init("en"), reason: .default, save: false, forgetSaved: false))
        #expect(try current("it", ["de"]) == .init(locale: try .init("de"), reason: .preferred, save: false, forgetSaved: false))
    }

    @Test func selectingFallsBackToTheLanguageThenTheDefault() throws {
        let (bundle, directory) = try bundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(SelectionPolicy.select(try LocaleIdentifier("de-CH"), in: bundle).locale.tag == "de")
        #expect(SelectionPolicy.select(try LocaleIdentifier("pt-BR"), in: bundle).locale.tag == "pt-BR")
        let unsupported = SelectionPolicy.select(try LocaleIdentifier("ja"), in: bundle)
        #expect(unsupported.locale.tag == "en" && unsupported.reason == .default && !unsupported.save)
    }
}

@Suite struct BundleWatcherTests {
    /// inotify's queue overflowing means events were lost: everything is
    /// read again, and what changed meanwhile is served and announced.
    @Test func anOverflowRereadsEverything() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("overflow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("de.lproj"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("\"k\" = \"alt\";".utf8).write(to: directory.appendingPathComponent("de.lproj/Localizable.strings"))
        let configuration = BundleConfiguration(name: "b", directory: directory.path, developmentLocale: try LocaleIdentifier("de"))
        let served = ServedBundles()
        let events = RecordingEvents()
        let watcher = try BundleWatcher(
            served: served, events: events, configurations: [configuration], clock: ContinuousClock(), logger: Logger(label: "test"))
        watcher.loadAll()
        // A change whose event "was lost"; then only the overflow marker arrives.
        try Data("\"k\" = \"neu\";".utf8).write(to: directory.appendingPathComponent("de.lproj/Localizable.strings"))
        let running = Task { try await watcher.run() }
        defer { running.cancel() }
        watcher.handle([InotifyEvent(watch: -1, mask: .queueOverflow, cookie: 0, name: "")])
        try await withTimeout(seconds: 10, "the reload was not announced") { await events.wait { !$0.isEmpty } }
        let bundle = try #require(served.snapshot.bundles["b"])
        #expect(bundle.lookup("k", locale: try bundle.resolve(locale: "de")).value == "neu")
        #expect(events.events.map(\.interfaceEvent.type) == [.tablesChanged])
    }

    /// A folder refused with its bundle (over max-bundle-bytes) is read
    /// once the bundle is back within its limits, though the change that
    /// brought it back was elsewhere: lprojd once forgot what it refused,
    /// and served the bundle without that folder until it changed again.
    @Test func aBundleBackWithinItsLimitsServesWhatWasRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("refused-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ path: String, _ text: String) throws {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        // 600 bytes of comment: with the French table, over 1,000 bytes.
        try write("de.lproj/Localizable.strings", "\"k\" = \"de\";\n")
        try write("de.lproj/Padding.strings", "/* \(String(repeating: "x", count: 600)) */\n")
        var configuration = BundleConfiguration(name: "b", directory: directory.path, developmentLocale: try LocaleIdentifier("de"))
        configuration.limits.bytes = 1_000
        let served = ServedBundles()
        let watcher = try BundleWatcher(
            served: served, events: RecordingEvents(), configurations: [configuration], clock: ContinuousClock(),
            logger: Logger(label: "test"))
        watcher.loadAll()
        let running = Task { try await watcher.run() }
        defer { running.cancel() }
        func serves(until holds: @escaping @Sendable (LoadedBundle) -> Bool, _ what: String) async throws {
            try await withTimeout(seconds: 20, what) {
                while !(served.snapshot.bundles["b"].map(holds) ?? false) {
                    try await Task.sleep(for: .milliseconds(10))  // polling the published snapshot, with a deadline
                }
            }
        }
        try write("fr.lproj/Localizable.strings", "/* \(String(repeating: "y", count: 500)) */\n\"k\" = \"fr\";\n")
        try await serves(until: { $0.problems.contains { $0.code == BundleLimitExceeded.problemCode } }, "the bundle was not refused")
        // Back within its limits by a change in another folder.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("de.lproj/Padding.strings"))
        try await serves(until: { $0.problems.isEmpty }, "the bundle was not read again")
        let bundle = try #require(served.snapshot.bundles["b"])
        #expect(bundle.lookup("k", locale: try bundle.resolve(locale: "fr")).value == "fr")
    }
}
