import LprojClient
import LprojInterface

/// `lprojctl lookup` without the argument parser and without an event
/// loop: the one-shot call scripts make most, answered in a few
/// milliseconds.
///
/// Starting swift-argument-parser (which finds a command's options by
/// reflection and dynamic casts) and an event-loop group took most of a
/// lookup's 15 ms. This path reads the plain forms of `lookup`'s
/// arguments itself and calls lprojd on a blocking socket. Anything else
/// (help, `--json`, an option it does not know, a malformed one) and any
/// failure go the usual way, which parses, reports and exits as always;
/// a lookup changes nothing, so asking twice is harmless.
enum QuickLookup {
    struct Request: Equatable {
        var bundle = ""
        var key = ""
        var socket: String?
        var table: String?
        var locale: String?
        var client: String?
        var defaultValue: String?
        var arguments: [String] = []
        var placeholders: [String: String] = [:]
    }

    /// Answers `arguments` (the whole command line) if it is a plain
    /// lookup that succeeds; returns false to leave it to the parser.
    static func answer(_ arguments: [String]) -> Bool {
        guard let request = parse(arguments) else { return false }
        let reply: Localization.Lookup.Reply
        do {
            reply = try LprojClient.callOnce(
                Localization.Lookup.self,
                .init(
                    bundle: request.bundle, key: request.key, table: request.table, locale: request.locale, client: request.client,
                    defaultValue: request.defaultValue,
                    arguments: request.arguments.isEmpty ? nil : request.arguments.map(LookupCommand.argument),
                    placeholders: request.placeholders.isEmpty ? nil : request.placeholders),
                path: request.socket)
        } catch {
            return false
        }
        print(reply.value)
        if !reply.found { Output.note(LookupCommand.notFoundNote(defaultValue: request.defaultValue)) }
        return true
    }

    /// `lookup BUNDLE KEY` with `--option value` or `--option=value` for
    /// the options below, in any order; nil for anything else.
    static func parse(_ arguments: [String]) -> Request? {
        guard arguments.count >= 4, arguments[1] == "lookup" else { return nil }
        var request = Request()
        var positionals: [String] = []
        var index = 2
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-") else {
                positionals.append(argument)
                continue
            }
            guard argument.hasPrefix("--") else { return nil }
            let name: Substring, value: String
            if let equals = argument.firstIndex(of: "=") {
                name = argument[argument.index(argument.startIndex, offsetBy: 2)..<equals]
                value = String(argument[argument.index(after: equals)...])
            } else {
                guard index < arguments.count else { return nil }
                name = argument.dropFirst(2)
                value = arguments[index]
                index += 1
            }
            switch name {
            case "socket": request.socket = value
            case "table": request.table = value
            case "locale": request.locale = value
            case "client": request.client = value
            case "default": request.defaultValue = value
            case "arg": request.arguments.append(value)
            case "placeholder":
                guard let (name, value) = LookupCommand.placeholder(value) else { return nil }
                request.placeholders[name] = value
            default: return nil
            }
        }
        guard positionals.count == 2 else { return nil }
        request.bundle = positionals[0]
        request.key = positionals[1]
        return request
    }
}
