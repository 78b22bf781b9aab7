import Foundation
import Logging
import LprojEngine
import LprojLocales
import LprojStore
import LprojWatch
import Synchronization
import Testing
import VarlinkProtocol
@testable import LprojService

/// A stream that records what it is sent.
final class RecordingStream: VarlinkStream {
    let caller: VarlinkCaller
    let sent = Mutex<[[UInt8]]>([])
    init(uid: UInt32) { caller = VarlinkCaller(uid: uid, gid: uid, pid: 1, connectionID: UInt64(uid)) }
    func yield(_ parameters: JSONObject) -> Bool { yield(VarlinkEncodedMessage(continuing: parameters)) }
    func yield(_ message: VarlinkEncodedMessage) -> Bool { sent.withLock { $0.append(message.bytes) }; return true }
    func yield(_ message: VarlinkEncodedMessage, whenWritten written: @escaping @Sendable () -> Void) -> Bool {
        defer { written() }
        return yield(message)
    }
    func finish(_ reply: VarlinkReply) {}
    func abandon() {}
    func onTermination(_ handler: @escaping @Sendable (VarlinkStreamEnd) -> Void) {}
    var types: [String] {
        sent.withLock { $0 }.compactMap { bytes in
            guard case .object(let reply)? = try? JSONParser.parse(Array(bytes.dropLast())),
                  case .object(let parameters)? = reply["parameters"], case .object(let event)? = parameters["event"],
                  case .string(let type)? = event["type"] else { return nil }
            return type
        }
    }
}

@Suite struct SubscriptionHubTests {
    @Test func clientEventsReachOnlyTheirUser() {
        let hub = SubscriptionHub(logger: Logger(label: "test"))
        let alice = RecordingStream(uid: 1000), bob = RecordingStream(uid: 1001), aliceOther = RecordingStream(uid: 1000)
        hub.add(alice, uid: 1000, client: "app", bundle: nil)
        hub.add(bob, uid: 1001, client: nil, bundle: nil)
        hub.add(aliceOther, uid: 1000, client: "other.app", bundle: "demo")
        hub.publish(.localeChanged(owner: ClientKey(uid: 1000, client: "app"), bundle: "demo", locale: "de", previous: "en"))
        hub.deliverPending()
        #expect(alice.types == ["localeChanged"])
        #expect(bob.types.isEmpty)          // another user
        #expect(aliceOther.types.isEmpty)   // another client of the same user
        hub.publish(.tablesChanged(bundle: "other", tables: ["Localizable"], locales: ["de"], generation: 2))
        hub.deliverPending()
        #expect(alice.types == ["localeChanged", "tablesChanged"] && bob.types == ["tablesChanged"])
        #expect(aliceOther.types.isEmpty)   // filtered to bundle "demo"
    }
}

@Suite struct AddedStringsTests {
    @Test func limitsAreEnforcedWithoutHalfAdding() throws {
        let registry = AddedStringsRegistry(maximumStrings: 3, maximumLength: 5)
        let key = try LocaleIdentifier("de").matchKey
        #expect(try registry.add(["a": "1", "b": "2"], uid: 1, client: "c", bundle: "b", table: "T", locale: key) == 2)
        #expect(throws: AddedStringsRegistry.Refusal.tooMany(maximum: 3)) {
            try registry.add(["c": "3", "d": "4"], uid: 1, client: "c", bundle: "b", table: "T", locale: key)
        }
        #expect(registry.overlay(uid: 1, client: "c", bundle: "b")?.count == 2)
        #expect(throws: AddedStringsRegistry.Refusal.tooLong(maximum: 5)) {
            try registry.add(["x": "too long"], uid: 1, client: "c", bundle: "b", table: "T", locale: key)
        }
        // Replacing a value does not count twice.
        #expect(try registry.add(["a": "9"], uid: 1, client: "c", bundle: "b", table: "T", locale: key) == 2)
        #expect(registry.remove(uid: 1, client: "c", bundle: "b", table: nil, locale: nil) == 2)
        #expect(registry.overlay(uid: 1, client: "c", bundle: "b") == nil)
    }

    @Test func oneUserCannotInventClientsWithoutEnd() throws {
        let registry = AddedStringsRegistry(maximumStrings: 10, maximumLength: 10)
        let key = try LocaleIdentifier("de").matchKey
        for index in 0..<64 { _ = try registry.add(["k": "v"], uid: 7, client: "c\(index)", bundle: "b", table: "T", locale: key) }
        #expect(throws: AddedStringsRegistry.Refusal.tooManyClients(maximum: 64)) {
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
        // A saved locale the bundle no longer has is forgotten.
        #expect(try current("it", []).forgetSaved)
        #expect(try current("it", ["de"]).reason == .preferred)
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

@Suite struct CatalogWatcherTests {
    /// inotify's queue overflowing means events were lost: everything is
    /// read again, and what changed meanwhile is served and announced.
    @Test func anOverflowRereadsEverything() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("overflow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("de.lproj"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("\"k\" = \"alt\";".utf8).write(to: directory.appendingPathComponent("de.lproj/Localizable.strings"))
        let configuration = BundleConfiguration(name: "b", directory: directory.path, developmentLocale: try LocaleIdentifier("de"))
        let catalog = Catalog()
        let hub = SubscriptionHub(logger: Logger(label: "test"))
        let watcher = try CatalogWatcher(catalog: catalog, hub: hub, configurations: [configuration], logger: Logger(label: "test"))
        catalog.load([configuration])
        let subscriber = RecordingStream(uid: 0)
        hub.add(subscriber, uid: 0, client: nil, bundle: nil)
        // A change whose event "was lost"; then only the overflow marker arrives.
        try Data("\"k\" = \"neu\";".utf8).write(to: directory.appendingPathComponent("de.lproj/Localizable.strings"))
        await watcher.handle([InotifyEvent(watch: -1, mask: .queueOverflow, cookie: 0, name: "")])
        let bundle = try #require(catalog.snapshot.bundles["b"])
        #expect(bundle.lookup("k", locale: try bundle.resolve(locale: "de")).value == "neu")
        hub.deliverPending()
        #expect(subscriber.types == ["tablesChanged"])
    }
}
