public import Foundation
public import LprojClient
public import LprojFormatStrings
public import LprojInterface
public import Observation
internal import Synchronization

/// An app's live localizer: it knows the app's language, answers
/// ``localized(_:table:defaultValue:)`` from an in-process mirror of the
/// bundle's tables (no round trip), and follows every change lprojd
/// announces: another process of the app choosing a language, a table
/// edited on disk, a daemon restart. clients/README.md describes the
/// design, which the C and Python localizers share.
///
/// ```swift
/// let localizer = try await Localizer.start(bundle: "demo", client: "org.example.Editor")
/// title.text = localizer.localized("welcome.title")
/// count.text = try localizer.localized("files.selected", arguments: [.integer(3)])
/// for await change in localizer.changes() { render() }       // or observe it: it is @Observable
/// try await localizer.select("de")                            // every process of the app follows
/// ```
///
/// Lookups are synchronous and safe from any thread; they read one
/// immutable snapshot, swapped whole when a change has been fetched, so a
/// screen never mixes two languages.
public final class Localizer: Sendable, Observable {
    /// A typed format argument: `.integer(3)`, `.float(2.5)`, `.string("x")`.
    public typealias Argument = FormatArgument

    /// The bundle, as lprojd's configuration names it.
    public let bundle: String
    /// The app's id: its selected language is saved under it, per user.
    public let client: String
    /// The user's languages, passed to lprojd when it chooses one.
    public let preferredLanguages: [String]

    let socketPath: String
    let options: Options
    let state: Mutex<State>
    let work: AsyncStream<Work>.Continuation
    private let workStream: AsyncStream<Work>
    private let worker = Mutex<Task<Void, Never>?>(nil)
    private let registrar = ObservationRegistrar()
    /// What every read registers with observers. A key path literal is
    /// made again, and counted, on each use; a lookup does not pay for that.
    private static let revisionPath = \Localizer.revision

    struct State: Sendable {
        var mirror = Mirror.empty
        /// How many times the mirror was swapped: what observers track.
        var revision = 0
        /// The connection for calls, while connected.
        var connection: LprojClient?
        var preferences: Localization.Preferences?
        var listeners: [Int: AsyncStream<LocalizerChange>.Continuation] = [:]
        var nextListener = 0
    }

    /// How a localizer connects and what it does without lprojd.
    public struct Options: Sendable {
        /// The bundle's directory and development locale: loaded in process
        /// when lprojd cannot be reached, so that the app never shows raw
        /// keys. Nil: without lprojd, keys (or defaults) answer.
        public var fallback: Fallback?
        /// The first delay before reconnecting; it doubles up to `maximumDelay`.
        public var initialDelay: Duration
        public var maximumDelay: Duration

        public init(fallback: Fallback? = nil, initialDelay: Duration = .milliseconds(50), maximumDelay: Duration = .seconds(5)) {
            self.fallback = fallback
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
        }
    }

    /// What answers without lprojd: a bundle directory, loaded in process,
    /// or a directory of the snapshots `lprojctl snapshot` writes
    /// (`LOCALE.lprojsnap`), mapped: the locale is chosen among theirs as
    /// lprojd would choose it, and nothing is read before the first lookup.
    public struct Fallback: Sendable {
        public var directory: String
        public var developmentLocale: String

        public init(directory: String, developmentLocale: String) {
            self.directory = directory
            self.developmentLocale = developmentLocale
        }
    }

    init(bundle: String, client: String, socketPath: String, preferredLanguages: [String], options: Options) {
        self.bundle = bundle
        self.client = client
        self.socketPath = socketPath
        self.preferredLanguages = preferredLanguages
        self.options = options
        self.state = Mutex(State())
        (workStream, work) = AsyncStream<Work>.makeStream()
    }

    /// Starts a localizer: it subscribes to lprojd's notifications, fetches
    /// the app's language and tables, and returns once it can answer. When
    /// lprojd cannot be reached, it answers from `options.fallback` (or
    /// with keys) and keeps trying to connect in the background.
    ///
    /// Throws what lprojd answers when it is reached but refuses, such as
    /// an unknown bundle (``LprojError/localization(_:)``).
    public static func start(
        bundle: String, client: String, socketPath: String? = nil,
        preferredLanguages: [String] = PreferredLanguages.fromEnvironment(ProcessInfo.processInfo.environment),
        options: Options = Options()
    ) async throws(LprojError) -> Localizer {
        let localizer = Localizer(
            bundle: bundle, client: client, socketPath: socketPath ?? LprojClient.defaultSocketPath(),
            preferredLanguages: preferredLanguages, options: options)
        try await localizer.startWorker()
        return localizer
    }

    /// Stops following lprojd and closes the connections. Lookups go on
    /// answering from the last mirror.
    public func close() async {
        let task = worker.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        work.finish()
        await task?.value
        let (connection, listeners) = state.withLock { state in
            defer {
                state.connection = nil
                state.listeners = [:]
            }
            return (state.connection, Array(state.listeners.values))
        }
        // Outside the lock: a finished stream's termination handler takes it.
        for listener in listeners { listener.finish() }
        await connection?.close()
    }

    deinit {
        worker.withLock { $0?.cancel() }
        work.finish()
    }

    // MARK: Looking up

    /// A key's value in the app's language, as written (a plural entry's
    /// format key); the default, else the key, when no table has it.
    public func localized(_ key: String, table: String = "Localizable", defaultValue: String? = nil) -> String {
        registrar.access(self, keyPath: Self.revisionPath)
        // Answered under the lock rather than from a copy of the mirror
        // taken out of it: a lookup holds the lock for some 50 ns, and is
        // spared retaining and releasing the mirror (two atomic operations).
        return state.withLock { $0.mirror.value(key, table: table, defaultValue: defaultValue) }
    }

    /// A key's value formatted as lprojd's `Lookup` formats it (plural forms
    /// chosen by the value's language, numbers written the app's language's
    /// way) and `{name}` placeholders filled, in process.
    ///
    /// Throws ``FormatError`` when the arguments do not fit the format.
    public func localized(
        _ key: String, table: String = "Localizable", defaultValue: String? = nil, arguments: [Argument],
        placeholders: [String: String] = [:]
    ) throws(FormatError) -> String {
        try lookup(key, table: table, defaultValue: defaultValue, arguments: arguments, placeholders: placeholders).value
    }

    /// A key's value with `{name}` placeholders filled.
    public func localized(_ key: String, table: String = "Localizable", defaultValue: String? = nil, placeholders: [String: String])
        -> String
    {
        (try? lookup(key, table: table, defaultValue: defaultValue, arguments: nil, placeholders: placeholders).value)
            ?? defaultValue ?? key
    }

    /// What `Lookup` answers: the value (formatted when arguments are
    /// given), whether a table had the key, and where it came from.
    public func lookup(
        _ key: String, table: String = "Localizable", defaultValue: String? = nil, arguments: [Argument]? = nil,
        placeholders: [String: String] = [:]
    ) throws(FormatError) -> LocalizedValue {
        registrar.access(self, keyPath: Self.revisionPath)
        return try state.withLock { $0.mirror }.lookup(
            key, table: table, defaultValue: defaultValue, arguments: arguments, placeholders: placeholders)
    }

    // MARK: What the app shows around its strings

    /// The locale the app's strings are in (empty before any is known).
    public var locale: String {
        registrar.access(self, keyPath: Self.revisionPath)
        return state.withLock { $0.mirror.locale }
    }

    /// Increases with each change the localizer takes in: what a view
    /// observes to re-render when anything changed.
    public var revision: Int {
        registrar.access(self, keyPath: Self.revisionPath)
        return state.withLock { $0.revision }
    }

    /// The bundle's locales with their names in the app's language, for a
    /// language menu.
    public var supportedLocales: [Localization.LocaleName] {
        registrar.access(self, keyPath: Self.revisionPath)
        return state.withLock { $0.mirror.supportedLocales }
    }

    /// Where the answers come from now.
    public var source: Source {
        registrar.access(self, keyPath: Self.revisionPath)
        return switch state.withLock({ $0.mirror.origin }) {
        case .daemon: .daemon
        case .engine: .bundleDirectory
        case .snapshot: .snapshots
        case .none: .keys
        }
    }

    /// Where a localizer's answers come from.
    public enum Source: Sendable, Equatable {
        /// lprojd's tables, mirrored.
        case daemon
        /// The fallback bundle directory, loaded in process.
        case bundleDirectory
        /// The fallback directory's snapshots (`lprojctl snapshot`), mapped.
        case snapshots
        /// Nothing: keys and defaults.
        case keys
    }

    /// The app's formatting preferences (units, time zone, date formats),
    /// as last announced by lprojd; nil until one is.
    public var preferences: Localization.Preferences? {
        registrar.access(self, keyPath: Self.revisionPath)
        return state.withLock { $0.preferences }
    }

    // MARK: Changing the language

    /// Chooses the app's language through lprojd: saved for this user, and
    /// followed by every process of the app. The mirror is in the new
    /// language when this returns.
    @discardableResult
    public func select(_ locale: String) async throws(LprojError) -> Localization.Selection {
        let selection = try await connected().select(client: client, bundle: bundle, locale: locale)
        await apply(selection)
        return selection
    }

    /// Forgets the app's chosen language: the user's preferred languages
    /// apply again.
    @discardableResult
    public func reset() async throws(LprojError) -> Localization.Selection {
        let connection = try connected()
        _ = try await connection.reset(client: client, bundle: bundle)
        // Resetting forgets; choosing again from the preferred languages is
        // what the app would get if it started now.
        let selection = try await connection.selection(client: client, bundle: bundle, preferredLanguages: preferredLanguages)
        await apply(selection)
        return selection
    }

    /// The connection to lprojd, for calls the localizer does not wrap
    /// (`Format`, `SetPreferences`…).
    public func connected() throws(LprojError) -> LprojClient {
        guard let connection = state.withLock({ $0.connection }) else { throw .disconnected }
        return connection
    }

    // MARK: Being told

    /// The changes, as they are taken in, each after the new mirror answers.
    /// Each call gives a stream of its own; it ends when the localizer closes.
    public func changes() -> AsyncStream<LocalizerChange> {
        let (stream, continuation) = AsyncStream<LocalizerChange>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id = state.withLock { state in
            state.nextListener += 1
            state.listeners[state.nextListener] = continuation
            return state.nextListener
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Swaps a new mirror in, then tells observers and listeners.
    func publish(_ mirror: Mirror, change: LocalizerChange, preferences: Localization.Preferences? = nil) {
        let (listeners, retired) = registrar.withMutation(of: self, keyPath: \.revision) {
            state.withLock { state in
                let retired = state.mirror
                state.mirror = mirror
                state.revision += 1
                if let preferences { state.preferences = preferences }
                return (Array(state.listeners.values), retired)
            }
        }
        for listener in listeners { listener.yield(change) }
        // The last mirror goes here, after the lock: lookups run under it,
        // and tearing down a large table takes milliseconds.
        withExtendedLifetime(retired) {}
    }

    func setConnection(_ connection: LprojClient?) {
        state.withLock { $0.connection = connection }
    }

    var mirror: Mirror { state.withLock { $0.mirror } }

    // MARK: Work for the worker

    /// What the worker does, one at a time.
    enum Work: Sendable {
        /// An event from a subscription.
        case event(Localization.Event, session: Int)
        /// A subscription ended (lprojd stopped, or the connection dropped).
        case ended(session: Int)
        /// A selection the app made: take it in now.
        case apply(Localization.Selection, done: @Sendable () -> Void)
        /// Time to try connecting again.
        case retry
        /// lprojd refused a subscription.
        case refused(LprojError, session: Int)
    }

    private func apply(_ selection: Localization.Selection) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if case .terminated = work.yield(.apply(selection, done: { continuation.resume() })) { continuation.resume() }
        }
    }

    private func startWorker() async throws(LprojError) {
        let started = AsyncStream<Result<Void, LprojError>>.makeStream()
        let task = Task { [workStream] in
            await self.run(work: workStream, started: started.continuation)
        }
        worker.withLock { $0 = task }
        for await result in started.stream {
            if case .failure(let error) = result {
                await close()
                throw error
            }
            return
        }
    }
}

/// What changed, told after the mirror answers with it.
public struct LocalizerChange: Sendable, Equatable {
    /// Why: each reason the change had.
    public struct Reasons: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The app's language changed.
        public static let locale = Reasons(rawValue: 1 << 0)
        /// Tables were edited or strings added.
        public static let tables = Reasons(rawValue: 1 << 1)
        /// The bundle's languages changed (a folder appeared or went).
        public static let locales = Reasons(rawValue: 1 << 2)
        /// The app's formatting preferences changed.
        public static let preferences = Reasons(rawValue: 1 << 3)
        /// The bundle was added, removed or read again.
        public static let bundle = Reasons(rawValue: 1 << 4)
        /// The localizer reached lprojd again after losing it.
        public static let reconnected = Reasons(rawValue: 1 << 5)
        /// The localizer lost lprojd; it answers from its last mirror.
        public static let disconnected = Reasons(rawValue: 1 << 6)
    }

    public let reasons: Reasons
    /// The locale the app's strings are in now.
    public let locale: String
    /// The tables fetched again (all of them for a new locale).
    public let tables: [String]
}
