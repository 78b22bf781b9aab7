import Foundation
import LprojEngine
import LprojInterface
import LprojSnapshot
import LprojTestSupport
import Synchronization
import Testing

@testable import LprojService

/// `GetSnapshot`: lprojd writes a bundle's snapshot once per locale and
/// generation, in its own directory, and a client maps it; what it says is
/// what lookups say; files stay bounded whatever locales clients name, and
/// an older generation's file goes after its grace period.
@Suite struct SnapshotStoreTests {
    let alice = Caller(uid: 1000)

    /// A clock the test moves.
    final class TestTime: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(_ duration: Duration) { instant.withLock { $0 = $0.advanced(by: duration) } }
    }

    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("snapshots-\(UUID().uuidString)")
    }

    @Test func aSnapshotSaysWhatLookupsSayAndIsWrittenOncePerGeneration() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let time = TestTime()
        var limits = SnapshotStore.Limits()
        limits.grace = .seconds(60)
        let store = SnapshotStore(directory: directory.path, limits: limits, now: { time.now })
        #expect(store.problem == nil)
        let fixture = try ServiceFixture(snapshots: store)
        let first = try await fixture.service.getSnapshot(.init(bundle: "demo", locale: "de"), caller: alice).reply()
        #expect(first.locale == "de" && first.path.hasPrefix(directory.path))
        let snapshot = try Snapshot.open(path: first.path)
        try snapshot.verify()
        #expect(try FileManager.default.attributesOfItem(atPath: first.path)[.posixPermissions] as? Int == 0o644)
        let bundle = try #require(fixture.served.snapshot.bundles["demo"])
        let german = try bundle.resolve(locale: "de")
        for table in bundle.tableNames {
            for key in bundle.resolvedTable(table, locale: german).entries.keys {
                #expect(snapshot.value(key, table: table) == bundle.lookup(key, table: table, locale: german).value, "\(key)")
            }
        }
        // Asked again, or for a locale that comes to the same: the same file, at once.
        guard case .now(let again) = try fixture.service.getSnapshot(.init(bundle: "demo", locale: "de-AT"), caller: alice) else {
            Issue.record("a snapshot written is not answered at once")
            return
        }
        #expect(again == first)

        // A new generation: a new file; the old one stays through its grace.
        try fixture.bundle.write("de.lproj/Localizable.strings", "\"greeting\" = \"Servus\";\n")
        _ = try await fixture.service.reload(.init(bundle: "demo"), caller: Caller(uid: 999)).reply()
        let second = try await fixture.service.getSnapshot(.init(bundle: "demo", locale: "de"), caller: alice).reply()
        #expect(second.path != first.path && second.generation > first.generation)
        #expect(try Snapshot.open(path: second.path).value("greeting") == "Servus")
        #expect(FileManager.default.fileExists(atPath: first.path), "an older generation went before its grace period")
        #expect(snapshot.value("greeting") == "Hallo", "a mapping of the old file stays valid")
        time.advance(.seconds(61))
        _ = try await fixture.service.getSnapshot(.init(bundle: "demo", locale: "fr"), caller: alice).reply()
        #expect(!FileManager.default.fileExists(atPath: first.path))
        #expect(snapshot.value("greeting") == "Hallo", "a mapping of a removed file stays valid")
    }

    @Test func whateverLocalesClientsNameTheFilesAreTheBundlesLocales() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = SnapshotStore(directory: directory.path)
        let fixture = try ServiceFixture(snapshots: store)
        var locales: Set<String> = [], asked = 0
        for language in ["de", "fr", "en", "sv", "ja", "ru", "pt", "zh"] {
            for region in ["", "-AT", "-CH", "-US", "-x-private", "-u-nu-arab", "-Latn", "-001"] {
                // A locale this system does not know is refused, as GetTable refuses it.
                guard let answer = try? fixture.service.getSnapshot(.init(bundle: "demo", locale: language + region), caller: alice)
                else { continue }
                locales.insert(try await answer.reply().locale)
                asked += 1
            }
        }
        #expect(asked > 50 && locales == ["de", "en", "fr"], "\(asked): \(locales)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 3 && store.usage.files == 3, "\(files)")
    }

    @Test func theFilesAreBoundedLeastRecentlyAskedForFirst() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var limits = SnapshotStore.Limits()
        limits.maximumFiles = 2
        let time = TestTime()
        let store = SnapshotStore(directory: directory.path, limits: limits, now: { time.now })
        let fixture = try ServiceFixture(snapshots: store)
        var paths: [String: String] = [:]
        for locale in ["de", "fr", "de", "en"] {
            time.advance(.seconds(1))
            paths[locale] = try await fixture.service.getSnapshot(.init(bundle: "demo", locale: locale), caller: alice).reply().path
        }
        // fr was asked for least recently: it went.
        #expect(store.usage.files == 2)
        #expect(!FileManager.default.fileExists(atPath: paths["fr"]!))
        #expect(FileManager.default.fileExists(atPath: paths["de"]!) && FileManager.default.fileExists(atPath: paths["en"]!))
    }

    @Test func withoutADirectoryOfItsOwnNoneIsWritten() async throws {
        let fixture = try ServiceFixture()
        #expect(throws: ServiceError.self) { try fixture.service.getSnapshot(.init(bundle: "demo"), caller: alice) }
        let shared = Self.directory()
        defer { try? FileManager.default.removeItem(at: shared) }
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        chmod(shared.path, 0o777)
        let store = SnapshotStore(directory: shared.path)
        #expect(store.problem?.contains("not lprojd's own") == true, "\(store.problem ?? "")")
        // What an earlier run left is removed when lprojd starts.
        let own = Self.directory()
        defer { try? FileManager.default.removeItem(at: own) }
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: own.appendingPathComponent("demo@de@3.lprojsnap"))
        _ = SnapshotStore(directory: own.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: own.path).isEmpty)
    }
}
