internal import LprojEngine
import LprojFormatStrings
internal import LprojInterface
internal import LprojLocales
internal import LprojSnapshot
internal import LprojTables

/// A looked-up string: its value, whether a table had the key, and where
/// the value came from (a folder's locale, `Base`, or the locale a string
/// was added for), as lprojd's `Lookup` says.
public struct LocalizedValue: Sendable, Hashable {
    public let value: String
    public let found: Bool
    public let source: String?
}

/// What a localizer answers from: one immutable snapshot of the app's
/// language and tables, built whole and swapped in whole, so that a lookup
/// never sees half of a change.
final class Mirror: Sendable {
    /// Where the answers come from.
    enum Origin: Sendable, Equatable {
        /// Tables fetched from lprojd.
        case daemon
        /// The bundle's directory loaded in process (lprojd unreachable).
        case engine
        /// A snapshot the app ships, mapped (lprojd unreachable).
        case snapshot
        /// Nothing yet: every lookup gives its default or its key.
        case none
    }

    /// Where the answers come from, as their kind says.
    var origin: Origin {
        switch answers {
        case .tables: .daemon
        case .engine: .engine
        case .snapshot: .snapshot
        case .none: .none
        }
    }
    /// The locale the app's strings are in.
    let locale: String
    let developmentLocale: String
    let supportedLocales: [Localization.LocaleName]
    private let answers: Answers
    /// `Localizable`, the table nearly every lookup reads: reached without
    /// hashing its name.
    private let defaultTable: MirroredTable?

    private enum Answers: Sendable {
        case tables([String: MirroredTable], numbers: any NumberRendering, rules: PluralRuleChoice)
        case engine(LoadedBundle, ResolvedLocale)
        case snapshot(Snapshot, numbers: any NumberRendering, rules: PluralRuleChoice)
        case none
    }

    /// An empty mirror: keys answer for themselves.
    static let empty = Mirror(
        locale: "", developmentLocale: "", supportedLocales: [], answers: .none)

    private init(locale: String, developmentLocale: String, supportedLocales: [Localization.LocaleName], answers: Answers) {
        self.locale = locale
        self.developmentLocale = developmentLocale
        self.supportedLocales = supportedLocales
        self.answers = answers
        if case .tables(let tables, _, _) = answers { defaultTable = tables[TableName.defaultTable] } else { defaultTable = nil }
    }

    /// A mirror of tables fetched from lprojd. `formatLocale` is the locale
    /// whose number formats apply (a bundle's custom locale maps to one).
    convenience init(
        locale: String, formatLocale: String?, developmentLocale: String, tables: [String: MirroredTable],
        supportedLocales: [Localization.LocaleName]
    ) {
        let numbersLocale = (try? LocaleIdentifier(formatLocale ?? locale)) ?? (try? LocaleIdentifier(developmentLocale))
        let rules = PluralRuleChoice(requested: numbersLocale, development: try? LocaleIdentifier(developmentLocale))
        self.init(
            locale: locale, developmentLocale: developmentLocale, supportedLocales: supportedLocales,
            answers: .tables(tables, numbers: numbersLocale.map(ICUNumberRenderer.init) ?? POSIXNumberRenderer(), rules: rules))
    }

    /// A mirror answering from a bundle loaded in process.
    convenience init(bundle: LoadedBundle, locale: ResolvedLocale, supportedLocales: [Localization.LocaleName]) {
        self.init(
            locale: locale.locale.tag, developmentLocale: bundle.configuration.developmentLocale.tag,
            supportedLocales: supportedLocales, answers: .engine(bundle, locale))
    }

    /// A mirror answering from a mapped snapshot: nothing is read before
    /// the first lookup, and every process of the app shares its pages.
    convenience init(snapshot: Snapshot, supportedLocales: [Localization.LocaleName]) {
        let numbersLocale = (try? LocaleIdentifier(snapshot.locale)) ?? (try? LocaleIdentifier(snapshot.developmentLocale))
        let rules = PluralRuleChoice(requested: numbersLocale, development: try? LocaleIdentifier(snapshot.developmentLocale))
        self.init(
            locale: snapshot.locale, developmentLocale: snapshot.developmentLocale, supportedLocales: supportedLocales,
            answers: .snapshot(snapshot, numbers: numbersLocale.map(ICUNumberRenderer.init) ?? POSIXNumberRenderer(), rules: rules))
    }

    /// A key's value as written (a plural entry's format key), the default
    /// or the key when no table has it: `Lookup` without arguments.
    func value(_ key: String, table: String, defaultValue: String?) -> String {
        if let defaultTable, table == TableName.defaultTable {
            return defaultTable.value(key) ?? defaultValue ?? key
        }
        switch answers {
        case .tables(let tables, _, _):
            return tables[table]?.value(key) ?? defaultValue ?? key
        case .engine(let bundle, let locale):
            return bundle.lookup(key, table: table, locale: locale, defaultValue: defaultValue).value
        case .snapshot(let snapshot, _, _):
            return snapshot.value(key, table: table) ?? defaultValue ?? key
        case .none:
            return defaultValue ?? key
        }
    }

    /// A key's value formatted with arguments and placeholders, exactly as
    /// lprojd's `Lookup` formats it: the same renderer, the same ICU number
    /// formats of the same locale, the plural rules of the value's language.
    func lookup(
        _ key: String, table: String, defaultValue: String?, arguments: [FormatArgument]?, placeholders: [String: String]
    ) throws(FormatError) -> LocalizedValue {
        switch answers {
        case .tables(let tables, let numbers, let rules):
            let mirrored = tables[table]
            let raw: String, plural: PluralFormat?, pluralLocale: LocaleIdentifier?
            if let value = mirrored?.plainValue(key) {
                (raw, plural, pluralLocale) = (value, nil, nil)
            } else if let entry = mirrored?.plurals[key] {
                (raw, plural, pluralLocale) = (entry.format.formatKey, entry.format, entry.locale)
            } else {
                (raw, plural, pluralLocale) = (defaultValue ?? key, nil, nil)
            }
            let value = try Self.formatted(
                raw, arguments: arguments, placeholders: placeholders, plural: { plural }, numbers: numbers,
                rules: { rules.rules(for: pluralLocale) })
            return LocalizedValue(value: value, found: mirrored?.contains(key) ?? false, source: mirrored?.source(of: key))
        case .snapshot(let snapshot, let numbers, let rules):
            let entry = snapshot.lookup(key, table: table)
            // A plural entry that does not check out (lprojd never writes
            // one) answers with its format key, as the mirror does.
            let value = try Self.formatted(
                entry?.value ?? defaultValue ?? key, arguments: arguments, placeholders: placeholders,
                plural: { try? entry?.plural?.pluralFormat() }, numbers: numbers,
                rules: { rules.rules(for: entry?.plural.flatMap { try? LocaleIdentifier($0.locale) }) })
            return LocalizedValue(value: value, found: entry != nil, source: entry?.source)
        case .engine(let bundle, let locale):
            do {
                let result = try bundle.localizedString(
                    key, table: table, locale: locale, defaultValue: defaultValue, arguments: arguments, placeholders: placeholders)
                return LocalizedValue(value: result.value, found: result.found, source: result.sourceDescription)
            } catch {
                guard case .invalidArguments(let formatError) = error else {
                    return LocalizedValue(value: defaultValue ?? key, found: false, source: nil)
                }
                throw formatError
            }
        case .none:
            let value = try Self.formatted(
                defaultValue ?? key, arguments: arguments, placeholders: placeholders, plural: { nil }, numbers: POSIXNumberRenderer(),
                rules: { RootPluralRules() })
            return LocalizedValue(value: value, found: false, source: nil)
        }
    }
}

extension Mirror {
    /// A value as `Lookup` formats it: with arguments, rendered (its plural
    /// entry's forms chosen by `rules`); without, its placeholders filled.
    /// The plural entry and the rules are only worked out for arguments.
    fileprivate static func formatted(
        _ raw: String, arguments: [FormatArgument]?, placeholders: [String: String], plural: () -> PluralFormat?,
        numbers: any NumberRendering, rules: () -> any PluralRuleSet
    ) throws(FormatError) -> String {
        guard let arguments else { return Placeholders.substitute(in: raw, values: placeholders) ?? raw }
        let plural = plural()
        return try FormatRenderer(numbers: numbers, plurals: rules()).render(
            plural?.format ?? FormatString(raw), arguments: arguments, variables: plural?.variables ?? [:], placeholders: placeholders)
    }
}

/// The plural rules lprojd applies to a value: those of the language it is
/// written in, else the requested locale's, else the development locale's,
/// else CLDR's root rules (every number is `other`).
struct PluralRuleChoice: Sendable {
    let requested: LocaleIdentifier?
    let development: LocaleIdentifier?

    func rules(for valueLocale: LocaleIdentifier?) -> any PluralRuleSet {
        for locale in [valueLocale, requested, development] {
            if let locale, let rules = PluralRules.forLocale(locale) { return rules }
        }
        return RootPluralRules()
    }
}

/// One table as lprojd resolved it for the mirror's locale: every key's
/// value, with the per-key fallback already applied.
///
/// Plain values and plural entries are kept apart, so that the common
/// lookup is one hash of the key. Plain values are ``MirroredStrings``:
/// near the size of the table's file, where a `[String: String]` of the
/// same entries took four times that, and laid out so a hit reads three
/// places in memory. Where each key came from is kept as the table's most
/// common source plus the keys that differ: most keys of a table come from
/// one folder, and a second dictionary of every key would cost a quarter of
/// the mirror's memory.
final class MirroredTable: Sendable {
    struct Plural: Sendable {
        let format: PluralFormat
        /// The locale whose plural rules choose its forms.
        let locale: LocaleIdentifier?
    }

    let generation: Int
    let strings: MirroredStrings
    let plurals: [String: Plural]
    private let commonSource: String?
    private let otherSources: [String: String]

    init(generation: Int, strings: [String: String], plurals: [String: Plural], sources: [String: String]) {
        self.generation = generation
        self.strings = MirroredStrings(strings)
        self.plurals = plurals
        var counts: [String: Int] = [:]
        for source in sources.values { counts[source, default: 0] += 1 }
        let common = counts.max { $0.value < $1.value }?.key
        commonSource = common
        otherSources = sources.filter { $0.value != common }
    }

    /// A `GetTable` reply as a table. A plural entry lprojd sent that does
    /// not parse (it never sends one) is kept as its format key, so that the
    /// key still answers with what `Lookup` would write without arguments.
    convenience init(_ reply: Localization.GetTable.Reply) {
        var strings = reply.strings
        var plurals: [String: Plural] = [:]
        for (key, plural) in reply.plurals {
            if let format = try? PluralFormat(plural) {
                plurals[key] = Plural(format: format, locale: try? LocaleIdentifier(plural.locale))
            } else {
                strings[key] = plural.format
            }
        }
        self.init(generation: reply.generation, strings: strings, plurals: plurals, sources: reply.sources)
    }

    /// A key's value as written: a plural entry's format key.
    @inline(__always)
    func value(_ key: String) -> String? {
        plainValue(key) ?? plurals[key]?.format.formatKey
    }

    /// A key's plain value (not a plural entry's).
    @inline(__always)
    func plainValue(_ key: String) -> String? {
        strings.value(forKey: key)
    }

    func contains(_ key: String) -> Bool {
        strings.contains(key) || plurals[key] != nil
    }

    /// Where a key's value came from, as `Lookup` says.
    func source(of key: String) -> String? {
        guard contains(key) else { return nil }
        return otherSources[key] ?? commonSource
    }
}

extension PluralFormat {
    /// The interface's plural entry as the engine's.
    init(_ entry: Localization.PluralEntry) throws(PluralFormatError) {
        var variables: [String: PluralVariable] = [:]
        for (name, variable) in entry.variables {
            var forms: [PluralCategory: String] = [.other: variable.other]
            forms[.zero] = variable.zero
            forms[.one] = variable.one
            forms[.two] = variable.two
            forms[.few] = variable.few
            forms[.many] = variable.many
            variables[name] = PluralVariable(valueTypeText: variable.valueType, forms: forms)
        }
        try self.init(formatKey: entry.format, variables: variables)
    }
}
