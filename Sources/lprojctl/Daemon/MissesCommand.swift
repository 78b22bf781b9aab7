import ArgumentParser
import Foundation
import LprojClient
import LprojInterface

/// `lprojctl misses`
struct MissesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "misses",
        abstract: "List the keys lookups did not find in their locale, most frequent first.",
        discussion: """
            A miss is a lookup answered by the development locale, Base, the caller's default or the \
            key itself: what translators would add next. Root and lprojd's user see everyone's; \
            others see their own lookups'. --reset forgets them (root or lprojd's user).
            """)

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "Only this bundle's.") var bundle: String?
    @Option(help: "Only this locale's.") var locale: String?
    @Option(help: "Only those seen in the last DURATION (such as 90m, 24h, 7d).", transform: MissesCommand.duration)
    var since: TimeInterval?
    @Option(help: "At most this many (1 to 10000).") var limit: Int = 100
    @Flag(help: "Forget the misses recorded (of --bundle, or all) instead.") var reset = false

    func run() async throws {
        try await connection.withClient { client in
            if reset {
                let removed = try await client.resetMisses(bundle: bundle)
                print("forgot \(count(removed, "miss", "misses"))")
                return
            }
            let reply = try await client.misses(
                bundle: bundle, locale: locale, since: since.map { Date().timeIntervalSince1970 - $0 }, limit: limit)
            if connection.json {
                connection.printJSON(reply)
                return
            }
            print(Self.table(reply.misses))
            for unknown in reply.unknownKeys {
                print("\(unknown.bundle): \(count(unknown.count, "lookup")) of keys no table has, such as:")
                for key in unknown.sample { print("  \(key.debugDescription)") }
            }
            if reply.dropped > 0 { print("\(count(reply.dropped, "miss was", "misses were")) not recorded: the record is full") }
        }
    }

    /// Aligned columns: count, clients, last seen, bundle, locale, table, key.
    static func table(_ misses: [Localization.Miss]) -> String {
        guard !misses.isEmpty else { return "no misses" }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let rows =
            [["COUNT", "CLIENTS", "LAST SEEN", "BUNDLE", "LOCALE", "TABLE", "KEY"]]
            + misses.map { miss in
                [
                    String(miss.count), miss.clients >= 32 ? "32+" : String(miss.clients),
                    formatter.string(from: Date(timeIntervalSince1970: miss.lastSeen.double)), miss.bundle, miss.locale, miss.table,
                    miss.key,
                ]
            }
        let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            (0..<6).map { column in
                column < 2
                    ? String(repeating: " ", count: widths[column] - row[column].count) + row[column]
                    : row[column].padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ") + "  " + row[6]
        }.joined(separator: "\n")
    }

    /// `90m`, `24h`, `7d`, `30s` or a number of seconds.
    static func duration(_ text: String) throws -> TimeInterval {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604_800]
        if let unit = text.last, let scale = units[unit], let amount = Double(text.dropLast()), amount >= 0 { return amount * scale }
        if let seconds = Double(text), seconds >= 0 { return seconds }
        throw ValidationError("'\(text)' is not a duration such as 90m, 24h or 7d")
    }
}
