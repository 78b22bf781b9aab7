import ArgumentParser
import Foundation
import LprojClient
import LprojInterface

/// `lprojctl lookup BUNDLE KEY`
struct LookupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Look a key up, as an app would.",
        discussion: """
            Arguments fill the value's format specifiers in order. Their type is
            guessed (3 is an int, 1.50 a float, anything else a string) unless
            written int:3, float:1.50 or string:3.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The bundle.") var bundle: String
    @Argument(help: "The key.") var key: String
    @Option(help: "The table (default: Localizable).") var table: String?
    @Option(help: "The locale (default: the client's selection, else the development locale).") var locale: String?
    @Option(help: "The client (app id) whose selection and added strings apply.") var client: String?
    @Option(name: .customLong("default"), help: "The value when the key is missing.") var defaultValue: String?
    @Option(name: .customLong("arg"), help: "A format argument; repeat for each.") var arguments: [String] = []
    @Option(name: .customLong("placeholder"), help: "A named placeholder, as name=value; repeatable.") var placeholders: [String] = []

    func run() async throws {
        let typed = arguments.map(Self.argument)
        var named: [String: String] = [:]
        for placeholder in placeholders {
            guard let (name, value) = Self.placeholder(placeholder) else {
                throw ValidationError("--placeholder \(placeholder): expected name=value")
            }
            named[name] = value
        }
        try await connection.withClient { client in
            let reply = try await client.lookup(
                bundle: bundle, key: key, table: table, locale: locale, client: self.client, defaultValue: defaultValue,
                arguments: typed.isEmpty ? nil : typed, placeholders: named.isEmpty ? nil : named)
            if connection.json {
                connection.printJSON(reply)
            } else {
                print(reply.value)
                if !reply.found { Output.note(Self.notFoundNote(defaultValue: defaultValue)) }
            }
        }
    }

    /// A `--placeholder` as written, `name=value`; nil without `=`.
    static func placeholder(_ text: String) -> (name: String, value: String)? {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    static func notFoundNote(defaultValue: String?) -> String {
        "(not found: \(defaultValue == nil ? "the key itself" : "the default") is shown)"
    }

    static func argument(_ text: String) -> Localization.Argument {
        if text.hasPrefix("string:") { return .string(String(text.dropFirst(7))) }
        if text.hasPrefix("int:"), let value = Int(text.dropFirst(4)) { return .int(value) }
        if text.hasPrefix("float:"), let value = Double(text.dropFirst(6)) {
            return .float(value, fractionDigits: fractionDigits(String(text.dropFirst(6))))
        }
        if let value = Int(text) { return .int(value) }
        if let value = Double(text), text.contains(".") { return .float(value, fractionDigits: fractionDigits(text)) }
        return .string(text)
    }

    static func fractionDigits(_ text: String) -> Int {
        guard let dot = text.firstIndex(of: ".") else { return 0 }
        return text[text.index(after: dot)...].prefix { $0.isNumber }.count
    }
}

/// `lprojctl table BUNDLE`
struct TableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "table", abstract: "Print a whole table resolved for a locale.")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The bundle.") var bundle: String
    @Option(help: "The table (default: Localizable).") var table: String?
    @Option(help: "The locale.") var locale: String?
    @Option(help: "The client whose selection and added strings apply.") var client: String?

    func run() async throws {
        try await connection.withClient { client in
            let reply = try await client.table(bundle: bundle, table: table, locale: locale, client: self.client)
            if connection.json {
                connection.printJSON(reply)
                return
            }
            print("# \(reply.bundle)/\(reply.table) for \(reply.locale) (generation \(reply.generation))")
            for key in Set(reply.strings.keys).union(reply.plurals.keys).sorted() {
                let source = reply.sources[key].map { "  [\($0)]" } ?? ""
                if let value = reply.strings[key] {
                    print("\(Self.quoted(key)) = \(Self.quoted(value));\(source)")
                } else if let plural = reply.plurals[key] {
                    print("\(Self.quoted(key)) = \(Self.quoted(plural.format)); /* plural */\(source)")
                }
            }
        }
    }

    static func quoted(_ text: String) -> String {
        "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(
                of: "\n", with: "\\n") + "\""
    }
}
