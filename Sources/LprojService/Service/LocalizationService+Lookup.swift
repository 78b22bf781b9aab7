internal import LprojEngine
internal import LprojFormatStrings
package import LprojInterface
internal import LprojLocales
internal import LprojStore

extension LocalizationService {
    /// A lookup, answered now.
    package func lookup(_ call: Localization.Lookup.Parameters, caller: Caller) throws(ServiceError) -> Localization.Lookup.Reply {
        try preparedLookup(call, caller: caller).answer()
    }

    /// A lookup, answered now when what it must read and format is small,
    /// else later (off the event loop): its cost is known once the value is
    /// found, before it is formatted. A call of 150 bytes can name an added
    /// value of 64 KB to format, and one of 64 KB a key as long.
    package func answerLookup(_ call: Localization.Lookup.Parameters, caller: Caller) throws(ServiceError) -> Answer<
        Localization.Lookup.Reply
    > {
        let prepared = try preparedLookup(call, caller: caller)
        guard prepared.cost > Self.lookupBytesAnsweredAtOnce else { return .now(try prepared.answer()) }
        return .later { () throws(ServiceError) in try prepared.answer() }
    }

    /// The most bytes a lookup reads and formats (its key, default,
    /// arguments and placeholders, and the value it formats) and is still
    /// answered on the event loop: parsing and formatting 16 KB takes well
    /// under a millisecond.
    static let lookupBytesAnsweredAtOnce = 16 << 10

    /// The first half of a lookup: checked, and the value found.
    struct PreparedLookup: Sendable {
        let service: LocalizationService
        let bundle: LoadedBundle
        let key: String
        let table: String
        let client: String?
        let locale: ResolvedLocale
        let arguments: [FormatArgument]?
        let placeholders: [String: String]
        let found: LookupResult
        let caller: Caller
        /// The bytes the call reads and formats.
        let cost: Int

        /// The second half: the value formatted, the miss counted.
        func answer() throws(ServiceError) -> Localization.Lookup.Reply {
            let result: LookupResult
            do throws(LookupError) {
                result = try bundle.formatted(
                    bundle.pseudoLocalized(found, locale: locale), locale: locale, arguments: arguments, placeholders: placeholders,
                    maximumBytes: service.limits.requests.maximumValueLength)
            } catch {
                switch error {
                case .invalidArguments(let formatError): throw .invalidArguments(key: key, formatError)
                case .invalidTableName: throw .invalidParameter("table")
                case .invalidLocale(let reason): throw .invalidLocale(locale.locale.tag, reason)
                }
            }
            // The common case, a value from the locale's own folders, costs one comparison.
            if service.countsMisses, !locale.isOwn(chainPosition: result.chainPosition), locale.pseudo == nil {
                service.recordMiss(
                    of: result, key: key, table: table, client: client, bundle: bundle, locale: locale, caller: caller)
            }
            return .init(value: result.value, found: result.found, locale: result.sourceDescription)
        }
    }

    func preparedLookup(_ call: Localization.Lookup.Parameters, caller: Caller) throws(ServiceError) -> PreparedLookup {
        let bundle = try bundle(call.bundle)
        let key = try limited(call.key, .keyLength, maximum: limits.requests.maximumKeyLength)
        let table = try tableName(call.table)
        let client = try clientID(call.client)
        let locale = try resolvedLocale(call.locale, client: client, bundle: bundle, caller: caller)
        let arguments = try call.arguments.map { list throws(ServiceError) in
            try formatArguments(limited(list, .arguments, maximum: limits.requests.maximumArguments))
        }
        let placeholders = try self.placeholders(call.placeholders ?? [:])
        let defaultValue = try call.defaultValue.map { text throws(ServiceError) in
            try limited(text, .valueLength, maximum: limits.requests.maximumValueLength)
        }
        let overlay = client.flatMap { added.overlay(uid: caller.uid, client: $0, bundle: bundle.name) }
        noteUse(of: client, bundle: bundle.name, by: caller)
        // Found as the tables have it: a pseudo-locale's rewriting is work
        // too, done in the second half, once its cost is known.
        let found = bundle.lookup(key, table: table, locale: locale, defaultValue: defaultValue, overlay: overlay, pseudoLocalizing: false)
        // What the second half reads, rewrites, formats and sends: the value
        // (four times over in a pseudo-locale, whose values grow), a plural
        // entry's forms, the key and default, the arguments and placeholders.
        var cost = key.utf8.count + (defaultValue?.utf8.count ?? 0)
        var value = found.value.utf8.count
        if let plural = found.plural {
            for variable in plural.variables.values {
                for form in variable.forms.values { value += form.utf8.count }
            }
        }
        cost += locale.pseudo == nil ? value : 4 * value
        for (name, text) in placeholders { cost += name.utf8.count + text.utf8.count }
        for argument in arguments ?? [] { if case .string(let text) = argument { cost += text.utf8.count } }
        return PreparedLookup(
            service: self, bundle: bundle, key: key, table: table, client: client, locale: locale, arguments: arguments,
            placeholders: placeholders, found: found, caller: caller, cost: cost)
    }

    /// Counts a lookup its locale's own chain could not answer. Nothing to
    /// do, beyond walking the own chain's few folders, for one it answered.
    @inline(__always)
    func recordMiss(
        of result: LookupResult, key: String, table: String, client: String?, bundle: LoadedBundle, locale: ResolvedLocale, caller: Caller
    ) {
        switch bundle.coverage(of: result, key: key, table: table, locale: locale) {
        case .own:
            break
        case .missed:
            misses.record(uid: caller.uid, client: client, bundle: bundle.name, locale: locale.locale.tag, table: table, key: key)
        case .unknownKey:
            misses.recordUnknown(uid: caller.uid, bundle: bundle.name, key: key)
        }
    }

    /// Placeholder values: names of at most ``Placeholders/maximumNameLength``
    /// bytes (a longer one could never match), values within the value limit.
    func placeholders(_ given: [String: String]) throws(ServiceError) -> [String: String] {
        guard given.count <= limits.requests.maximumPlaceholders else {
            throw .limitExceeded(.placeholders, maximum: limits.requests.maximumPlaceholders)
        }
        for (name, value) in given {
            guard name.utf8.count <= Placeholders.maximumNameLength else { throw .invalidParameter("placeholders") }
            guard value.utf8.count <= limits.requests.maximumValueLength else {
                throw .limitExceeded(.valueLength, maximum: limits.requests.maximumValueLength)
            }
        }
        return given
    }

    /// The arguments a format gets: each sets exactly one of string, int and
    /// float; fractionDigits (0 to 20) goes with a float only.
    func formatArguments(_ given: [Localization.Argument]) throws(ServiceError) -> [FormatArgument] {
        var arguments: [FormatArgument] = []
        arguments.reserveCapacity(given.count)
        for argument in given {
            let value: FormatArgument
            switch (argument.string, argument.int, argument.float) {
            case (let string?, nil, nil):
                guard string.utf8.count <= limits.requests.maximumValueLength else {
                    throw .limitExceeded(.valueLength, maximum: limits.requests.maximumValueLength)
                }
                value = .string(string)
            case (nil, let integer?, nil):
                value = .integer(Int64(integer))
            case (nil, nil, let number?):
                value = .float(number.double, fractionDigits: number.fractionDigits)
            default:
                throw .invalidParameter("arguments")
            }
            if let digits = argument.fractionDigits {
                guard (0...20).contains(digits), case .float(let double, _) = value else { throw .invalidParameter("arguments") }
                arguments.append(.float(double, fractionDigits: digits))
            } else {
                arguments.append(value)
            }
        }
        return arguments
    }

    /// A whole table: checked now; built now when small, else later (its
    /// cost follows the table's size), in O(n) of its entries.
    package func getTable(_ call: Localization.GetTable.Parameters, caller: Caller) throws(ServiceError) -> Answer<
        Localization.GetTable.Reply
    > {
        let snapshot = served.snapshot
        let bundle = try bundle(call.bundle, in: snapshot)
        let table = try tableName(call.table)
        let client = try clientID(call.client)
        let locale = try resolvedLocale(call.locale, client: client, bundle: bundle, caller: caller)
        let overlay = client.flatMap { added.overlay(uid: caller.uid, client: $0, bundle: bundle.name) }
        noteUse(of: client, bundle: bundle.name, by: caller)
        let hasTable = bundle.localizations.contains { $0.tables[table] != nil } || overlay?.tables[table] != nil
        guard hasTable else { throw .tableNotFound(bundle: bundle.name, table: table) }
        let generation = snapshot.bundleGenerations[bundle.name] ?? snapshot.generation
        let maximumReplySize = limits.server.maximumReplySize
        let build = { @Sendable () throws(ServiceError) -> Localization.GetTable.Reply in
            // Its size as sent is counted before anything is built from it:
            // a value of control characters takes six bytes each once
            // escaped, and the pseudo-locales only make values longer.
            let resolved = try bundle.resolvedTable(table, locale: locale, overlay: overlay) { entries throws(ServiceError) in
                var size = 0
                for (key, entry) in entries {
                    size += 2 * Self.sentLength(key) + Self.sentLength(entry.value) + Self.sentLength(entry.source)
                    guard size <= maximumReplySize else { throw .limitExceeded(.replySize, maximum: maximumReplySize) }
                }
            }
            var strings: [String: String] = [:], plurals: [String: Localization.PluralEntry] = [:], sources: [String: String] = [:]
            sources.reserveCapacity(resolved.entries.count)
            strings.reserveCapacity(resolved.entries.count)
            for (key, entry) in resolved.entries {
                sources[key] = entry.source
                if let plural = entry.plural {
                    plurals[key] = Self.pluralEntry(plural, locale: entry.pluralLocale?.tag ?? locale.standardLocale.tag)
                } else {
                    strings[key] = entry.value
                }
            }
            return .init(
                bundle: bundle.name, table: table, locale: locale.locale.tag, formatLocale: locale.standardLocale.tag,
                generation: generation,
                strings: strings, plurals: plurals, sources: sources)
        }
        // A small table is built here, on the event loop, as a lookup is
        // answered: handing it to the work queue and back costs two thread
        // wake-ups, more than building it. Small means few entries and few
        // bytes: sixty values of 64 KiB of control characters are few
        // entries, but 23 MB to escape. A larger one waits its turn there.
        let cost = bundle.resolvingCost(table, locale: locale, overlay: overlay)
        guard cost.entries <= Self.tableBuiltAtOnce, cost.bytes <= Self.tableBytesBuiltAtOnce else { return .later(build) }
        return .now(try build())
    }

    /// The most entries a `GetTable` visits along the chain and still builds
    /// on the event loop: about 0.2 ms of work (200 keys, each in two
    /// folders, took 0.17 ms to resolve, convert and encode).
    static let tableBuiltAtOnce = 512
    /// The most bytes of keys and values it visits and still builds on the
    /// event loop: escaped at worst six bytes each, about half a millisecond.
    static let tableBytesBuiltAtOnce = 32 << 10

    /// The bytes a string takes in a JSON reply: a control character is
    /// written `\u00XX` (or `\n`), a quote or backslash escaped.
    static func sentLength(_ text: String) -> Int {
        var length = 2
        for byte in text.utf8 {
            length += byte < 0x20 ? 6 : byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") ? 2 : 1
        }
        return length
    }

    /// A plural entry as the interface's `PluralEntry`. A variable without
    /// an `other` form can be no variable the entry uses (the validator
    /// keeps no entry that uses one); it is left out, as `other` is required.
    static func pluralEntry(_ plural: PluralFormat, locale: String) -> Localization.PluralEntry {
        var variables: [String: Localization.PluralVariable] = [:]
        for (name, variable) in plural.variables {
            guard let other = variable.forms[.other] else { continue }
            variables[name] = .init(
                valueType: variable.valueTypeText, zero: variable.forms[.zero], one: variable.forms[.one], two: variable.forms[.two],
                few: variable.forms[.few], many: variable.forms[.many], other: other)
        }
        return .init(format: plural.formatKey, variables: variables, locale: locale)
    }
}
