import ArgumentParser
import Foundation
import LprojClient
import LprojInterface

/// `lprojctl apps`: what `ListClients` answers, for a terminal.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List your apps (client ids) with the locale each uses per bundle, and why.",
        discussion: """
            Only the caller's own apps: those with a saved selection or preferences, and
            those that named a bundle lately (the last 64 since lprojd started). A client
            id is, by GNOME's convention, the app's desktop-file id.
            """)

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "The locale to name the languages in (default: the desktop's, else each bundle's development locale).")
    var locale: String?

    func run() async throws {
        try await connection.withClient { lprojd in
            let reply = try await lprojd.clients(locale: locale)
            if connection.json {
                connection.printJSON(reply)
                return
            }
            if reply.clients.isEmpty {
                print("no apps")
                return
            }
            var names: [String: [String: Localization.LocaleName]] = [:]
            for bundle in reply.bundles {
                for name in bundle.locales { names[bundle.bundle, default: [:]][name.locale] = name }
            }
            let now = Date().timeIntervalSince1970
            for client in reply.clients {
                print(client.client)
                for use in client.bundles {
                    var line = "  \(use.bundle): \(use.locale)"
                    if let name = names[use.bundle]?[use.locale] { line += " (\(name.nativeName))" }
                    line += ", " + Self.why(use)
                    if use.hasPreferences { line += "; preferences saved" }
                    if let used = use.lastUsed { line += "; used \(Self.ago(now - used.double))" }
                    print(line)
                }
            }
            for bundle in reply.bundles {
                let locales = bundle.locales.map {
                    $0.name == $0.nativeName ? "\($0.locale) \($0.name)" : "\($0.locale) \($0.nativeName) — \($0.name)"
                }
                print("\(bundle.bundle) offers (in \(bundle.displayLocale)): \(locales.joined(separator: ", "))")
            }
        }
    }

    static func why(_ use: Localization.ClientBundle) -> String {
        switch use.reason {
        case .selected: return "selected"
        case .preferred: return "from the preferred languages"
        case .default:
            guard let selected = use.selectedLocale else { return "development locale" }
            return "development locale (\(selected) is selected; the bundle lacks it for now)"
        }
    }

    static func ago(_ seconds: Double) -> String {
        let seconds = max(0, Int(seconds))
        if seconds < 60 { return "\(seconds) s ago" }
        if seconds < 3600 { return "\(seconds / 60) min ago" }
        if seconds < 86400 { return "\(seconds / 3600) h ago" }
        return "\(seconds / 86400) days ago"
    }
}
