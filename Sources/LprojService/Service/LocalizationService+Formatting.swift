internal import LprojEngine
internal import LprojFormatting
internal import LprojLocales
internal import LprojStore
internal import VarlinkProtocol

/// Formatting in each client's language: `Format`, `ParseDate`, the
/// preferences, and `SupportedLocales`. Answered on the event loop from the
/// snapshot and the store's in-memory copy, like lookups; only
/// `SetPreferences` waits for the disk.
extension LocalizationInterface {
    /// The locale, preferences and separators a formatting call works with.
    struct FormattingContext {
        /// The locale the caller gets answers for (reported back).
        let locale: LocaleIdentifier
        let formatter: LocaleFormatter
    }

    /// The longest text `uppercase`/`lowercase` takes.
    static let maximumCaseMappingText = 65_536

    func formattingContext(_ parameters: Parameters, caller: VarlinkCaller) throws(VarlinkError) -> FormattingContext {
        let client = try clientID(parameters.optionalString("client"))
        let localeText = try parameters.optionalString("locale")
        guard let bundleName = try parameters.optionalString("bundle") else {
            // Without a bundle there is no selection and no preferences.
            guard client == nil else { throw .invalidParameter("bundle") }
            guard let localeText else { throw .invalidParameter("locale") }
            let locale = try locale(localeText)
            guard KnownLocales.isKnown(locale) else { throw LocalizationErrors.invalidLocale(localeText, .unknown(locale.tag)) }
            return FormattingContext(locale: locale, formatter: LocaleFormatter(locale: locale))
        }
        let bundle = try bundle(bundleName)
        let resolved = try resolvedLocale(localeText, client: client, bundle: bundle, caller: caller)
        let overlay = client.flatMap { added.overlay(uid: caller.uid, client: $0, bundle: bundle.name) }
        let preferences = client.map { Self.formattingPreferences(store.preferences(for: ClientKey(uid: caller.uid, client: $0), bundle: bundle.name)) }
        // SDLocalizationManager's separator keys, as the locale's own
        // language (or Base) sets them; a separator is a few bytes.
        let decimal = try Self.separator("LM_decimal_separator", bundle.lookupInOwnLanguage("LM_decimal_separator", locale: resolved, overlay: overlay)?.value)
        let grouping = try Self.separator("LM_grouping_separator", bundle.lookupInOwnLanguage("LM_grouping_separator", locale: resolved, overlay: overlay)?.value)
        return FormattingContext(
            locale: resolved.locale,
            formatter: LocaleFormatter(
                locale: resolved.standardLocale, preferences: preferences ?? FormattingPreferences(),
                decimalSeparator: decimal, groupingSeparator: grouping))
    }

    /// A separator from a table, checked: a long one would make every
    /// number it writes long.
    static func separator(_ key: String, _ value: String?) throws(VarlinkError) -> String? {
        guard let value else { return nil }
        guard value.utf8.count <= LocaleFormatter.maximumSeparatorLength else {
            throw LocalizationErrors.invalidValue(key, "a separator is at most \(LocaleFormatter.maximumSeparatorLength) bytes")
        }
        return value
    }

    func format(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.format)
        let request = try Self.formatRequest(parameters)
        let context = try formattingContext(parameters, caller: caller)
        let result: FormattedValue
        do {
            result = try context.formatter.format(request)
        } catch {
            throw Self.varlinkError(error)
        }
        var reply: JSONObject = ["value": .string(result.value), "locale": .string(context.locale.tag)]
        if let pattern = result.pattern { reply["pattern"] = .string(pattern) }
        if let unit = result.unit { reply["unit"] = .string(unit) }
        if let timeZone = result.timeZone { reply["timeZone"] = .string(timeZone) }
        if let calendar = result.calendar { reply["calendar"] = .string(calendar) }
        return .reply(reply)
    }

    /// The request a `Format` call describes; a missing input is an
    /// InvalidParameter naming it.
    static func formatRequest(_ parameters: Parameters) throws(VarlinkError) -> FormatRequest {
        let style = try parameters.string("style")
        let digits = try parameters.optionalInt("fractionDigits").map { value throws(VarlinkError) -> Int in
            guard LocaleFormatter.fractionDigitRange.contains(Int(clamping: value)) else {
                throw LocalizationErrors.invalidValue("fractionDigits", "\(value) is outside \(LocaleFormatter.fractionDigitRange)")
            }
            return Int(value)
        }
        func number() throws(VarlinkError) -> Double {
            guard let value = try parameters.optionalDouble("number") else { throw .invalidParameter("number") }
            return value
        }
        func date() throws(VarlinkError) -> Double {
            guard let value = try parameters.optionalDouble("date") else { throw .invalidParameter("date") }
            return value
        }
        func text() throws(VarlinkError) -> String {
            guard let value = try parameters.optionalString("text") else { throw .invalidParameter("text") }
            guard value.utf8.count <= maximumCaseMappingText else { throw LocalizationErrors.limitExceeded("text", maximum: maximumCaseMappingText) }
            return value
        }
        let unit = try parameters.optionalString("unit")
        let timeZone = try parameters.optionalString("timeZone")
        let calendar = try parameters.optionalString("calendar")
        if let numberStyle = NumberFormatStyle(rawValue: style) {
            return .number(try number(), numberStyle, fractionDigits: digits, currencyCode: try parameters.optionalString("currency"))
        }
        switch style {
        case "distance":
            return .distance(meters: try number(), unit: try unit.map(Self.unit), fractionDigits: digits)
        case "speed":
            return .speed(metersPerSecond: try number(), unit: try unit.map(Self.unit), fractionDigits: digits)
        case "uppercase": return .uppercase(try text())
        case "lowercase": return .lowercase(try text())
        default:
            let dateStyle = try dateStyle(style, parameters)
            return .date(seconds: try date(), dateStyle, timeZone: timeZone, calendar: calendar)
        }
    }

    /// A distance or speed unit by name.
    static func unit<Unit: RawRepresentable & CaseIterable>(_ name: String) throws(VarlinkError) -> Unit where Unit.RawValue == String {
        guard let unit = Unit(rawValue: name) else {
            throw LocalizationErrors.invalidValue("unit", "'\(name)' is not one of \(Unit.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return unit
    }

    static func dateStyle(_ style: String, _ parameters: Parameters) throws(VarlinkError) -> DateFormatStyle {
        switch style {
        case "simpleDate": return .simpleDate
        case "time12": return .time12
        case "time24": return .time24
        case "simpleDateTime": return .simpleDateTime
        case "server": return .server
        case "savedDate": return .savedDate
        case "savedTime": return .savedTime
        case "savedDateTime": return .savedDateTime
        case "template":
            guard let template = try parameters.optionalString("template") else { throw .invalidParameter("template") }
            return .template(template)
        case "pattern":
            guard let pattern = try parameters.optionalString("pattern") else { throw .invalidParameter("pattern") }
            return .pattern(pattern)
        default:
            throw .invalidParameter("style")
        }
    }

    func parseDate(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.parseDate)
        let text = try parameters.string("text")
        let style: DateFormatStyle
        switch try parameters.optionalString("style") ?? "server" {
        case "server": style = .server
        case "pattern":
            guard let pattern = try parameters.optionalString("pattern") else { throw .invalidParameter("pattern") }
            style = .pattern(pattern)
        default: throw .invalidParameter("style")
        }
        // The server format needs no locale; a pattern is read in one.
        let formatter: LocaleFormatter
        let bundleName = try parameters.optionalString("bundle"), localeText = try parameters.optionalString("locale")
        if style == .server && bundleName == nil && localeText == nil {
            guard try parameters.optionalString("client") == nil else { throw .invalidParameter("bundle") }
            formatter = LocaleFormatter(locale: LocaleIdentifier(canonicalTag: "en-US"))
        } else {
            formatter = try formattingContext(parameters, caller: caller).formatter
        }
        do {
            let seconds = try formatter.parseDate(
                text, style: style, timeZone: parameters.optionalString("timeZone"), calendar: parameters.optionalString("calendar"))
            return .reply(["date": .number(JSONNumber(seconds))])
        } catch let error as FormattingError {
            throw Self.varlinkError(error)
        } catch let error as VarlinkError {
            throw error
        } catch {
            throw LocalizationErrors.internalError
        }
    }

    // MARK: Preferences

    func getPreferences(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.getPreferences)
        guard let client = try clientID(parameters.string("client")) else { throw .invalidParameter("client") }
        let bundle = try bundle(parameters.string("bundle"))
        let saved = store.preferences(for: ClientKey(uid: caller.uid, client: client), bundle: bundle.name)
        return .reply(["preferences": .object(Self.preferencesObject(Self.formattingPreferences(saved)))])
    }

    func setPreferences(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.setPreferences)
        guard let client = try clientID(parameters.string("client")) else { throw .invalidParameter("client") }
        let bundle = try bundle(parameters.string("bundle"))
        // Check and canonicalize every value before anything is saved: the
        // checked values are in `requested`, the fields to change in `fields`.
        var requested = FormattingPreferences()
        var fields: [FormattingPreferences.Field] = []
        for (name, value) in (try parameters.optionalObject("preferences") ?? JSONObject()).members {
            guard let field = FormattingPreferences.Field(rawValue: name) else { throw .invalidParameter("preferences.\(name)") }
            switch value {
            case .null: continue
            case .string(let text):
                do throws(FormattingError) {
                    try requested.set(field, to: text)
                } catch {
                    throw Self.varlinkError(error, parameter: "preferences.\(name)")
                }
                fields.append(field)
            default: throw .invalidParameter("preferences.\(name)")
            }
        }
        for name in try limited(parameters.optionalStrings("clear") ?? [], "clear", maximum: FormattingPreferences.Field.allCases.count) {
            guard let field = FormattingPreferences.Field(rawValue: name) else { throw LocalizationErrors.invalidValue("clear", "'\(name)' is not a preference") }
            requested.clear(field)
            fields.append(field)
        }
        let key = ClientKey(uid: caller.uid, client: client)
        return committing { [store, requested, fields] in
            let (previous, current) = try await store.updatePreferences(for: key, bundle: bundle.name) { saved in
                var preferences = Self.formattingPreferences(saved)
                for field in fields { preferences.take(field, from: requested) }
                return Self.savedPreferences(preferences)
            }
            let now = Self.formattingPreferences(current)
            let changed = now.changedFields(from: Self.formattingPreferences(previous)).map(\.rawValue)
            if !changed.isEmpty {
                self.hub.publish(.preferencesChanged(owner: key, bundle: bundle.name, preferences: now, changed: changed))
                self.log(.info, "\(client) changed its preferences: \(changed.joined(separator: ", "))", uid: caller.uid,
                         metadata: ["bundle.name": "\(bundle.name)", "client.id": "\(client)"])
            }
            return .reply(["preferences": .object(Self.preferencesObject(now)), "changed": .array(changed.map(JSONValue.string))])
        }
    }

    static func formattingPreferences(_ saved: SavedPreferences) -> FormattingPreferences {
        FormattingPreferences(
            dateFormat: saved.dateFormat, timeFormat: saved.timeFormat,
            distanceUnit: saved.distanceUnit.flatMap(DistanceUnit.init(rawValue:)), speedUnit: saved.speedUnit.flatMap(SpeedUnit.init(rawValue:)),
            currencySymbol: saved.currencySymbol, timeZone: saved.timeZone, calendar: saved.calendar)
    }

    static func savedPreferences(_ preferences: FormattingPreferences) -> SavedPreferences {
        SavedPreferences(
            dateFormat: preferences.dateFormat, timeFormat: preferences.timeFormat, distanceUnit: preferences.distanceUnit?.rawValue,
            speedUnit: preferences.speedUnit?.rawValue, currencySymbol: preferences.currencySymbol, timeZone: preferences.timeZone,
            calendar: preferences.calendar)
    }

    static func preferencesObject(_ preferences: FormattingPreferences) -> JSONObject {
        preferences.interfaceObject
    }

    // MARK: Locale names

    /// Each supported locale's names: two ICU calls per locale, made off
    /// the event loop.
    func supportedLocales(_ raw: JSONObject, caller: VarlinkCaller) throws(VarlinkError) -> VarlinkOutcome {
        let parameters = try Parameters(raw, allowed: ParameterNames.supportedLocales)
        let bundle = try bundle(parameters.string("bundle"))
        let client = try clientID(parameters.optionalString("client"))
        let display = try resolvedLocale(parameters.optionalString("locale"), client: client, bundle: bundle, caller: caller)
        let overlay = client.flatMap { added.overlay(uid: caller.uid, client: $0, bundle: bundle.name) }
        return .deferred {
            let names = LocaleFormatter(locale: display.standardLocale)
            var locales: [JSONValue] = []
            for locale in bundle.supportedLocales {
                var entry: JSONObject = [
                    "locale": .string(locale.tag),
                    "name": .string(names.name(of: locale)),
                    "nativeName": .string(LocaleFormatter.nativeName(of: locale)),
                ]
                // SDLocalizationManager's LM_locale_name_<id>; its ids were
                // written with '_' (it_IT), ours with '-'.
                let underscored = locale.tag.replacingOccurrences(of: "-", with: "_")
                let keys = underscored == locale.tag ? ["LM_locale_name_\(locale.tag)"] : ["LM_locale_name_\(locale.tag)", "LM_locale_name_\(underscored)"]
                if let result = bundle.lookup(anyOf: keys, locale: display, overlay: overlay) {
                    entry["bundleName"] = .string(result.value)
                }
                locales.append(.object(entry))
            }
            return .reply(["displayLocale": .string(display.locale.tag), "locales": .array(locales)])
        }
    }

    // MARK: Errors

    static func varlinkError(_ error: FormattingError, parameter: String? = nil) -> VarlinkError {
        switch error {
        case .invalidValue(let name, let reason): LocalizationErrors.invalidValue(parameter ?? name, reason)
        case .failed(let reason): LocalizationErrors.invalidValue(parameter ?? "locale", reason)
        }
    }
}
