import ArgumentParser
import LprojClient
import LprojInterface

/// Prints a selection.
private func show(_ selection: Localization.Selection, _ connection: ConnectionOptions) {
    if connection.json {
        connection.printJSON(selection)
    } else if let requested = selection.requested {
        print("\(selection.locale) (\(selection.reason.rawValue); \(requested) is not supported by \(selection.bundle))")
    } else {
        print("\(selection.locale) (\(selection.reason.rawValue))")
    }
}

/// `lprojctl selection CLIENT BUNDLE`
struct SelectionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selection", abstract: "Show the locale that applies to a client (saved, preferred or default).")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The client (app id).") var client: String
    @Argument(help: "The bundle.") var bundle: String
    @Option(name: .customLong("prefer"), help: "A preferred language, most preferred first; repeatable. A match is saved.") var preferred:
        [String] = []

    func run() async throws {
        try await connection.withClient { client in
            show(
                try await client.selection(client: self.client, bundle: bundle, preferredLanguages: preferred.isEmpty ? nil : preferred),
                connection)
        }
    }
}

/// `lprojctl select CLIENT BUNDLE LOCALE`
struct SelectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "select", abstract: "Save a client's locale (an unsupported one falls back to its language, then the default).")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The client (app id).") var client: String
    @Argument(help: "The bundle.") var bundle: String
    @Argument(help: "The locale.") var locale: String

    func run() async throws {
        try await connection.withClient { client in
            show(try await client.select(client: self.client, bundle: bundle, locale: locale), connection)
        }
    }
}

/// `lprojctl reset CLIENT BUNDLE`
struct ResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reset", abstract: "Forget a client's saved locale.")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The client (app id).") var client: String
    @Argument(help: "The bundle.") var bundle: String

    func run() async throws {
        try await connection.withClient { client in
            show(try await client.reset(client: self.client, bundle: bundle), connection)
        }
    }
}

/// `lprojctl negotiate`
struct NegotiateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "negotiate", abstract: "Pick the best available locale for preferred languages.",
        discussion: "Example: lprojctl negotiate --available en,en-GB,fr --prefer en-AU --prefer fr")

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "The available locales, comma-separated.") var available: String
    @Option(name: .customLong("prefer"), help: "A preferred language, most preferred first; repeatable.") var preferred: [String] = []
    @Option(help: "exact, language or any (the default).") var specificity: String?
    @Option(name: .customLong("default"), help: "The value when nothing matches.") var defaultValue: String?

    static func specificity(_ name: String) throws -> Localization.Negotiate.Parameters.Specificity {
        guard let specificity = Localization.Negotiate.Parameters.Specificity(rawValue: name) else {
            throw ValidationError("--specificity \(name): expected exact, language or any")
        }
        return specificity
    }

    func run() async throws {
        try await connection.withClient { client in
            let locales = available.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let reply = try await client.negotiate(
                available: locales, preferredLanguages: preferred, specificity: try specificity.map(Self.specificity),
                defaultValue: defaultValue)
            if connection.json {
                connection.printJSON(reply)
            } else if let locale = reply.locale {
                print("\(locale) (\(reply.match.rawValue))")
            } else {
                print(reply.value.map { "\($0) (default)" } ?? "(no match)")
            }
        }
    }
}

import Foundation
