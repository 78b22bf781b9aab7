import ArgumentParser
import Foundation
import LprojClient
import LprojInterface
import VarlinkProtocol

/// Where a formatting call takes its locale from, shared by its commands.
struct FormattingLocaleOptions: ParsableArguments {
    @Option(help: "The bundle (its LM_ separators apply; needed with --client).") var bundle: String?
    @Option(help: "The client whose selected locale and preferences apply.") var client: String?
    @Option(help: "The locale (default: the client's, else the bundle's development locale).") var locale: String?
}

/// `lprojctl format STYLE VALUE`
struct FormatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format", abstract: "Format a value in a locale's or a client's way.",
        discussion: """
            Styles: decimal, percent (25 is 25 %), currency, scientific, spellOut (VALUE a number);
            distance (meters), speed (meters per second); simpleDate, time12, time24, simpleDateTime,
            server, template (--template yMMMd), pattern (--pattern "EEEE d MMMM"), savedDate, savedTime,
            savedDateTime (VALUE seconds since 1970, "now", or ISO 8601 such as 2026-11-22T10:00:00Z);
            uppercase, lowercase (VALUE text).
            Examples: lprojctl format currency 1234.5 --locale de
                      lprojctl format simpleDate now --bundle demo --client org.example.Editor
            """)

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var place: FormattingLocaleOptions
    @Argument(help: "The style.") var style: String
    @Argument(help: "The number, date or text.") var value: String
    @Option(
        help: "A distance or speed unit (meters, kilometers, feet, yards, miles; kilometersPerHour, milesPerHour, metersPerSecond, knots).")
    var unit: String?
    @Option(help: "A currency code (ISO 4217).") var currency: String?
    @Option(name: .customLong("fraction-digits"), help: "Exactly this many fraction digits.") var fractionDigits: Int?
    @Option(help: "The date fields wanted, for the template style.") var template: String?
    @Option(help: "A date pattern, for the pattern style.") var pattern: String?
    @Option(name: .customLong("time-zone"), help: "A time zone (default: the client's, else GMT).") var timeZone: String?
    @Option(help: "A calendar (default: the client's, else the locale's).") var calendar: String?

    func request() throws -> FormatValue {
        guard let kind = Localization.Format.Parameters.Style(rawValue: style) else {
            throw ValidationError(
                "'\(style)' is not a style: \(Localization.Format.Parameters.Style.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        func number() throws -> Double {
            guard let number = Double(value) else { throw CommandError("\(style) takes a number, not '\(value)'") }
            return number
        }
        switch kind {
        case .uppercase, .lowercase: return .text(value, style: kind)
        case .decimal, .percent, .currency, .scientific, .spellOut:
            return .number(try number(), style: kind, fractionDigits: fractionDigits, currency: currency)
        case .distance: return .distance(meters: try number(), unit: unit, fractionDigits: fractionDigits)
        case .speed: return .speed(metersPerSecond: try number(), unit: unit, fractionDigits: fractionDigits)
        case .simpleDate, .time12, .time24, .simpleDateTime, .server, .template, .pattern, .savedDate, .savedTime, .savedDateTime:
            return .date(try Self.seconds(value), style: kind, template: template, pattern: pattern, timeZone: timeZone, calendar: calendar)
        }
    }

    /// Seconds since 1970 from a number, "now", or an ISO 8601 date.
    static func seconds(_ text: String) throws -> Double {
        if text == "now" { return Date().timeIntervalSince1970 }
        if let seconds = Double(text) { return seconds }
        let iso = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime], [.withFullDate],
        ] {
            iso.formatOptions = options
            if let date = iso.date(from: text) { return date.timeIntervalSince1970 }
        }
        throw CommandError("'\(text)' is not a date: give seconds since 1970, now, or ISO 8601 (2026-11-22T10:00:00Z)")
    }

    func run() async throws {
        let request = try request()
        try await connection.withClient { client in
            let reply = try await client.format(request, bundle: place.bundle, client: place.client, locale: place.locale)
            if connection.json {
                connection.printJSON(reply)
            } else {
                print(reply.value)
            }
        }
    }
}

/// `lprojctl parse-date TEXT`
struct ParseDateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse-date", abstract: "Read a date in the server format (yyyy-MM-dd HH:mm:ss.SSS, GMT) or a pattern.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var place: FormattingLocaleOptions
    @Argument(help: "The date as written.") var text: String
    @Option(help: "A date pattern (default: the server format).") var pattern: String?
    @Option(name: .customLong("time-zone"), help: "The time zone of a pattern's date.") var timeZone: String?

    func run() async throws {
        try await connection.withClient { client in
            let seconds = try await client.parseDate(
                text, pattern: pattern, bundle: place.bundle, client: place.client, locale: place.locale, timeZone: timeZone)
            if connection.json {
                connection.printJSON(Localization.ParseDate.Reply(date: JSONNumber(seconds)))
            } else {
                let iso = ISO8601DateFormatter()
                iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                print("\(seconds) (\(iso.string(from: Date(timeIntervalSince1970: seconds))))")
            }
        }
    }
}

/// `lprojctl preferences CLIENT BUNDLE`
struct PreferencesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preferences", abstract: "Show or change a client's formatting preferences.",
        discussion: """
            Fields: \(Localization.Preferences.fieldNames.joined(separator: ", ")).
            Example: lprojctl preferences org.example.Editor demo --set distanceUnit=miles --set timeZone=Europe/Rome --clear calendar
            """)

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The client (app id).") var client: String
    @Argument(help: "The bundle.") var bundle: String
    @Option(name: .customLong("set"), help: ArgumentHelp("Set a field; repeatable.", valueName: "field=value")) var assignments: [String] =
        []
    @Option(name: .customLong("clear"), help: ArgumentHelp("Forget a field; repeatable.", valueName: "field")) var cleared: [String] = []

    func run() async throws {
        var fields: [(name: String, value: String)] = []
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "=") else { throw CommandError("--set \(assignment): expected field=value") }
            fields.append((String(assignment[..<equals]), String(assignment[assignment.index(after: equals)...])))
        }
        let preferences: Localization.Preferences
        do {
            preferences = try Localization.Preferences(fields: fields)
        } catch {
            throw CommandError("--set \(error.field): not one of \(Localization.Preferences.fieldNames.joined(separator: ", "))")
        }
        try await connection.withClient { lprojd in
            let current: Localization.Preferences
            if assignments.isEmpty && cleared.isEmpty {
                current = try await lprojd.preferences(client: client, bundle: bundle)
            } else {
                current = try await lprojd.setPreferences(preferences, clear: cleared, client: client, bundle: bundle).preferences
            }
            if connection.json {
                connection.printJSON(current)
            } else {
                let set = Dictionary(uniqueKeysWithValues: current.setFields.map { ($0.name, $0.value) })
                for name in Localization.Preferences.fieldNames { print("\(name): \(set[name] ?? "(not set)")") }
            }
        }
    }
}

/// `lprojctl locales BUNDLE`
struct LocalesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locales",
        abstract: "List a bundle's locales with their names: in the display locale, in themselves, and the bundle's own.")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The bundle.") var bundle: String
    @Option(help: "The client whose selected locale names them.") var client: String?
    @Option(help: "The locale to name them in.") var locale: String?

    func run() async throws {
        try await connection.withClient { lprojd in
            let reply = try await lprojd.supportedLocales(bundle: bundle, client: client, locale: locale)
            let (display, locales) = (reply.displayLocale, reply.locales)
            if connection.json {
                connection.printJSON(reply)
            } else {
                print("names in \(display):")
                let width = locales.map(\.locale.count).max() ?? 0
                for entry in locales {
                    let padded = entry.locale.padding(toLength: width, withPad: " ", startingAt: 0)
                    print("  \(padded)  \(entry.name) — \(entry.nativeName)\(entry.bundleName.map { " — bundle: \($0)" } ?? "")")
                }
            }
        }
    }
}
