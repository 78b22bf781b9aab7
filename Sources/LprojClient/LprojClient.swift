public import Foundation
public import LprojInterface
internal import VarlinkClient
public import VarlinkProtocol

/// A client of lprojd, for Swift apps and `lprojctl`. Its calls take and
/// return the interface's own types (``Localization``), generated from
/// `org.lprojd.Localization.varlink`; a reply that does not fit them is an
/// error, never a default.
///
/// ```swift
/// let lprojd = try await LprojClient.connect()
/// let reply = try await lprojd.lookup(bundle: "demo", key: "files.selected", client: "org.example.App", arguments: [.int(3)])
/// for try await event in try await lprojd.events(client: "org.example.App") { ... }
/// ```
public final class LprojClient: Sendable {
    private let connection: VarlinkConnection
    private let path: String

    private init(connection: VarlinkConnection, path: String) {
        self.connection = connection
        self.path = path
    }

    /// Where lprojd listens: `LPROJD_SOCKET`, else the user's socket under
    /// `$XDG_RUNTIME_DIR/lprojd/` if there is one, else the system's in `/run/lprojd/`.
    public static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["LPROJD_SOCKET"], !explicit.isEmpty { return explicit }
        if let runtime = environment["XDG_RUNTIME_DIR"], getuid() != 0 {
            let user = "\(runtime)/lprojd/\(Localization.interfaceName)"
            if FileManager.default.fileExists(atPath: user) { return user }
        }
        return "/run/lprojd/\(Localization.interfaceName)"
    }

    /// Connects to lprojd.
    public static func connect(path: String? = nil) async throws -> LprojClient {
        let path = path ?? defaultSocketPath()
        return LprojClient(connection: try await VarlinkConnection.connect(path: path), path: path)
    }

    /// Closes the connection.
    public func close() async {
        await connection.close()
    }

    /// Calls any method of the interface.
    public func call<Method: VarlinkMethod>(_ method: Method.Type, _ parameters: Method.Parameters) async throws(LprojError) -> Method.Reply
    {
        let reply: VarlinkReply
        do {
            reply = try await connection.call(VarlinkCall(method: Method.qualifiedName, parameters: parameters.varlinkObject))
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .disconnected
        }
        return try Self.typedReply(Method.self, reply)
    }

    /// A reply as the method's type: its error as ``LprojError``, or its
    /// parameters decoded (a reply that does not fit is malformed).
    static func typedReply<Method: VarlinkMethod>(_ method: Method.Type, _ reply: VarlinkReply) throws(LprojError) -> Method.Reply {
        if let error = reply.error { throw LprojError(VarlinkError(error, reply.parameters)) }
        do {
            return try Method.Reply(varlink: reply.parameters, unknownFields: .ignore)
        } catch {
            throw .malformedReply(error)
        }
    }

    // MARK: Methods

    /// Looks a key up (see the interface's `Lookup`).
    public func lookup(
        bundle: String, key: String, table: String? = nil, locale: String? = nil, client: String? = nil,
        defaultValue: String? = nil, arguments: [Localization.Argument]? = nil, placeholders: [String: String]? = nil
    ) async throws(LprojError) -> Localization.Lookup.Reply {
        try await call(
            Localization.Lookup.self,
            .init(
                bundle: bundle, key: key, table: table, locale: locale, client: client, defaultValue: defaultValue,
                arguments: arguments, placeholders: placeholders))
    }

    /// A whole table for a locale.
    public func table(bundle: String, table: String? = nil, locale: String? = nil, client: String? = nil) async throws(LprojError)
        -> Localization.GetTable.Reply
    {
        try await call(Localization.GetTable.self, .init(bundle: bundle, table: table, locale: locale, client: client))
    }

    /// The bundle's snapshot for a locale (the client's, else the
    /// development locale): a file to map (docs/snapshot-format.md).
    public func snapshot(bundle: String, locale: String? = nil, client: String? = nil) async throws(LprojError)
        -> Localization.GetSnapshot.Reply
    {
        try await call(Localization.GetSnapshot.self, .init(bundle: bundle, locale: locale, client: client))
    }

    /// The locale that applies to a client.
    public func selection(client: String, bundle: String, preferredLanguages: [String]? = nil) async throws(LprojError)
        -> Localization.Selection
    {
        try await call(Localization.GetSelection.self, .init(client: client, bundle: bundle, preferredLanguages: preferredLanguages))
            .selection
    }

    /// Saves a client's locale.
    public func select(client: String, bundle: String, locale: String) async throws(LprojError) -> Localization.Selection {
        try await call(Localization.SelectLocale.self, .init(client: client, bundle: bundle, locale: locale)).selection
    }

    /// Forgets a client's saved locale.
    public func reset(client: String, bundle: String) async throws(LprojError) -> Localization.Selection {
        try await call(Localization.ResetSelection.self, .init(client: client, bundle: bundle)).selection
    }

    /// The bundles served.
    public func bundles() async throws(LprojError) -> [Localization.Bundle] {
        try await call(Localization.ListBundles.self, .init()).bundles
    }

    /// Picks a locale for preferred languages.
    public func negotiate(
        available: [String]? = nil, values: [String: String]? = nil, preferredLanguages: [String],
        specificity: Localization.Negotiate.Parameters.Specificity? = nil, defaultValue: String? = nil
    ) async throws(LprojError) -> Localization.Negotiate.Reply {
        try await call(
            Localization.Negotiate.self,
            .init(
                available: available, values: values, preferredLanguages: preferredLanguages, specificity: specificity,
                defaultValue: defaultValue))
    }

    /// Adds strings for a client; returns how many it has in the bundle.
    @discardableResult
    public func addStrings(_ strings: [String: String], client: String, bundle: String, table: String? = nil, locale: String)
        async throws(LprojError) -> Int
    {
        try await call(Localization.AddStrings.self, .init(client: client, bundle: bundle, table: table, locale: locale, strings: strings))
            .count
    }

    /// Removes a client's added strings; returns how many.
    @discardableResult
    public func removeAddedStrings(client: String, bundle: String, table: String? = nil, locale: String? = nil) async throws(LprojError)
        -> Int
    {
        try await call(Localization.RemoveAddedStrings.self, .init(client: client, bundle: bundle, table: table, locale: locale)).removed
    }

    /// Reads bundles from disk again (root and lprojd's user only).
    public func reload(bundle: String? = nil) async throws(LprojError) -> [Localization.Bundle] {
        try await call(Localization.Reload.self, .init(bundle: bundle)).bundles
    }

    /// Formats a value in the locale's way: `locale`, else the client's
    /// selected locale for the bundle, else the bundle's development locale.
    public func format(_ value: FormatValue, bundle: String? = nil, client: String? = nil, locale: String? = nil) async throws(LprojError)
        -> Localization.Format.Reply
    {
        var parameters = value.parameters
        parameters.bundle = bundle
        parameters.client = client
        parameters.locale = locale
        return try await call(Localization.Format.self, parameters)
    }

    /// Reads a date in the server format (or `pattern`); seconds since 1970.
    public func parseDate(
        _ text: String, pattern: String? = nil, bundle: String? = nil, client: String? = nil, locale: String? = nil, timeZone: String? = nil
    ) async throws(LprojError) -> Double {
        try await call(
            Localization.ParseDate.self,
            .init(
                text: text, style: pattern == nil ? nil : .pattern, pattern: pattern, bundle: bundle, client: client, locale: locale,
                timeZone: timeZone)
        ).date.double
    }

    /// A client's preferences for a bundle.
    public func preferences(client: String, bundle: String) async throws(LprojError) -> Localization.Preferences {
        try await call(Localization.GetPreferences.self, .init(client: client, bundle: bundle)).preferences
    }

    /// Sets the non-nil fields of `preferences` and forgets those in `clear`;
    /// the reply has the preferences now and the fields that changed.
    @discardableResult
    public func setPreferences(
        _ preferences: Localization.Preferences, clear: [String] = [], client: String, bundle: String
    ) async throws(LprojError) -> Localization.SetPreferences.Reply {
        try await call(
            Localization.SetPreferences.self,
            .init(client: client, bundle: bundle, preferences: preferences, clear: clear.isEmpty ? nil : clear))
    }

    /// A bundle's locales with their names in the display locale (`locale`,
    /// else the client's, else the development locale).
    public func supportedLocales(bundle: String, client: String? = nil, locale: String? = nil) async throws(LprojError)
        -> Localization.SupportedLocales.Reply
    {
        try await call(Localization.SupportedLocales.self, .init(bundle: bundle, client: client, locale: locale))
    }

    /// The daemon's state.
    /// The misses lookups met (see the interface's `GetMisses`).
    public func misses(bundle: String? = nil, locale: String? = nil, since: Double? = nil, limit: Int? = nil) async throws(LprojError)
        -> Localization.GetMisses.Reply
    {
        try await call(
            Localization.GetMisses.self,
            .init(bundle: bundle, locale: locale, since: since.map { JSONNumber($0, fractionDigits: 3) }, limit: limit))
    }

    /// Forgets the misses recorded, of one bundle or all; how many were.
    public func resetMisses(bundle: String? = nil) async throws(LprojError) -> Int {
        try await call(Localization.ResetMisses.self, .init(bundle: bundle)).removed
    }

    /// The caller's own apps, the bundles each uses with its locale in
    /// effect and why, and those bundles' locales named in `locale` (the
    /// interface's `ListClients`).
    public func clients(locale: String? = nil) async throws(LprojError) -> Localization.ListClients.Reply {
        try await call(Localization.ListClients.self, .init(locale: locale))
    }

    public func status() async throws(LprojError) -> Localization.GetStatus.Reply {
        try await call(Localization.GetStatus.self, .init())
    }

    /// Notifications, on a connection of their own: first `ready`, then
    /// events as they happen, until the daemon stops or the task is
    /// cancelled. An event that does not fit the interface ends the stream
    /// with ``LprojError/malformedReply(_:)``.
    public func events(client: String? = nil, bundle: String? = nil) async throws -> AsyncThrowingStream<Localization.Event, any Error> {
        let subscription = try await VarlinkConnection.connect(path: path)
        let parameters = Localization.Subscribe.Parameters(client: client, bundle: bundle)
        let replies = subscription.stream(VarlinkCall(method: Localization.Subscribe.qualifiedName, parameters: parameters.varlinkObject))
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await reply in replies {
                        do throws(SchemaError) {
                            continuation.yield(try Localization.Subscribe.Reply(varlink: reply.parameters, unknownFields: .ignore).event)
                        } catch {
                            throw LprojError.malformedReply(error)
                        }
                    }
                    continuation.finish()
                } catch let error as VarlinkError {
                    continuation.finish(throwing: LprojError(error))
                } catch let error as LprojError {
                    continuation.finish(throwing: error)
                } catch {
                    continuation.finish(throwing: LprojError.disconnected)
                }
                await subscription.close()
            }
            continuation.onTermination = { _ in
                task.cancel()
                Task { await subscription.close() }
            }
        }
    }
}

/// What to format, for ``LprojClient/format(_:bundle:client:locale:)``: the
/// inputs each kind of style takes.
public enum FormatValue: Sendable, Equatable {
    /// `decimal`, `percent`, `currency`, `scientific` or `spellOut`.
    case number(Double, style: Localization.Format.Parameters.Style, fractionDigits: Int? = nil, currency: String? = nil)
    /// Meters, in `unit` or the client's or the locale's.
    case distance(meters: Double, unit: String? = nil, fractionDigits: Int? = nil)
    /// Meters per second.
    case speed(metersPerSecond: Double, unit: String? = nil, fractionDigits: Int? = nil)
    /// Seconds since 1970-01-01 UTC in a date style: `simpleDate`, `time12`,
    /// `time24`, `simpleDateTime`, `server`, `savedDate`, `savedTime`,
    /// `savedDateTime`; or `template` with `template`, or `pattern` with
    /// `pattern`.
    case date(
        Double, style: Localization.Format.Parameters.Style, template: String? = nil, pattern: String? = nil, timeZone: String? = nil,
        calendar: String? = nil)
    /// `uppercase` or `lowercase`.
    case text(String, style: Localization.Format.Parameters.Style)

    /// The call's parameters, but for the bundle, client and locale.
    var parameters: Localization.Format.Parameters {
        switch self {
        case .number(let value, let style, let digits, let currency):
            .init(style: style, number: JSONNumber(value), fractionDigits: digits, currency: currency)
        case .distance(let meters, let unit, let digits):
            .init(style: .distance, number: JSONNumber(meters), fractionDigits: digits, unit: unit)
        case .speed(let speed, let unit, let digits):
            .init(style: .speed, number: JSONNumber(speed), fractionDigits: digits, unit: unit)
        case .date(let seconds, let style, let template, let pattern, let timeZone, let calendar):
            .init(style: style, date: JSONNumber(seconds), template: template, pattern: pattern, timeZone: timeZone, calendar: calendar)
        case .text(let text, let style):
            .init(style: style, text: text)
        }
    }
}
