public import Foundation
public import NIOCore
public import NIOPosix
public import VarlinkProtocol

/// A client of lprojd, for Swift apps and `lprojctl`.
///
/// ```swift
/// let lprojd = try await LprojClient.connect()
/// let reply = try await lprojd.lookup(bundle: "demo", key: "files.selected", client: "org.example.App", arguments: [.int(3)])
/// for try await event in try await lprojd.events(client: "org.example.App") { ... }
/// ```
public final class LprojClient: Sendable {
    /// The interface's name.
    public static let interface = "org.lprojd.Localization"

    private let connection: VarlinkConnection
    private let path: String
    private let group: any EventLoopGroup

    private init(connection: VarlinkConnection, path: String, group: any EventLoopGroup) {
        self.connection = connection
        self.path = path
        self.group = group
    }

    /// Where lprojd listens: `LPROJD_SOCKET`, else the user's socket under
    /// `$XDG_RUNTIME_DIR/lprojd/` if there is one, else the system's in `/run/lprojd/`.
    public static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["LPROJD_SOCKET"], !explicit.isEmpty { return explicit }
        if let runtime = environment["XDG_RUNTIME_DIR"], getuid() != 0 {
            let user = "\(runtime)/lprojd/org.lprojd.Localization"
            if FileManager.default.fileExists(atPath: user) { return user }
        }
        return "/run/lprojd/org.lprojd.Localization"
    }

    /// Connects to lprojd.
    public static func connect(path: String? = nil, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> LprojClient {
        let path = path ?? defaultSocketPath()
        return LprojClient(connection: try await VarlinkConnection.connect(path: path, group: group), path: path, group: group)
    }

    /// Closes the connection.
    public func close() async {
        await connection.close()
    }

    /// Calls a method of the interface and returns its reply's parameters.
    public func call(_ method: String, _ parameters: JSONObject = [:]) async throws -> JSONObject {
        let reply = try await connection.call(VarlinkCall(method: "\(Self.interface).\(method)", parameters: parameters))
        if let error = reply.error { throw LprojError(VarlinkError(error, reply.parameters)) }
        return reply.parameters
    }

    // MARK: Methods

    /// Looks a key up (see the interface's `Lookup`).
    public func lookup(
        bundle: String, key: String, table: String? = nil, locale: String? = nil, client: String? = nil,
        defaultValue: String? = nil, arguments: [LookupArgument]? = nil, placeholders: [String: String]? = nil
    ) async throws -> LookupReply {
        var parameters: JSONObject = ["bundle": .string(bundle), "key": .string(key)]
        parameters["table"] = table.map(JSONValue.string)
        parameters["locale"] = locale.map(JSONValue.string)
        parameters["client"] = client.map(JSONValue.string)
        parameters["defaultValue"] = defaultValue.map(JSONValue.string)
        parameters["arguments"] = arguments.map { .array($0.map(\.json)) }
        parameters["placeholders"] = placeholders.map(Self.stringMap)
        let reply = try await call("Lookup", parameters)
        return LookupReply(value: reply.string("value") ?? "", found: reply.bool("found") ?? false, locale: reply.string("locale"))
    }

    /// A whole table for a locale.
    public func table(bundle: String, table: String? = nil, locale: String? = nil, client: String? = nil) async throws -> TableReply {
        var parameters: JSONObject = ["bundle": .string(bundle)]
        parameters["table"] = table.map(JSONValue.string)
        parameters["locale"] = locale.map(JSONValue.string)
        parameters["client"] = client.map(JSONValue.string)
        let reply = try await call("GetTable", parameters)
        return TableReply(
            bundle: reply.string("bundle") ?? bundle, table: reply.string("table") ?? "", locale: reply.string("locale") ?? "",
            generation: reply.int("generation") ?? 0, strings: reply.stringMap("strings"),
            plurals: reply.object("plurals").map { Dictionary(uniqueKeysWithValues: $0.members.map { ($0, $1) }) } ?? [:],
            sources: reply.stringMap("sources"))
    }

    /// The locale that applies to a client.
    public func selection(client: String, bundle: String, preferredLanguages: [String]? = nil) async throws -> Selection {
        var parameters: JSONObject = ["client": .string(client), "bundle": .string(bundle)]
        parameters["preferredLanguages"] = preferredLanguages.map { .array($0.map(JSONValue.string)) }
        return try Self.selection(try await call("GetSelection", parameters))
    }

    /// Saves a client's locale.
    public func select(client: String, bundle: String, locale: String) async throws -> Selection {
        try Self.selection(try await call("SelectLocale", ["client": .string(client), "bundle": .string(bundle), "locale": .string(locale)]))
    }

    /// Forgets a client's saved locale.
    public func reset(client: String, bundle: String) async throws -> Selection {
        try Self.selection(try await call("ResetSelection", ["client": .string(client), "bundle": .string(bundle)]))
    }

    /// The bundles served.
    public func bundles() async throws -> [BundleInfo] {
        Self.bundles(try await call("ListBundles"))
    }

    /// Picks a locale for preferred languages.
    public func negotiate(available: [String]? = nil, values: [String: String]? = nil, preferredLanguages: [String], specificity: String? = nil, defaultValue: String? = nil) async throws -> NegotiationReply {
        var parameters: JSONObject = ["preferredLanguages": .array(preferredLanguages.map(JSONValue.string))]
        parameters["available"] = available.map { .array($0.map(JSONValue.string)) }
        parameters["values"] = values.map(Self.stringMap)
        parameters["specificity"] = specificity.map(JSONValue.string)
        parameters["defaultValue"] = defaultValue.map(JSONValue.string)
        let reply = try await call("Negotiate", parameters)
        return NegotiationReply(locale: reply.string("locale"), value: reply.string("value"), match: reply.string("match") ?? "none")
    }

    /// Adds strings for a client; returns how many it has in the bundle.
    @discardableResult
    public func addStrings(_ strings: [String: String], client: String, bundle: String, table: String? = nil, locale: String) async throws -> Int {
        var parameters: JSONObject = ["client": .string(client), "bundle": .string(bundle), "locale": .string(locale), "strings": Self.stringMap(strings)]
        parameters["table"] = table.map(JSONValue.string)
        return try await call("AddStrings", parameters).int("count") ?? 0
    }

    /// Removes a client's added strings; returns how many.
    @discardableResult
    public func removeAddedStrings(client: String, bundle: String, table: String? = nil, locale: String? = nil) async throws -> Int {
        var parameters: JSONObject = ["client": .string(client), "bundle": .string(bundle)]
        parameters["table"] = table.map(JSONValue.string)
        parameters["locale"] = locale.map(JSONValue.string)
        return try await call("RemoveAddedStrings", parameters).int("removed") ?? 0
    }

    /// Reads bundles from disk again (root and lprojd's user only).
    public func reload(bundle: String? = nil) async throws -> [BundleInfo] {
        var parameters = JSONObject()
        parameters["bundle"] = bundle.map(JSONValue.string)
        return Self.bundles(try await call("Reload", parameters))
    }

    /// Formats a value in the locale's way: `locale`, else the client's
    /// selected locale for the bundle, else the bundle's development locale.
    public func format(_ value: FormatValue, bundle: String? = nil, client: String? = nil, locale: String? = nil) async throws -> FormatReply {
        var parameters = value.parameters
        parameters["bundle"] = bundle.map(JSONValue.string)
        parameters["client"] = client.map(JSONValue.string)
        parameters["locale"] = locale.map(JSONValue.string)
        let reply = try await call("Format", parameters)
        return FormatReply(
            value: reply.string("value") ?? "", locale: reply.string("locale") ?? "", pattern: reply.string("pattern"),
            unit: reply.string("unit"), timeZone: reply.string("timeZone"), calendar: reply.string("calendar"))
    }

    /// Reads a date in the server format (or `pattern`); seconds since 1970.
    public func parseDate(_ text: String, pattern: String? = nil, bundle: String? = nil, client: String? = nil, locale: String? = nil, timeZone: String? = nil) async throws -> Double {
        var parameters: JSONObject = ["text": .string(text)]
        if let pattern {
            parameters["style"] = "pattern"
            parameters["pattern"] = .string(pattern)
        }
        parameters["bundle"] = bundle.map(JSONValue.string)
        parameters["client"] = client.map(JSONValue.string)
        parameters["locale"] = locale.map(JSONValue.string)
        parameters["timeZone"] = timeZone.map(JSONValue.string)
        return try await call("ParseDate", parameters).double("date") ?? .nan
    }

    /// A client's preferences for a bundle.
    public func preferences(client: String, bundle: String) async throws -> Preferences {
        Preferences(try await call("GetPreferences", ["client": .string(client), "bundle": .string(bundle)]).object("preferences") ?? [:])
    }

    /// Sets the non-nil fields of `preferences` and forgets those in `clear`;
    /// returns the preferences now and the fields that changed.
    @discardableResult
    public func setPreferences(_ preferences: Preferences, clear: [String] = [], client: String, bundle: String) async throws -> (preferences: Preferences, changed: [String]) {
        var parameters: JSONObject = ["client": .string(client), "bundle": .string(bundle), "preferences": .object(preferences.json)]
        if !clear.isEmpty { parameters["clear"] = .array(clear.map(JSONValue.string)) }
        let reply = try await call("SetPreferences", parameters)
        let changed = reply.array("changed").compactMap { if case .string(let name) = $0 { name } else { nil } }
        return (Preferences(reply.object("preferences") ?? [:]), changed)
    }

    /// A bundle's locales with their names in the display locale (`locale`,
    /// else the client's, else the development locale).
    public func supportedLocales(bundle: String, client: String? = nil, locale: String? = nil) async throws -> (displayLocale: String, locales: [LocaleName]) {
        var parameters: JSONObject = ["bundle": .string(bundle)]
        parameters["client"] = client.map(JSONValue.string)
        parameters["locale"] = locale.map(JSONValue.string)
        let reply = try await call("SupportedLocales", parameters)
        let locales: [LocaleName] = reply.array("locales").compactMap { value in
            guard case .object(let object) = value else { return nil }
            return LocaleName(
                locale: object.string("locale") ?? "", name: object.string("name") ?? "", nativeName: object.string("nativeName") ?? "",
                bundleName: object.string("bundleName"))
        }
        return (reply.string("displayLocale") ?? "", locales)
    }

    /// The daemon's state.
    public func status() async throws -> Status {
        let reply = try await call("GetStatus")
        let errors: [Status.FileError] = reply.array("errors").compactMap { value in
            guard case .object(let object) = value else { return nil }
            return Status.FileError(bundle: object.string("bundle") ?? "", file: object.string("file") ?? "", line: object.int("line"),
                                    column: object.int("column"), message: object.string("message") ?? "")
        }
        let usage: [Status.Usage] = reply.array("usage").compactMap { value in
            guard case .object(let object) = value else { return nil }
            return Status.Usage(
                uid: object.int("uid") ?? 0, connections: object.int("connections") ?? 0, input: object.int("input") ?? 0,
                output: object.int("output") ?? 0, addedStrings: object.int("addedStrings") ?? 0, savedState: object.int("savedState") ?? 0,
                caches: object.int("caches") ?? 0)
        }
        return Status(
            version: reply.string("version") ?? "", generation: reply.int("generation") ?? 0, bundles: reply.int("bundles") ?? 0,
            tables: reply.int("tables") ?? 0, entries: reply.int("entries") ?? 0, connections: reply.int("connections") ?? 0,
            subscribers: reply.int("subscribers") ?? 0, selections: reply.int("selections") ?? 0, uptime: reply.double("uptime") ?? 0, errors: errors,
            state: reply.string("state"), usage: usage)
    }

    /// Notifications, on a connection of their own: first `ready`, then
    /// events as they happen, until the daemon stops or the task is cancelled.
    public func events(client: String? = nil, bundle: String? = nil) async throws -> AsyncThrowingStream<Event, any Error> {
        let subscription = try await VarlinkConnection.connect(path: path, group: group)
        var parameters = JSONObject()
        parameters["client"] = client.map(JSONValue.string)
        parameters["bundle"] = bundle.map(JSONValue.string)
        let replies = subscription.stream(VarlinkCall(method: "\(Self.interface).Subscribe", parameters: parameters))
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await reply in replies {
                        guard case .object(let event)? = reply.parameters["event"] else { continue }
                        continuation.yield(Event(type: event.string("type") ?? "", fields: event))
                    }
                    continuation.finish()
                } catch let error as VarlinkError {
                    continuation.finish(throwing: LprojError(error))
                } catch {
                    continuation.finish(throwing: error)
                }
                await subscription.close()
            }
            continuation.onTermination = { _ in
                task.cancel()
                Task { await subscription.close() }
            }
        }
    }

    // MARK: Reading replies

    private static func stringMap(_ map: [String: String]) -> JSONValue {
        var object = JSONObject()
        for key in map.keys.sorted() { object[key] = .string(map[key]!) }
        return .object(object)
    }

    private static func selection(_ reply: JSONObject) throws -> Selection {
        guard let selection = reply.object("selection") else { throw VarlinkConnection.Failure.malformedReply }
        return Selection(
            client: selection.string("client") ?? "", bundle: selection.string("bundle") ?? "", locale: selection.string("locale") ?? "",
            reason: selection.string("reason") ?? "", requested: selection.string("requested"))
    }

    private static func bundles(_ reply: JSONObject) -> [BundleInfo] {
        reply.array("bundles").compactMap { value in
            guard case .object(let bundle) = value else { return nil }
            return BundleInfo(
                name: bundle.string("name") ?? "", directory: bundle.string("directory") ?? "", developmentLocale: bundle.string("developmentLocale") ?? "",
                supportedLocales: bundle.array("supportedLocales").compactMap(\.stringValue), tables: bundle.array("tables").compactMap(\.stringValue),
                hasBase: bundle.bool("hasBase") ?? false, generation: bundle.int("generation") ?? 0, entries: bundle.int("entries") ?? 0)
        }
    }
}

extension JSONObject {
    func string(_ key: String) -> String? { self[key]?.stringValue }
    func bool(_ key: String) -> Bool? { if case .bool(let flag)? = self[key] { flag } else { nil } }
    func int(_ key: String) -> Int? { if case .number(let number)? = self[key], let integer = number.integer { Int(integer) } else { nil } }
    func double(_ key: String) -> Double? { if case .number(let number)? = self[key] { number.double } else { nil } }
    func object(_ key: String) -> JSONObject? { if case .object(let object)? = self[key] { object } else { nil } }
    func array(_ key: String) -> [JSONValue] { if case .array(let items)? = self[key] { items } else { [] } }
    func stringMap(_ key: String) -> [String: String] {
        guard let object = object(key) else { return [:] }
        var map: [String: String] = [:]
        for (name, value) in object.members { map[name] = value.stringValue }
        return map
    }
}

extension JSONValue {
    var stringValue: String? { if case .string(let string) = self { string } else { nil } }
}
