import Foundation
import LprojClient
import LprojFormatStrings
import LprojInterface
import LprojEngine
import LprojFiles
import LprojLocales
import LprojLocalizer
import LprojSnapshot
import Observation
import Testing
import VarlinkProtocol

// What a file ported from Apple platforms adds, so that its NSLocalizedString
// calls read the localizer (a scoped import wins over Foundation's).
import func LprojLocalizer.NSLocalizedString
import LprojTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The Swift localizer against the real daemon: its mirror answers as
/// `Lookup` does, and it follows selections, edits and restarts.
@Suite(.serialized) struct LocalizerIntegrationTests {
    static let fastRetry = Localizer.Options(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200))

    @Test func theMirrorAnswersEveryKeyAsLookupDoes() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let localizer = try await Localizer.start(bundle: "demo", client: "it.mirror", socketPath: daemon.socket, preferredLanguages: [])
        defer { Task { await localizer.close() } }
        #expect(localizer.locale == "en" && localizer.source == .daemon)
        for locale in ["en", "de", "fr", "ru", "ar", "ja", "zh-Hant", "en-GB"] {
            try await localizer.select(locale)
            #expect(localizer.locale == locale)
            for table in ["Localizable", "Menu"] {
                let reply = try await lprojd.table(bundle: "demo", table: table, locale: locale)
                let keys = Array(reply.strings.keys) + Array(reply.plurals.keys) + ["no.such.key"]
                for key in keys {
                    let expected = try await lprojd.lookup(bundle: "demo", key: key, table: table, locale: locale)
                    let mirrored = try localizer.lookup(key, table: table)
                    #expect(mirrored.value == expected.value, "\(locale) \(table) \(key)")
                    #expect(mirrored.found == expected.found && mirrored.source == expected.locale, "\(locale) \(table) \(key)")
                    #expect(localizer.localized(key, table: table) == expected.value)
                }
            }
            let placeholders = try await lprojd.lookup(bundle: "demo", key: "greeting", locale: locale, placeholders: ["name": "Ada"])
            #expect(localizer.localized("greeting", placeholders: ["name": "Ada"]) == placeholders.value)
            let names = try await lprojd.supportedLocales(bundle: "demo", locale: locale)
            #expect(localizer.supportedLocales == names.locales)
        }
    }

    /// Every plural entry of the corpus's stringsdict files, in every
    /// locale, with counts that reach every category: the localizer's
    /// answer (or its refusal) is the daemon's.
    @Test func pluralsAndFormatsAreTheDaemonsOnTheCorpus() async throws {
        let corpus = DaemonProcess.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/duckduckgo-ios")
        let bundles = [
            ("ddg", corpus.appendingPathComponent("DuckDuckGo")),
            ("syncui", corpus.appendingPathComponent("LocalPackages/SyncUI-iOS/Sources/SyncUI-iOS/Resources")),
        ]
        try #require(FileManager.default.fileExists(atPath: bundles[0].1.path), "the shared corpus is beside the repository")
        let daemon = try await DaemonProcess(arguments: bundles.flatMap { ["--bundle", "\($0.0)=\($0.1.path)@en"] })
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let counts: [FormatArgument] =
            [0, 1, 2, 3, 4, 5, 7, 11, 12, 21, 22, 25, 101, 1_000_000].map { .integer($0) } + [
                .float(1.5, fractionDigits: 1), .float(0.1, fractionDigits: 1),
            ]
        var compared = 0
        for (name, _) in bundles {
            let localizer = try await Localizer.start(bundle: name, client: "it.corpus", socketPath: daemon.socket, preferredLanguages: [])
            let locales = try await lprojd.bundles().first { $0.name == name }!.supportedLocales
            for locale in locales {
                try await localizer.select(locale)
                let table = try await lprojd.table(bundle: name, locale: locale)
                for key in table.plurals.keys.sorted() {
                    for count in counts {
                        for arguments in [[count], [count, .string("x")], [count, count]] {
                            let expected = await outcome {
                                try await lprojd.lookup(
                                    bundle: name, key: key, locale: locale, arguments: arguments.map(\.interfaceArgument)
                                ).value
                            }
                            let mirrored = outcome { try localizer.localized(key, arguments: arguments) }
                            #expect(mirrored == expected, "\(name) \(locale) \(key) \(arguments)")
                            compared += 1
                        }
                    }
                }
            }
            await localizer.close()
        }
        #expect(compared > 20_000)
    }

    @Test func anotherProcessChoosingALanguageIsFollowed() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let localizer = try await Localizer.start(
            bundle: "demo", client: "it.follow", socketPath: daemon.socket, preferredLanguages: ["fr"])
        defer { Task { await localizer.close() } }
        #expect(localizer.localized("welcome.title") == "Bienvenue dans Demo")
        let changes = localizer.changes()
        _ = try await lprojd.select(client: "it.follow", bundle: "demo", locale: "de")
        let change = try await next(changes) { $0.reasons.contains(.locale) }
        #expect(change.locale == "de")
        #expect(localizer.localized("welcome.title") == "Willkommen bei Demo")
        #expect(try localizer.localized("files.selected", arguments: [.integer(2)]) == "2 Dateien ausgewählt")

        // Its own choice applies when select returns, and a second process follows it.
        let other = try await Localizer.start(bundle: "demo", client: "it.follow", socketPath: daemon.socket, preferredLanguages: [])
        defer { Task { await other.close() } }
        #expect(other.locale == "de")
        let otherChanges = other.changes()
        try await localizer.select("ru")
        #expect(localizer.localized("welcome.title") == "Добро пожаловать в Demo")
        _ = try await next(otherChanges) { $0.locale == "ru" }
        #expect(other.localized("welcome.title") == "Добро пожаловать в Demo")

        try await localizer.reset()
        #expect(localizer.locale == "fr")
    }

    @Test func anEditedTableIsFollowed() async throws {
        let daemon = try await DaemonProcess()
        let localizer = try await Localizer.start(bundle: "demo", client: "it.edit", socketPath: daemon.socket, preferredLanguages: ["de"])
        defer { Task { await localizer.close() } }
        let changes = localizer.changes()
        try daemon.replace("de.lproj/Localizable.strings", "\"welcome.title\" = \"Hallo!\";\n")
        let change = try await next(changes) { $0.reasons.contains(.tables) }
        #expect(change.tables == ["Localizable"])
        #expect(localizer.localized("welcome.title") == "Hallo!")
        // The keys the new version dropped fall back per key, as lookups do.
        #expect(try localizer.lookup("settings.title").source == "en")
    }

    @Test func newLanguagesAndPreferencesAreFollowed() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let localizer = try await Localizer.start(bundle: "demo", client: "it.more", socketPath: daemon.socket, preferredLanguages: ["it"])
        defer { Task { await localizer.close() } }
        #expect(localizer.locale == "en")
        let changes = localizer.changes()

        // A folder for the language the user prefers appears (renamed in
        // whole): the app takes it.
        let staged = daemon.directory.appendingPathComponent("it.lproj")
        try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: true)
        try Data("\"welcome.title\" = \"Benvenuto in Demo\";\n".utf8).write(to: staged.appendingPathComponent("Localizable.strings"))
        try FileManager.default.moveItem(at: staged, to: daemon.bundleDirectory.appendingPathComponent("it.lproj"))
        let arrived = try await next(changes) { $0.reasons.contains(.locales) }
        #expect(arrived.reasons.contains(.locale) && arrived.locale == "it")
        #expect(localizer.localized("welcome.title") == "Benvenuto in Demo")
        #expect(localizer.supportedLocales.contains { $0.locale == "it" })

        // Preferences another process of the app sets.
        _ = try await lprojd.setPreferences(.init(timeZone: "Asia/Tokyo"), client: "it.more", bundle: "demo")
        _ = try await next(changes) { $0.reasons.contains(.preferences) }
        #expect(localizer.preferences?.timeZone == "Asia/Tokyo")
    }

    @Test func aVanishedBundleKeepsItsLastStringsUntilItComesBack() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let localizer = try await Localizer.start(
            bundle: "demo", client: "it.vanish", socketPath: daemon.socket, preferredLanguages: ["de"])
        defer { Task { await localizer.close() } }
        let changes = localizer.changes()

        let saved = daemon.directory.appendingPathComponent("saved-bundle")
        try FileManager.default.moveItem(at: daemon.bundleDirectory, to: saved)
        // Told once, of whichever event came first (bundle, locales, tables).
        _ = try await next(changes, context: Self.state(of: localizer, daemon)) { _ in true }
        // lprojd answers keys now; the app still shows its last strings.
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de").value == "welcome.title")
        #expect(localizer.localized("welcome.title") == "Willkommen bei Demo")

        try "\"welcome.title\" = \"Wieder da\";\n".write(
            to: saved.appendingPathComponent("de.lproj/Localizable.strings"), atomically: true, encoding: .utf8)
        try FileManager.default.moveItem(at: saved, to: daemon.bundleDirectory)
        // (Events while it comes back may show a moment of it first.)
        _ = try await next(changes, context: Self.state(of: localizer, daemon)) { _ in
            localizer.localized("welcome.title") == "Wieder da"
        }
        #expect(localizer.locale == "de")
    }

    @Test func aLanguageChosenWhileTheTablesAreGoneAppliesWhenTheyComeBack() async throws {
        let tables = [
            "en.lproj/Localizable.strings": "\"welcome\" = \"Welcome\";\n",
            "de.lproj/Localizable.strings": "\"welcome\" = \"Willkommen\";\n",
            "fr.lproj/Localizable.strings": "\"welcome\" = \"Bienvenue\";\n",
        ]
        let daemon = try await DaemonProcess(files: tables)
        let localizer = try await Localizer.start(bundle: "demo", client: "it.gone", socketPath: daemon.socket, preferredLanguages: ["de"])
        defer { Task { await localizer.close() } }
        let changes = localizer.changes()
        // Every table file goes, one at a time (the folders stay). What the
        // mirror shows meanwhile follows each step; once none is left, the
        // localizer keeps its last mirror (the change that says so names no
        // table fetched).
        for path in tables.keys { try FileManager.default.removeItem(at: daemon.bundleDirectory.appendingPathComponent(path)) }
        _ = try await next(changes) { $0.tables.isEmpty }
        // The user picks French meanwhile: nothing to fetch yet.
        try await localizer.select("fr")
        // The files come back (no folder came or went: tablesChanged only),
        // and the choice applies. (One file at a time: French may show
        // English values until its own is back.)
        for (path, text) in tables { try daemon.replace(path, text) }
        _ = try await next(changes, context: Self.state(of: localizer, daemon)) { _ in localizer.localized("welcome") == "Bienvenue" }
        #expect(localizer.locale == "fr")
    }

    @Test func aRestartedDaemonIsFollowedAndTheMirrorAnswersMeanwhile() async throws {
        let daemon = try await DaemonProcess()
        let localizer = try await Localizer.start(
            bundle: "demo", client: "it.restart", socketPath: daemon.socket, preferredLanguages: ["de"], options: Self.fastRetry)
        defer { Task { await localizer.close() } }
        let changes = localizer.changes()
        _ = try await daemon.stop()
        _ = try await next(changes) { $0.reasons.contains(.disconnected) }
        #expect(localizer.localized("welcome.title") == "Willkommen bei Demo")
        #expect(throws: LprojError.disconnected) { try localizer.connected() }

        try daemon.write("de.lproj/Localizable.strings", "\"welcome.title\" = \"Wieder da\";\n")
        try await daemon.start()
        let back = try await next(changes) { $0.reasons.contains(.reconnected) }
        #expect(back.locale == "de")
        #expect(localizer.localized("welcome.title") == "Wieder da")
        #expect(localizer.source == .daemon)
    }

    @Test func withoutTheDaemonTheBundleDirectoryAnswers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lprojd-loc-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = DaemonProcess.packageRoot.appendingPathComponent("Examples/DemoApp").path
        let localizer = try await Localizer.start(
            bundle: "demo", client: "it.fallback", socketPath: directory.appendingPathComponent("none").path, preferredLanguages: ["ru-RU"],
            options: .init(fallback: .init(directory: bundle, developmentLocale: "en"), initialDelay: .seconds(60)))
        defer { Task { await localizer.close() } }
        #expect(localizer.source == .bundleDirectory)
        #expect(localizer.locale == "ru")
        #expect(try localizer.localized("files.selected", arguments: [.integer(3)]) == "Выбрано: 3 файла")
        #expect(localizer.localized("greeting", placeholders: ["name": "Ada"]) == "Здравствуйте, Ada!")
        #expect(localizer.supportedLocales.map(\.locale).contains("ja"))
        await #expect(throws: LprojError.disconnected) { try await localizer.select("de") }

        // With neither the daemon nor a directory, keys answer.
        let bare = try await Localizer.start(
            bundle: "demo", client: "it.fallback", socketPath: directory.appendingPathComponent("none").path, preferredLanguages: [],
            options: .init(initialDelay: .seconds(60)))
        defer { Task { await bare.close() } }
        #expect(bare.source == .keys && bare.localized("welcome.title", defaultValue: "Welcome") == "Welcome")
    }

    /// The snapshots an app ships (`lprojctl snapshot`), with no lprojd:
    /// the locale lprojd would choose among theirs, every key, plural and
    /// format as the bundle loaded in process answers it; then lprojd
    /// starts, and the localizer follows it.
    @Test func withoutTheDaemonShippedSnapshotsAnswerUntilItComes() async throws {
        let shipped = FileManager.default.temporaryDirectory.appendingPathComponent("lprojd-snapshots-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: shipped, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: shipped) }
        let demo = DaemonProcess.packageRoot.appendingPathComponent("Examples/DemoApp").path
        let bundle = BundleLoader().load(BundleConfiguration(name: "demo", directory: demo, developmentLocale: try LocaleIdentifier("en")))
        for locale in bundle.supportedLocales {
            let bytes = try SnapshotWriter.bytes(of: SnapshotContent(bundle: bundle, locale: try bundle.resolve(locale: locale)))
            try Data(bytes).write(to: shipped.appendingPathComponent("\(locale.tag).lprojsnap"))
        }
        let daemon = try await DaemonProcess()
        _ = try await daemon.stop()
        for preferred in [["ru-RU"], ["pt-PT", "de"], ["zh-TW"], ["ar"], ["sv"]] {
            let fromSnapshots = try await Localizer.start(
                bundle: "demo", client: "it.shipped", socketPath: daemon.socket, preferredLanguages: preferred,
                options: .init(fallback: .init(directory: shipped.path, developmentLocale: "en"), initialDelay: .seconds(60)))
            let fromDirectory = try await Localizer.start(
                bundle: "demo", client: "it.shipped", socketPath: daemon.socket, preferredLanguages: preferred,
                options: .init(fallback: .init(directory: demo, developmentLocale: "en"), initialDelay: .seconds(60)))
            #expect(fromSnapshots.source == .snapshots && fromDirectory.source == .bundleDirectory)
            #expect(fromSnapshots.locale == fromDirectory.locale, "\(preferred)")
            #expect(fromSnapshots.supportedLocales.map(\.locale) == fromDirectory.supportedLocales.map(\.locale))
            for table in bundle.tableNames {
                for key in bundle.resolvedTable(table, locale: try bundle.resolve(locale: fromDirectory.locale)).entries.keys {
                    #expect(fromSnapshots.localized(key, table: table) == fromDirectory.localized(key, table: table), "\(key)")
                }
            }
            for count: Int64 in [0, 1, 2, 3, 5, 11, 22, 101, 1_000_000] {
                #expect(
                    try fromSnapshots.localized("files.selected", arguments: [.integer(count)])
                        == fromDirectory.localized("files.selected", arguments: [.integer(count)]), "\(preferred) \(count)")
            }
            #expect(
                fromSnapshots.localized("greeting", placeholders: ["name": "Ada"])
                    == fromDirectory.localized("greeting", placeholders: ["name": "Ada"]))
            await fromSnapshots.close()
            await fromDirectory.close()
        }
        let localizer = try await Localizer.start(
            bundle: "demo", client: "it.shipped", socketPath: daemon.socket, preferredLanguages: ["ru"],
            options: .init(
                fallback: .init(directory: shipped.path, developmentLocale: "en"), initialDelay: .milliseconds(20),
                maximumDelay: .milliseconds(200)))
        defer { Task { await localizer.close() } }
        #expect(try localizer.localized("files.selected", arguments: [.integer(22)]) == "Выбрано: 22 файла")
        #expect(throws: LprojError.disconnected) { try localizer.connected() }
        let changes = localizer.changes()
        try await daemon.start()
        _ = try await next(changes) { $0.reasons.contains(.reconnected) }
        #expect(localizer.source == .daemon && localizer.locale == "ru")
        #expect(try localizer.localized("files.selected", arguments: [.integer(22)]) == "Выбрано: 22 файла")
    }

    /// lprojd writes a bundle's snapshot in its runtime directory; a client
    /// maps it and finds lprojd's lookups; a table edited on disk gives a
    /// new generation's file.
    @Test func lprojdWritesTheSnapshotsClientsMap() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let reply = try await lprojd.snapshot(bundle: "demo", locale: "ru-RU")
        #expect(reply.locale == "ru" && reply.path.hasPrefix(daemon.directory.appendingPathComponent("runtime/lprojd/snapshots").path))
        let snapshot = try Snapshot.open(path: reply.path)
        try snapshot.verify()
        #expect(snapshot.generation == UInt64(reply.generation) && reply.size > 0)
        for key in ["welcome.title", "greeting", "settings.title", "files.selected"] {
            #expect(try await snapshot.value(key) == lprojd.lookup(bundle: "demo", key: key, locale: "ru").value, "\(key)")
        }
        let events = try await lprojd.events(bundle: "demo")
        try daemon.replace("ru.lproj/Localizable.strings", "\"welcome.title\" = \"Снова здесь\";\n")
        try await withTimeout(seconds: 15, "no tablesChanged") {
            for try await event in events where event.type == .tablesChanged { return }
        }
        let newer = try await lprojd.snapshot(bundle: "demo", locale: "ru")
        #expect(newer.path != reply.path && newer.generation > reply.generation)
        #expect(try Snapshot.open(path: newer.path).value("welcome.title") == "Снова здесь")
        #expect(snapshot.value("welcome.title") == "Добро пожаловать в Demo", "the mapping of the older file stays")
    }

    @Test func closingEndsTheChangeStreams() async throws {
        let daemon = try await DaemonProcess()
        let localizer = try await Localizer.start(bundle: "demo", client: "it.close", socketPath: daemon.socket, preferredLanguages: [])
        let changes = localizer.changes()
        await localizer.close()
        try await withTimeout(seconds: 10, "the stream did not end") { for await _ in changes {} }
        #expect(localizer.localized("welcome.title") == "Welcome to Demo")
    }

    @Test func anUnknownBundleIsAnError() async throws {
        let daemon = try await DaemonProcess()
        await #expect(throws: LprojError.self) {
            _ = try await Localizer.start(bundle: "nope", client: "it.unknown", socketPath: daemon.socket)
        }
    }

    @Test func observersAreToldWhenTheLanguageChanges() async throws {
        let daemon = try await DaemonProcess()
        let localizer = try await Localizer.start(bundle: "demo", client: "it.observe", socketPath: daemon.socket, preferredLanguages: [])
        defer { Task { await localizer.close() } }
        let observed = AsyncStream<Void>.makeStream()
        withObservationTracking {
            _ = localizer.localized("welcome.title")
        } onChange: {
            observed.continuation.yield()
        }
        try await localizer.select("fr")
        try await withTimeout(seconds: 10, "no observation") { for await _ in observed.stream { return } }
        #expect(localizer.localized("welcome.title") == "Bienvenue dans Demo")
    }

    @Test func appleStyleEntryPointsReadTheSharedLocalizer() async throws {
        let daemon = try await DaemonProcess()
        let localizer = try await Localizer.start(
            bundle: "demo", client: "it.shared", socketPath: daemon.socket, preferredLanguages: ["de"])
        defer { Task { await localizer.close() } }
        Localizer.shared = localizer
        defer { Localizer.shared = nil }
        #expect(NSLocalizedString("welcome.title", comment: "") == "Willkommen bei Demo")
        #expect(NSLocalizedString("no.such.key", value: "Fallback", comment: "") == "Fallback")
        #expect(String(localized: "welcome.title") == "Willkommen bei Demo")
        #expect(String(localized: "files.selected", arguments: [.integer(1)]) == "1 Datei ausgewählt")
    }

    /// A call's value, or the name of its error: what two answers are compared by.
    private func outcome(_ body: () async throws -> String) async -> String {
        do { return try await body() } catch let error as LprojError { return "error: \(error.category)" } catch {
            return "error: \(type(of: error))"
        }
    }

    private func outcome(_ body: () throws -> String) -> String {
        do { return try body() } catch { return "error: invalidArguments" }
    }

    /// What a failure should say of the localizer and lprojd.
    private static func state(of localizer: Localizer, _ daemon: DaemonProcess) -> String {
        "The localizer: \(localizer.locale), welcome.title = \(localizer.localized("welcome.title")). lprojd's log:\n"
            + daemon.output.split(separator: "\n").suffix(40).joined(separator: "\n")
    }

    /// The next change matching `matches`; on time-out, the failure says
    /// what `context` says then (the localizer's state, lprojd's log).
    private func next(
        _ changes: AsyncStream<LocalizerChange>, context: @autoclosure @escaping @Sendable () -> String = "",
        where matches: @escaping @Sendable (LocalizerChange) -> Bool
    ) async throws -> LocalizerChange {
        try await withTimeout(seconds: 15, "no matching change. \(context())") {
            for await change in changes where matches(change) { return change }
            throw DaemonError(description: "the localizer closed")
        }
    }
}

extension LprojError {
    /// Which kind of refusal: formatting errors compared by kind only (the
    /// daemon's message is worded for the wire).
    fileprivate var category: String {
        if case .localization(.invalidArguments) = self { return "invalidArguments" }
        return name
    }
}

extension FormatArgument {
    fileprivate var interfaceArgument: Localization.Argument {
        switch self {
        case .string(let string): .init(string: string)
        case .integer(let integer): .init(int: Int(integer))
        case .float(let value, let digits): .init(float: JSONNumber(value), fractionDigits: digits)
        }
    }
}
