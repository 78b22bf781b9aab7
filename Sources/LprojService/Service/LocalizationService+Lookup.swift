internal import LprojEngine
internal import LprojFormat
internal import LprojStore
internal import VarlinkProtocol

extension LocalizationInterface {
    func lookup(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.lookup)
        let bundle = try bundle(parameters.string("bundle"))
        let key = try limited(parameters.string("key"), "keyLength", maximum: limits.maximumKeyLength)
        let table = try tableName(parameters.optionalString("table"))
        let client = try clientID(parameters.optionalString("client"))
        let locale = try resolvedLocale(parameters.optionalString("locale"), client: client, bundle: bundle, caller: caller)
        let arguments = try parameters.optionalArray("arguments").map { list throws(VarlinkError) in
            try formatArguments(limited(list, "arguments", maximum: limits.maximumArguments))
        }
        let placeholders = try self.placeholders(parameters.optionalStringMap("placeholders") ?? [:])
        let defaultValue = try parameters.optionalString("defaultValue").map { text throws(VarlinkError) in
            try limited(text, "valueLength", maximum: limits.maximumValueLength)
        }
        let overlay = client.flatMap { added.overlay(uid: caller.uid, client: $0, bundle: bundle.name) }
        let result: LookupResult
        do throws(LookupError) {
            result = try bundle.localizedString(
                key, table: table, locale: locale, defaultValue: defaultValue,
                arguments: arguments, placeholders: placeholders, overlay: overlay, maximumBytes: limits.maximumValueLength)
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

    /// Placeholder values: names of at most ``Placeholders/maximumNameLength``
    /// bytes (a longer one could never match), values within the value limit.
    func placeholders(_ given: [String: String]) throws(VarlinkError) -> [String: String] {
        guard given.count <= limits.maximumPlaceholders else { throw LocalizationErrors.limitExceeded("placeholders", maximum: limits.maximumPlaceholders) }
        for (name, value) in given {
            guard name.utf8.count <= Placeholders.maximumNameLength else { throw .invalidParameter("placeholders") }
            guard value.utf8.count <= limits.maximumValueLength else { throw LocalizationErrors.limitExceeded("valueLength", maximum: limits.maximumValueLength) }
        }
        return given
    }

    /// Reads `[]Argument`: each sets exactly one of string, int and float.
    func formatArguments(_ values: [JSONValue]) throws(VarlinkError) -> [FormatArgument] {
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
                    guard string.utf8.count <= limits.maximumValueLength else {
                        throw LocalizationErrors.limitExceeded("valueLength", maximum: limits.maximumValueLength)
                    }
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

    /// A whole table: checked on the loop, built off it (its cost follows the
    /// table's size), in O(n) of its entries.
    func getTable(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.getTable)
        let snapshot = catalog.snapshot
        let name = try parameters.string("bundle")
        guard name.utf8.count <= 128, let bundle = snapshot.bundles[name] else { throw LocalizationErrors.bundleNotFound(name) }
        let table = try tableName(parameters.optionalString("table"))
        let client = try clientID(parameters.optionalString("client"))
        let locale = try resolvedLocale(parameters.optionalString("locale"), client: client, bundle: bundle, caller: caller)
        let overlay = client.flatMap { added.overlay(uid: caller.uid, client: $0, bundle: bundle.name) }
        let hasTable = bundle.localizations.contains { $0.tables[table] != nil } || overlay?.tables[table] != nil
        guard hasTable else { throw LocalizationErrors.tableNotFound(bundle: bundle.name, table: table) }
        let generation = snapshot.bundleGenerations[bundle.name] ?? snapshot.generation
        return .deferred {
            let resolved = bundle.resolvedTable(table, locale: locale, overlay: overlay)
            // Sorted by UTF-8 bytes: a deterministic order at the cost of a
            // byte comparison, not of Unicode collation.
            let keys = resolved.entries.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var strings = JSONObject(minimumCapacity: keys.count), plurals = JSONObject(), sources = JSONObject(minimumCapacity: keys.count)
            for key in keys {
                guard let entry = resolved.entries[key] else { continue }
                sources.appendUnchecked(key, .string(entry.source))
                if let plural = entry.plural {
                    plurals.appendUnchecked(key, .object(Self.pluralEntry(plural, locale: entry.pluralLocale?.tag ?? locale.standardLocale.tag)))
                } else {
                    strings.appendUnchecked(key, .string(entry.value))
                }
            }
            return .reply([
                "bundle": .string(bundle.name), "table": .string(table), "locale": .string(locale.locale.tag),
                "generation": .int(generation), "strings": .object(strings), "plurals": .object(plurals), "sources": .object(sources),
            ])
        }
    }

    /// A plural entry as the interface's `PluralEntry`. A variable without
    /// an `other` form can be no variable the entry uses (the validator
    /// keeps no entry that uses one); it is left out, as `other` is required.
    static func pluralEntry(_ plural: PluralFormat, locale: String) -> JSONObject {
        var variables = JSONObject()
        for name in plural.variables.keys.sorted() {
            guard let variable = plural.variables[name], variable.forms[.other] != nil else { continue }
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
