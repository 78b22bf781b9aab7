package import ClientBudget
package import Foundation
package import Logging
import LprojEngine
import LprojLocales
package import LprojLimits
package import LprojService
package import LprojStore
internal import Synchronization

/// Files in a fresh temporary directory, removed with the value.
package final class TemporaryFiles: Sendable {
    package let url: URL
    package var path: String { url.path }

    package init(_ prefix: String = "lprojd-test", files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        for (name, text) in files { try write(name, text) }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    package func write(_ name: String, _ text: String) throws {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// An event sink that keeps what is published, to test the service without
/// the Varlink adapter's hub.
package final class RecordingEvents: EventSink {
    private struct State {
        var events: [ServiceEvent] = []
        var waiters: [(until: @Sendable ([ServiceEvent]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let published = Mutex(State())
    package init() {}
    package var events: [ServiceEvent] { published.withLock { $0.events } }
    package var subscriberCount: Int { 0 }
    package func subscriberCount(uid: UInt32) -> Int { 0 }
    package func publish(_ event: ServiceEvent) {
        let ready: [CheckedContinuation<Void, Never>] = published.withLock { state in
            state.events.append(event)
            let events = state.events
            let ready = state.waiters.filter { $0.until(events) }.map(\.continuation)
            state.waiters.removeAll { $0.until(events) }
            return ready
        }
        for waiter in ready { waiter.resume() }
    }

    /// Returns once the events published so far satisfy `until` (a test's
    /// deadline stops a wait that never ends).
    package func wait(until: @escaping @Sendable ([ServiceEvent]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = published.withLock { state in
                if until(state.events) { return true }
                state.waiters.append((until, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// Log lines, kept.
package final class RecordingLog: LogHandler, @unchecked Sendable {
    private let kept = Mutex<[String]>([])
    /// The lines so far.
    package var lines: [String] { kept.withLock { $0 } }
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .trace
    package init() {}
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    package func log(event: LogEvent) { kept.withLock { $0.append("\(event.message)") } }

    /// A logger writing here.
    package var logger: Logger { Logger(label: "test") { _ in self } }
}

/// The real ``LocalizationService`` in process, over a bundle in a
/// temporary directory and a store in memory: the service's behaviour
/// without a socket.
package struct ServiceFixture: Sendable {
    package let service: LocalizationService
    package let events: RecordingEvents
    package let store: ClientStore
    package let budget: BudgetBook
    package let served: ServedBundles
    package let bundle: TemporaryFiles

    /// The bundle `demo`, development locale en.
    package static let demoFiles: [String: String] = [
        "en.lproj/Localizable.strings": """
        "greeting" = "Hello";
        "farewell" = "Goodbye";
        "welcome" = "Welcome, {name}!";
        "download.progress" = "%2$@: %1$.1f%% loaded";
        "LM_locale_name_de" = "German (ours)";
        """,
        "en.lproj/Localizable.stringsdict": Self.plural(key: "files.selected", one: "%d file selected", other: "%d files selected"),
        "de.lproj/Localizable.strings": """
        "greeting" = "Hallo";
        "download.progress" = "%2$@: %1$.1f %% geladen";
        """,
        "de.lproj/Localizable.stringsdict": Self.plural(key: "files.selected", one: "%d Datei ausgewählt", other: "%d Dateien ausgewählt"),
        "fr.lproj/Localizable.strings": "\"greeting\" = \"Bonjour\";\n",
        "Base.lproj/Localizable.strings": "\"only.base\" = \"From Base\";\n",
        "en.lproj/Menu.strings": "\"file\" = \"File\";\n",
    ]

    package static func plural(key: String, one: String, other: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict><key>\(key)</key><dict>
          <key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
          <key>n</key><dict>
            <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>d</string>
            <key>one</key><string>\(one)</string><key>other</key><string>\(other)</string>
          </dict>
        </dict></dict></plist>
        """
    }

    package init(
        files: [String: String] = Self.demoFiles, limits: ServiceLimits = ServiceLimits(), budgetLimits: BudgetLimits = BudgetLimits(),
        daemonUID: UInt32 = 999, misses: MissLedger = MissLedger(), countsMisses: Bool = true, store: ClientStore? = nil,
        pseudoLocales: Bool = false, snapshots: SnapshotStore = SnapshotStore(directory: nil), logger: Logger = Logger(label: "test")
    ) throws {
        bundle = try TemporaryFiles("service", files: files)
        budget = BudgetBook(limits: budgetLimits)
        self.store = try store ?? ClientStore.inMemory(budget: budget)
        events = RecordingEvents()
        served = ServedBundles()
        var configuration = BundleConfiguration(name: "demo", directory: bundle.path, developmentLocale: try LocaleIdentifier("en"))
        configuration.pseudoLocales = pseudoLocales
        let configurations = [configuration]
        // Watches in place, not run: the fixture's changes reach the served bundles
        // only through calls such as Reload.
        let watcher = try BundleWatcher(
            served: served, events: events, configurations: configurations, clock: ContinuousClock(), logger: Logger(label: "test"))
        watcher.loadAll()
        let added = AddedStringsRegistry(limits: limits.addedStrings, budget: budget)
        service = LocalizationService(
            served: served, watcher: watcher, events: events, store: self.store, added: added, misses: misses, countsMisses: countsMisses,
            limits: limits,
            budget: budget,
            snapshots: snapshots,
            daemonUID: daemonUID,
            logger: logger)
    }
}
