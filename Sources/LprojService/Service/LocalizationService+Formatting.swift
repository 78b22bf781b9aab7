internal import LprojEngine
internal import LprojFormatting
package import LprojInterface
internal import LprojLocales
internal import LprojStore

/// Formatting in each client's language: `Format`, `ParseDate`, the
/// preferences, and `SupportedLocales`. Answered from the snapshot and the
/// store's in-memory copy, like lookups; only `SetPreferences` waits for
/// the disk, and `SupportedLocales` for ICU's names off the event loop.
extension LocalizationService {
    /// The locale, preferences and separators a formatting call works with.
    struct FormattingContext {
        /// The locale the caller gets answers for (reported back).
        let locale: LocaleIdentifier
        let formatter: LocaleFormatter
    }

    /// The longest text `uppercase`/`lowercase` takes.
    static let maximumCaseMappingText = 65_536

    func formattingContext(bundle bundleName: String?, client: String?, locale localeText: String?, caller: Caller) throws(ServiceError)
        -> FormattingContext
    {
        let client = try clientID(client)
        guard let bundleName else {
            // Without a bundle there is no selection and no preferences.
            guard client == nil else { throw .invalidParameter("bundle") }
            guard let localeText else { throw .invalidParameter("locale") }
            let locale = try locale(localeText)
            guard KnownLocales.isKnown(locale) else { throw .invalidLocale(localeText, .unknown(locale.tag)) }
            return FormattingContext(locale: locale, formatter: LocaleFormatter(locale: locale))
        }
        let bundle = try bundle(bundleName)
        let resolved = try resolvedLocale(localeText, client: client, bundle: bundle, caller: caller)
        let overlay = client.flatMap { added.overlay(uid: caller.uid, client: $0, bundle: bundle.name) }
        let preferences = client.map { store.preferences(for: ClientKey(uid: caller.uid, client: $0), bundle: bundle.name) }
        // SDLocalizationManager's separator keys, as the locale's own
        // language (or Base) sets them; a separator is a few bytes.
        let decimal = try Self.separator(
            "LM_decimal_separator", bundle.lookupInOwnLanguage("LM_decimal_separator", locale: resolved, overlay: overlay)?.value)
        let grouping = try Self.separator(
            "LM_grouping_separator", bundle.lookupInOwnLanguage("LM_grouping_separator", locale: resolved, overlay: overlay)?.value)
        return FormattingContext(
            locale: resolved.locale,
            formatter: LocaleFormatter(
                locale: resolved.standardLocale, preferences: FormattingPreferences(saved: preferences ?? [:]),
                decimalSeparator: decimal, groupingSeparator: grouping))
    }

    /// A separator from a table, checked: a long one would make every
    /// number it writes long.
    static func separator(_ key: String, _ value: String?) throws(ServiceError) -> String? {
        guard let value else { return nil }
        guard value.utf8.count <= LocaleFormatter.maximumSeparatorLength else {
            throw .invalidValue(key, "a separator is at most \(LocaleFormatter.maximumSeparatorLength) bytes")
        }
        return value
    }

    /// A `Format` call: answered at once, or, when ICU's work for it is not
    /// known to be small (a date thousands of years away, whose calendar
    /// arithmetic grows with the distance), by the workers.
    package func answerFormat(_ call: Localization.Format.Parameters, caller: Caller) throws(ServiceError) -> Answer<
        Localization.Format.Reply
    > {
        guard try Self.formatRequest(call).isQuick else {
            return .later { [self] () throws(ServiceError) in try format(call, caller: caller) }
        }
        return .now(try format(call, caller: caller))
    }

    package func format(_ call: Localization.Format.Parameters, caller: Caller) throws(ServiceError) -> Localization.Format.Reply {
        let request = try Self.formatRequest(call)
        let context = try formattingContext(bundle: call.bundle, client: call.client, locale: call.locale, caller: caller)
        let result: FormattedValue
        do {
            result = try context.formatter.format(request)
        } catch {
            throw Self.serviceError(error)
        }
        return .init(
            value: result.value, locale: context.locale.tag, pattern: result.pattern, unit: result.unit, timeZone: result.timeZone,
            calendar: result.calendar)
    }

    /// The request a `Format` call describes; a missing input is an
    /// InvalidParameter naming it.
    static func formatRequest(_ call: Localization.Format.Parameters) throws(ServiceError) -> FormatRequest {
        let digits = try call.fractionDigits.map { value throws(ServiceError) -> Int in
            guard LocaleFormatter.fractionDigitRange.contains(value) else {
                throw .invalidValue("fractionDigits", "\(value) is outside \(LocaleFormatter.fractionDigitRange)")
            }
            return value
        }
        func number() throws(ServiceError) -> Double {
            guard let value = call.number else { throw .invalidParameter("number") }
            return value.double
        }
        func date() throws(ServiceError) -> Double {
            guard let value = call.date else { throw .invalidParameter("date") }
            return value.double
        }
        func text() throws(ServiceError) -> String {
            guard let value = call.text else { throw .invalidParameter("text") }
            guard value.utf8.count <= maximumCaseMappingText else { throw .limitExceeded(.text, maximum: maximumCaseMappingText) }
            return value
        }
        func dated(_ style: DateFormatStyle) throws(ServiceError) -> FormatRequest {
            .date(seconds: try date(), style, timeZone: call.timeZone, calendar: call.calendar)
        }
        func numbered(_ style: NumberFormatStyle) throws(ServiceError) -> FormatRequest {
            .number(try number(), style, fractionDigits: digits, currencyCode: call.currency)
        }
        switch call.style {
        case .decimal: return try numbered(.decimal)
        case .percent: return try numbered(.percent)
        case .currency: return try numbered(.currency)
        case .scientific: return try numbered(.scientific)
        case .spellOut: return try numbered(.spellOut)
        case .distance: return .distance(meters: try number(), unit: try call.unit.map(Self.unit), fractionDigits: digits)
        case .speed: return .speed(metersPerSecond: try number(), unit: try call.unit.map(Self.unit), fractionDigits: digits)
        case .uppercase: return .uppercase(try text())
        case .lowercase: return .lowercase(try text())
        case .simpleDate: return try dated(.simpleDate)
        case .time12: return try dated(.time12)
        case .time24: return try dated(.time24)
        case .simpleDateTime: return try dated(.simpleDateTime)
        case .server: return try dated(.server)
        case .savedDate: return try dated(.savedDate)
        case .savedTime: return try dated(.savedTime)
        case .savedDateTime: return try dated(.savedDateTime)
        case .template:
            guard let template = call.template else { throw .invalidParameter("template") }
            return try dated(.template(template))
        case .pattern:
            guard let pattern = call.pattern else { throw .invalidParameter("pattern") }
            return try dated(.pattern(pattern))
        }
    }

    /// A distance or speed unit by name.
    static func unit<Unit: RawRepresentable & CaseIterable>(_ name: String) throws(ServiceError) -> Unit where Unit.RawValue == String {
        guard let unit = Unit(rawValue: name) else {
            throw .invalidValue("unit", "'\(name)' is not one of \(Unit.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return unit
    }

    package func parseDate(_ call: Localization.ParseDate.Parameters, caller: Caller) throws(ServiceError) -> Localization.ParseDate.Reply {
        let style: DateFormatStyle
        switch call.style ?? .server {
        case .server: style = .server
        case .pattern:
            guard let pattern = call.pattern else { throw .invalidParameter("pattern") }
            style = .pattern(pattern)
        }
        // The server format needs no locale; a pattern is read in one.
        let formatter: LocaleFormatter
        if style == .server && call.bundle == nil && call.locale == nil {
            guard call.client == nil else { throw .invalidParameter("bundle") }
            formatter = LocaleFormatter(locale: LocaleIdentifier(canonicalTag: "en-US"))
        } else {
            formatter = try formattingContext(bundle: call.bundle, client: call.client, locale: call.locale, caller: caller).formatter
        }
        do throws(FormattingError) {
            let seconds = try formatter.parseDate(call.text, style: style, timeZone: call.timeZone, calendar: call.calendar)
            return .init(date: .init(seconds))
        } catch {
            throw Self.serviceError(error)
        }
    }

    // MARK: Preferences

    package func getPreferences(_ call: Localization.GetPreferences.Parameters, caller: Caller) throws(ServiceError)
        -> Localization.GetPreferences.Reply
    {
        let client = try clientID(call.client)
        let bundle = try bundle(call.bundle)
        let saved = FormattingPreferences(saved: store.preferences(for: ClientKey(uid: caller.uid, client: client), bundle: bundle.name))
        return .init(preferences: try Self.interfacePreferences(saved))
    }

    package func setPreferences(_ call: Localization.SetPreferences.Parameters, caller: Caller) throws(ServiceError) -> Answer<
        Localization.SetPreferences.Reply
    > {
        let client = try clientID(call.client)
        let bundle = try bundle(call.bundle)
        // Check and canonicalize every value before anything is saved: the
        // checked values are in `requested`, the fields to change in `fields`.
        var requested = FormattingPreferences()
        var fields: [FormattingPreferences.Field] = []
        for (name, text) in call.preferences?.setFields ?? [] {
            guard let field = FormattingPreferences.Field(rawValue: name) else { throw .invalidParameter("preferences.\(name)") }
            do throws(FormattingError) {
                try requested.set(field, to: text)
            } catch {
                throw Self.serviceError(error, parameter: "preferences.\(name)")
            }
            fields.append(field)
        }
        for name in try limited(call.clear ?? [], .clear, maximum: FormattingPreferences.Field.allCases.count) {
            guard let field = FormattingPreferences.Field(rawValue: name) else {
                throw .invalidValue("clear", "'\(name)' is not a preference")
            }
            requested.clear(field)
            fields.append(field)
        }
        try allowChange(by: caller)
        let key = ClientKey(uid: caller.uid, client: client)
        return committing { [store, requested, fields] in
            let (previous, current) = try await store.updatePreferences(for: key, bundle: bundle.name) { saved in
                var preferences = FormattingPreferences(saved: saved)
                for field in fields { preferences.take(field, from: requested) }
                return preferences.saved
            }
            let now = FormattingPreferences(saved: current)
            let changed = now.changedFields(from: FormattingPreferences(saved: previous)).map(\.rawValue)
            if !changed.isEmpty {
                self.events.publish(.preferencesChanged(owner: key, bundle: bundle.name, preferences: now, changed: changed))
                self.log(
                    .info, "\(client) changed its preferences: \(changed.joined(separator: ", "))", uid: caller.uid,
                    metadata: ["bundle.name": "\(bundle.name)", "client.id": "\(client)"])
            }
            return .init(preferences: try Self.interfacePreferences(now), changed: changed)
        }
    }

    /// The interface's `Preferences` for the domain's: field by field, by
    /// name (a test holds the two lists of fields equal).
    static func interfacePreferences(_ preferences: FormattingPreferences) throws(ServiceError) -> Localization.Preferences {
        guard let converted = preferences.interfacePreferences else { throw .internalError }
        return converted
    }

    // MARK: Locale names

    /// Each supported locale's names: two ICU calls per locale, made later.
    package func supportedLocales(_ call: Localization.SupportedLocales.Parameters, caller: Caller) throws(ServiceError) -> Answer<
        Localization.SupportedLocales.Reply
    > {
        let bundle = try bundle(call.bundle)
        let client = try clientID(call.client)
        let display = try resolvedLocale(call.locale, client: client, bundle: bundle, caller: caller)
        let overlay = client.flatMap { added.overlay(uid: caller.uid, client: $0, bundle: bundle.name) }
        return .later {
            let names = LocaleFormatter(locale: display.standardLocale)
            let locales = bundle.supportedLocales.map { locale in
                Localization.LocaleName(
                    locale: locale.tag, name: names.name(of: locale), nativeName: LocaleFormatter.nativeName(of: locale),
                    bundleName: bundle.ownName(of: locale, display: display, overlay: overlay))
            }
            return .init(displayLocale: display.locale.tag, locales: locales)
        }
    }

    // MARK: Errors

    static func serviceError(_ error: FormattingError, parameter: String? = nil) -> ServiceError {
        switch error {
        case .invalidValue(let name, let reason): .invalidValue(parameter ?? name, reason)
        case .failed(let reason): .invalidValue(parameter ?? "locale", reason)
        }
    }
}
