public import ClientBudget
public import Foundation
public import Logging
public import LprojEngine
public import LprojLocales
public import LprojService
public import LprojStore
internal import Synchronization

/// Files in a fresh temporary directory, removed with the value.
public final class TemporaryFiles: Sendable {
    public let url: URL
    public var path: String { url.path }

    public init(_ prefix: String = "lprojd-test", files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        for (name, text) in files { try write(name, text) }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func write(_ name: String, _ text: String) throws {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// An event sink that keeps what is published, to test the service without
/// the Varlink adapter's hub.
public final class RecordingEvents: EventSink {
    private let published = Mutex<[ServiceEvent]>([])
    public init() {}
    public var events: [ServiceEvent] { published.withLock { $0 } }
    public var subscriberCount: Int { 0 }
    public func subscriberCount(uid: UInt32) -> Int { 0 }
    public func publish(_ event: ServiceEvent) { published.withLock { $0.append(event) } }
}

/// The real ``LocalizationService`` in process, over a bundle in a
/// temporary directory and a store in memory: the service's behaviour
/// without a socket.
public struct ServiceFixture: Sendable {
    public let service: LocalizationService
    public let events: RecordingEvents
    public let store: ClientStore
    public let budget: BudgetBook
    public let catalog: Catalog
    public let bundle: TemporaryFiles

    /// The bundle `demo`, development locale en.
    public static let demoFiles: [String: String] = [
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

    public static func plural(key: String, one: String, other: String) -> String {
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

    public init(
        files: [String: String] = Self.demoFiles, limits: ServiceLimits = ServiceLimits(), budgetLimits: BudgetLimits = BudgetLimits(),
        daemonUID: UInt32 = 999, misses: MissLedger = MissLedger(), countsMisses: Bool = true, store: ClientStore? = nil,
        pseudoLocales: Bool = false
    ) throws {
        bundle = try TemporaryFiles("service", files: files)
        budget = BudgetBook(limits: budgetLimits)
        self.store = try store ?? ClientStore.inMemory(budget: budget)
        events = RecordingEvents()
        catalog = Catalog()
        var configuration = BundleConfiguration(name: "demo", directory: bundle.path, developmentLocale: try LocaleIdentifier("en"))
        configuration.pseudoLocales = pseudoLocales
        let configurations = [configuration]
        // Watches in place, not run: the fixture's changes reach the catalog
        // only through calls such as Reload.
        let watcher = try CatalogWatcher(catalog: catalog, events: events, configurations: configurations, logger: Logger(label: "test"))
        catalog.load(configurations)
        let added = AddedStringsRegistry(
            maximumStrings: 10_000, maximumLength: 64 << 10, budget: budget)
        service = LocalizationService(
            catalog: catalog, watcher: watcher, events: events, store: self.store, added: added, misses: misses, countsMisses: countsMisses,
            limits: limits,
            budget: budget,
            daemonUID: daemonUID,
            logger: Logger(label: "test"))
    }
}
