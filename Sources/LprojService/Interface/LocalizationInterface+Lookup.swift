internal import LprojEngine
internal import LprojFormat
internal import LprojStore
internal import VarlinkProtocol

extension LocalizationInterface {
    func lookup(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.lookup)
        let bundle = try bundle(parameters.string("bundle"))
        let key = try parameters.string("key")
        let table = try tableName(parameters.optionalString("table"))
        let client = try clientID(parameters.optionalString("client"))
        let locale = try resolvedLocale(parameters.optionalString("locale"), client: client, bundle: bundle, caller: caller)
        let arguments = try parameters.optionalArray("arguments").map(Self.formatArguments)
        let placeholders = try parameters.optionalStringMap("placeholders") ?? [:]
        let defaultValue = try parameters.optionalString("defaultValue")
        let overlay = client.flatMap { added.overlay(uid: caller.uid, client: $0, bundle: bundle.name) }
        let result: LookupResult
        do throws(LookupError) {
            result = try bundle.localizedString(
                key, table: table, locale: locale, defaultValue: defaultValue,
                arguments: arguments, placeholders: placeholders, overlay: overlay)
        } catch {
            switch error {
            case .invalidArguments(let formatError): throw LocalizationErrors.invalidArguments(key: key, formatError)
            case .invalidTableName: throw .invalidParameter("table")
            case .invalidLocale(let reason): throw LocalizationErrors.invalidLocale(locale.locale.tag, reason)
            }
        }
        var reply: JSONObject = ["value": .string(result.value), "found": .bool(result.found)]
        if let source = result.sourceDescription { reply["locale"] = .string(source) }
        return .reply(reply)
    }

    /// Reads `[]Argument`: each sets exactly one of string, int and float.
    static func formatArguments(_ values: [JSONValue]) throws(VarlinkError) -> [FormatArgument] {
        var arguments: [FormatArgument] = []
        arguments.reserveCapacity(values.count)
        for value in values {
            guard case .object(let object) = value else { throw .invalidParameter("arguments") }
            var argument: FormatArgument?
            var digits: Int?
            for (name, member) in object.members {
                switch (name, member) {
                case ("string", .string(let string)):
                    guard argument == nil else { throw .invalidParameter("arguments") }
                    argument = .string(string)
                case ("int", .number(let number)):
                    guard argument == nil, let integer = number.integer else { throw .invalidParameter("arguments") }
                    argument = .integer(integer)
                case ("float", .number(let number)):
                    guard argument == nil else { throw .invalidParameter("arguments") }
                    argument = .float(number.double, fractionDigits: number.fractionDigits)
                case ("fractionDigits", .number(let number)):
                    guard let integer = number.integer, (0...20).contains(integer) else { throw .invalidParameter("arguments") }
                    digits = Int(integer)
                case (_, .null):
                    continue
                default:
                    throw .invalidParameter("arguments")
                }
            }
            guard var found = argument else { throw .invalidParameter("arguments") }
            if let digits {
                guard case .float(let double, _) = found else { throw .invalidParameter("arguments") }
                found = .float(double, fractionDigits: digits)
            }
            arguments.append(found)
        }
        return arguments
    }

    func getTable(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.getTable)
        let snapshot = catalog.snapshot
        let name = try parameters.string("bundle")
        guard let bundle = snapshot.bundles[name] else { throw LocalizationErrors.bundleNotFound(name) }
        let table = try tableName(parameters.optionalString("table"))
        let client = try clientID(parameters.optionalString("client"))
        let locale = try resolvedLocale(parameters.optionalString("locale"), client: client, bundle: bundle, caller: caller)
        let overlay = client.flatMap { added.overlay(uid: caller.uid, client: $0, bundle: bundle.name) }
        let hasTable = bundle.localizations.contains { $0.tables[table] != nil } || overlay?.tables[table] != nil
        guard hasTable else { throw LocalizationErrors.tableNotFound(bundle: bundle.name, table: table) }
        let resolved = bundle.resolvedTable(table, locale: locale, overlay: overlay)
        var strings = JSONObject(), plurals = JSONObject(), sources = JSONObject()
        for key in resolved.entries.keys.sorted() {
            let entry = resolved.entries[key]!
            sources[key] = .string(entry.source)
            if let plural = entry.plural {
                plurals[key] = .object(Self.pluralEntry(plural, locale: entry.pluralLocale?.tag ?? locale.standardLocale.tag))
            } else {
                strings[key] = .string(entry.value)
            }
        }
        return .reply([
            "bundle": .string(bundle.name), "table": .string(table), "locale": .string(locale.locale.tag),
            "generation": .int(snapshot.bundleGenerations[bundle.name] ?? snapshot.generation),
            "strings": .object(strings), "plurals": .object(plurals), "sources": .object(sources),
        ])
    }

    /// A plural entry as the interface's `PluralEntry`.
    static func pluralEntry(_ plural: PluralFormat, locale: String) -> JSONObject {
        var variables = JSONObject()
        for name in plural.variables.keys.sorted() {
            let variable = plural.variables[name]!
            var object = JSONObject()
            if let valueType = variable.valueTypeText { object["valueType"] = .string(valueType) }
            for category in PluralCategory.allCases {
                if let form = variable.forms[category] { object[category.rawValue] = .string(form) }
            }
            variables[name] = .object(object)
        }
        return ["format": .string(plural.formatKey), "variables": .object(variables), "locale": .string(locale)]
    }
}
