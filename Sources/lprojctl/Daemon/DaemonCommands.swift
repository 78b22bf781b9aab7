import ArgumentParser
import Foundation
import LprojClient
import LprojInterface
import VarlinkProtocol

/// `lprojctl bundles`
struct BundlesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bundles", abstract: "List the bundles lprojd serves.")

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        try await connection.withClient { client in
            let bundles = try await client.bundles()
            if connection.json {
                connection.printJSON(bundles)
                return
            }
            for bundle in bundles {
                print("\(bundle.name): \(bundle.directory)")
                print(
                    "  development locale \(bundle.developmentLocale)\(bundle.hasBase ? ", Base" : ""); \(count(bundle.entries, "entry", "entries")); generation \(bundle.generation)"
                )
                print("  locales: \(bundle.supportedLocales.joined(separator: " "))")
                print("  tables: \(bundle.tables.joined(separator: " "))")
                for problem in bundle.problems ?? [] { print("  problem: \(problem)") }
            }
        }
    }
}

/// `lprojctl status`
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show lprojd's state and the files it could not load.")

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        try await connection.withClient { client in
            let status = try await client.status()
            if connection.json {
                connection.printJSON(status)
                return
            }
            print("lprojd \(status.version), up \(Int(status.uptime.double)) s, generation \(status.generation)")
            print("\(count(status.bundles, "bundle")), \(count(status.tables, "table")), \(count(status.entries, "entry", "entries"))")
            print(
                "\(count(status.connections, "connection")), \(count(status.subscribers, "subscriber")), \(count(status.selections, "saved selection"))"
            )
            if status.errors.isEmpty {
                print("no errors")
            } else {
                print("\(count(status.errors.count, "error")):")
                for error in status.errors {
                    let place = [error.line, error.column].compactMap { $0 }.map(String.init).joined(separator: ":")
                    print("  \(error.bundle): \(error.file)\(place.isEmpty ? "" : ":\(place)"): \(error.message)")
                }
            }
        }
    }
}

/// `lprojctl reload [BUNDLE]`
struct ReloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload", abstract: "Read bundles from disk again (root or lprojd's user).")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "One bundle; all when omitted.") var bundle: String?

    func run() async throws {
        try await connection.withClient { client in
            let bundles = try await client.reload(bundle: bundle)
            if connection.json {
                connection.printJSON(bundles)
            } else {
                for bundle in bundles {
                    print("\(bundle.name): \(count(bundle.entries, "entry", "entries")), generation \(bundle.generation)")
                }
            }
        }
    }
}

/// `lprojctl watch`
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Print lprojd's notifications as they come, until interrupted.")

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "Only this client's events (and bundle-wide ones).") var client: String?
    @Option(help: "Only this bundle's events.") var bundle: String?

    func run() async throws {
        try await connection.withClient { lprojd in
            for try await event in try await lprojd.events(client: client, bundle: bundle) {
                // Written straight to the descriptor: each line appears at once,
                // even through a pipe.
                if connection.json {
                    Output.write(Data(JSONWriter.encode(event.varlinkValue)))
                } else {
                    Output.write(Data(Self.describe(event).utf8))
                }
                if event.type == .shutdown { break }
            }
        }
    }

    static func describe(_ event: Localization.Event) -> String {
        let bundle = event.bundle.map { "\($0): " } ?? ""
        switch event.type {
        case .ready:
            return "ready (generation \(event.generation ?? 0))"
        case .localeChanged:
            return "\(bundle)\(event.client ?? "?") now uses \(event.locale ?? "?") (was \(event.previousLocale ?? "?"))"
        case .preferencesChanged:
            return "\(bundle)\(event.client ?? "?") changed its preferences: \(event.changed?.joined(separator: ", ") ?? "?")"
        case .tablesChanged:
            let tables = event.tables?.joined(separator: ", ") ?? "tables"
            let locales = event.locales.map { " (\($0.joined(separator: ", ")))" } ?? ""
            let client = event.client.map { " for \($0)" } ?? ""
            return "\(bundle)\(tables) changed\(locales)\(client)\(event.generation.map { ", generation \($0)" } ?? "")"
        case .localesChanged:
            let added = event.added ?? [], removed = event.removed ?? []
            return "\(bundle)locales" + (added.isEmpty ? "" : " added: \(added.joined(separator: " "))")
                + (removed.isEmpty ? "" : " removed: \(removed.joined(separator: " "))")
        case .tableError:
            let place = [event.line, event.column].compactMap { $0 }.map(String.init).joined(separator: ":")
            return "\(bundle)error: \(event.file ?? "?")\(place.isEmpty ? "" : ":\(place)"): \(event.message ?? "")"
        case .bundleChanged:
            return "\(bundle)\(event.message ?? "changed")"
        case .shutdown:
            return "lprojd is stopping"
        }
    }
}
