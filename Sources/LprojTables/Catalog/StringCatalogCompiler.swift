public import LprojFormatStrings

/// One language's table compiled from a catalog: what Xcode would write to
/// `<language>.lproj/<Table>.strings` and `.stringsdict`.
public struct CompiledCatalogTable: Sendable {
    /// The language, as the catalog spells it (`en`, `zh-Hans`).
    public let language: String
    /// The plain entries.
    public let strings: StringTable
    /// The plural entries.
    public let plurals: [String: PluralFormat]
}

/// What compiling a catalog produced.
public struct StringCatalogCompilation: Sendable {
    /// A table per language of the catalog, sorted by language.
    public let tables: [CompiledCatalogTable]
    /// Entries that could not be compiled (errors; they are left out of
    /// that language) and parts that are not used (warnings).
    public let diagnostics: [Diagnostic]
}

/// Turns a String Catalog into the tables Xcode compiles from it, so that a
/// lookup means the same as in an app built with Xcode.
///
/// The rules (README, "String Catalogs", says where each comes from):
/// - Every language of the catalog gets a table. A key without a value in
///   the source language is its own value there; in other languages it is
///   left out, and lookups fall back per key as for any table.
/// - A unit whose state is `new` is not compiled outside the source
///   language (it is untranslated; often a copy of the source); `translated`,
///   `needs_review`, `stale` and `machine_translated` are. A key marked
///   `shouldTranslate: false` is compiled in the source language only.
///   ``includesAllStates`` compiles every unit, like `xcstringstool compile
///   --force-build-all-strings`.
/// - Plural variations become one `.stringsdict` entry whose format is
///   `%#@value@` and whose variable `value` has the forms as written,
///   neither added nor pruned (Xcode's own output, checked against a
///   project that commits both).
/// - Substitutions become variables of one entry whose format is the
///   unit's text; `%arg` in their forms becomes `%<argNum>$<formatSpecifier>`,
///   and a reference whose `argNum` is not where it stands is written with
///   its position.
/// - Device variations: a desktop takes `mac`, then `other`
///   (``DesktopDevice/preference``); a value with neither is left out.
public struct StringCatalogCompiler: Sendable {
    /// Compile units in every state, `new` included, and every language of
    /// keys marked "Don't Translate".
    public var includesAllStates: Bool
    /// The device variants to use, in order.
    public var devicePreference: [String]

    /// Creates a compiler.
    public init(includesAllStates: Bool = false, devicePreference: [String] = DesktopDevice.preference) {
        self.includesAllStates = includesAllStates
        self.devicePreference = devicePreference
    }

    /// The variable Xcode names a whole-string plural.
    public static let pluralVariableName = "value"

    /// Compiles every language of a catalog.
    public func compile(_ catalog: StringCatalog) -> StringCatalogCompilation {
        // One pass over the entries, each localization going to its language
        // (diagnostics come in the order of the file).
        let languages = catalog.languages
        let indexes = Dictionary(uniqueKeysWithValues: languages.enumerated().map { ($1, $0) })
        let source = indexes[catalog.sourceLanguage]!
        var builders = languages.map { _ in StringTableBuilder(estimatedBytes: 0) }
        var plurals = languages.map { _ in [String: PluralFormat]() }
        var diagnostics: [Diagnostic] = []
        for entry in catalog.entries {
            var sawSource = false
            for (language, localization) in entry.localizations {
                let index = indexes[language]!
                sawSource = sawSource || index == source
                switch compile(entry, localization, language: language, isSource: index == source, diagnostics: &diagnostics) {
                case .string(let value)?: builders[index].append(key: entry.key, value: value)
                case .plural(let format)?: plurals[index][entry.key] = format
                case nil: break
                }
            }
            if !sawSource { builders[source].append(key: entry.key, value: entry.key) }
        }
        let tables = languages.indices.map { index in
            CompiledCatalogTable(language: languages[index], strings: builders[index].finish().table, plurals: plurals[index])
        }
        return StringCatalogCompilation(tables: tables, diagnostics: diagnostics)
    }

    /// Compiles one language.
    public func compile(_ catalog: StringCatalog, language: String, diagnostics: inout [Diagnostic]) -> CompiledCatalogTable {
        var builder = StringTableBuilder(estimatedBytes: 0)
        var plurals: [String: PluralFormat] = [:]
        let isSource = language == catalog.sourceLanguage
        for entry in catalog.entries {
            switch compile(entry, language: language, isSource: isSource, diagnostics: &diagnostics) {
            case .string(let value)?: builder.append(key: entry.key, value: value)
            case .plural(let format)?: plurals[entry.key] = format
            case nil: break
            }
        }
        return CompiledCatalogTable(language: language, strings: builder.finish().table, plurals: plurals)
    }

    /// What one key compiles to in one language.
    public enum CompiledEntry: Sendable, Hashable {
        case string(String)
        case plural(PluralFormat)

        /// The entry as a format and its variables.
        public var format: (format: FormatString, variables: [String: PluralVariable]) {
            switch self {
            case .string(let text): (FormatString(text), [:])
            case .plural(let entry): (entry.format, entry.variables)
            }
        }
    }

    /// What one key compiles to in one language, or `nil` when it is left
    /// out there (errors are added to `diagnostics`).
    public func compile(_ entry: StringCatalog.Entry, language: String, isSource: Bool, diagnostics: inout [Diagnostic]) -> CompiledEntry? {
        guard let localization = entry.localizations[language] else { return isSource ? .string(entry.key) : nil }
        return compile(entry, localization, language: language, isSource: isSource, diagnostics: &diagnostics)
    }

    func compile(
        _ entry: StringCatalog.Entry, _ localization: StringCatalog.Localization, language: String, isSource: Bool,
        diagnostics: inout [Diagnostic]
    ) -> CompiledEntry? {
        guard localization.stringUnit != nil || localization.variations != nil else { return isSource ? .string(entry.key) : nil }
        if !isSource && !entry.shouldTranslate && !includesAllStates { return nil }
        var unit = localization.stringUnit
        var variations = localization.variations
        var device: String?
        if let devices = variations?.device {
            guard let chosen = devicePreference.first(where: { devices[$0] != nil }), let variant = devices[chosen] else {
                return nil
            }
            unit = variant.stringUnit
            variations = variant.variations
            device = chosen
        }
        func problem(_ message: String) -> Diagnostic {
            let path = "strings[\(CatalogPath.quoted(entry.key))].localizations\(CatalogPath.member(language))"
            let where_ = device.map { "\(path).variations.device\(CatalogPath.member($0))" } ?? path
            return Diagnostic(
                severity: .error, location: localization.location, code: "catalog-entry",
                message: "\(where_): \(message); \(CatalogPath.quoted(entry.key)) is left out in \(language)", keyPath: where_)
        }
        if let plural = variations?.plural {
            var forms: [PluralCategory: String] = [:]
            for (category, variant) in plural {
                if variant.variations != nil {
                    diagnostics.append(problem("the plural case '\(category)' is varied further, which Xcode does not allow"))
                    return nil
                }
                if let unit = variant.stringUnit, includes(unit, isSource: isSource) { forms[category] = unit.value }
            }
            guard !forms.isEmpty else { return nil }
            let untyped = PluralVariable(valueTypeText: nil, forms: forms)
            let (position, valueType) = Self.pluralArgument(forms: untyped.parsedForms, key: entry.key)
            let name = Self.pluralVariableName
            let formatKey = position == 1 ? "%#@\(name)@" : "%\(position)$#@\(name)@"
            var variables = [name: PluralVariable(valueTypeText: valueType, parsedForms: untyped.parsedForms)]
            do {
                // A form may itself refer to substitutions of the localization.
                if !localization.substitutions.isEmpty {
                    try addSubstitutions(
                        referencedIn: Array(untyped.parsedForms.values), localization.substitutions, isSource: isSource, into: &variables)
                }
                return .plural(try PluralFormat(formatKey: formatKey, variables: variables))
            } catch {
                diagnostics.append(problem(error.message))
                return nil
            }
        }
        guard let unit, includes(unit, isSource: isSource) else { return nil }
        // Only a text with "#@" can refer to a substitution: most are plain.
        guard Self.mayReferToVariables(unit.value) else { return .string(unit.value) }
        let format = FormatString(unit.value)
        guard !format.variableReferences.isEmpty else { return .string(unit.value) }
        do {
            var variables: [String: PluralVariable] = [:]
            let formatKey = try addSubstitutions(referencedIn: format, localization.substitutions, isSource: isSource, into: &variables)
            return .plural(try PluralFormat(formatKey: formatKey, variables: variables))
        } catch {
            diagnostics.append(problem(error.message))
            return nil
        }
    }

    private func includes(_ unit: StringCatalog.StringUnit, isSource: Bool) -> Bool {
        includesAllStates || isSource || unit.state != .new
    }

    /// Adds the substitutions a format refers to as variables, and returns
    /// the format with each reference written where its `argNum` says.
    @discardableResult
    private func addSubstitutions(
        referencedIn format: FormatString, _ substitutions: [String: StringCatalog.Substitution], isSource: Bool,
        into variables: inout [String: PluralVariable]
    ) throws(PluralFormatError) -> String {
        var text = ""
        var sequential = 0
        for segment in format.segments {
            switch segment {
            case .literal(let literal):
                text += literal
            case .specifier(let specifier):
                if specifier.position == nil { sequential += 1 }
                text += specifier.text
            case .variable(let reference):
                if reference.position == nil { sequential += 1 }
                guard let substitution = substitutions[reference.name] else {
                    throw PluralFormatError(
                        path: "stringUnit", message: "refers to the substitution '\(reference.name)', which is not defined")
                }
                let argument = substitution.argNum ?? reference.position ?? sequential
                text += reference.position == nil && argument != sequential ? "%\(argument)$#@\(reference.name)@" : reference.text
                guard variables[reference.name] == nil else { continue }
                var forms: [PluralCategory: String] = [:]
                for (category, unit) in substitution.plural where includes(unit, isSource: isSource) {
                    forms[category] = Self.replacingArg(in: unit.value, with: "%\(argument)$\(substitution.formatSpecifier)")
                }
                let variable = PluralVariable(valueTypeText: substitution.formatSpecifier, forms: forms)
                variables[reference.name] = variable
                // Forms may refer to further substitutions.
                try addSubstitutions(referencedIn: Array(variable.parsedForms.values), substitutions, isSource: isSource, into: &variables)
            case .unknown(let unknown, _):
                text += unknown
            case .malformedVariable(let malformed):
                text += malformed
            case .incomplete(let incomplete):
                text += incomplete
            }
        }
        return text
    }

    private func addSubstitutions(
        referencedIn formats: [FormatString], _ substitutions: [String: StringCatalog.Substitution], isSource: Bool,
        into variables: inout [String: PluralVariable]
    ) throws(PluralFormatError) {
        for format in formats where !format.variableReferences.isEmpty {
            for reference in format.variableReferences where variables[reference.name] == nil {
                // Bound where the reference stands; a form's own references
                // keep their text, so only the variable is added.
                try addSubstitutions(
                    referencedIn: FormatString(reference.text), substitutions, isSource: isSource, into: &variables)
            }
        }
    }

    /// Whether a text contains `#@`, without which no `%#@name@` can be in it.
    static func mayReferToVariables(_ text: String) -> Bool {
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard bytes.count > 1 else { return false }
            for index in 1..<bytes.count where bytes[index] == UInt8(ascii: "@") && bytes[index - 1] == UInt8(ascii: "#") {
                return true
            }
            return false
        }
        if let found = text.utf8.withContiguousStorageIfAvailable(scan) { return found }
        return Array(text.utf8).withUnsafeBufferPointer(scan)
    }

    /// Replaces the catalog's `%arg` placeholder (not `%%arg`, which is a
    /// percent sign followed by "arg").
    static func replacingArg(in text: String, with replacement: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "%")) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + replacement.utf8.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") && index + 1 < bytes.count {
                if bytes[index + 1] == UInt8(ascii: "%") {
                    result += [UInt8(ascii: "%"), UInt8(ascii: "%")]
                    index += 2
                    continue
                }
                if index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "a"), bytes[index + 2] == UInt8(ascii: "r"),
                    bytes[index + 3] == UInt8(ascii: "g")
                {
                    result += replacement.utf8
                    index += 4
                    continue
                }
            }
            result.append(bytes[index])
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Which argument a whole-string plural counts, and its conversion: the
    /// first number conversion of the `other` form (then of the other forms,
    /// then of the key, which Xcode derives from the code's interpolation);
    /// the first argument as `lld` (Swift's `Int`) when none has one.
    static func pluralArgument(forms: [PluralCategory: FormatString], key: String) -> (position: Int, valueType: String) {
        for category in [PluralCategory.other, .one, .zero, .two, .few, .many] {
            guard let form = forms[category] else { continue }
            if let found = firstNumber(in: form) { return found }
        }
        return firstNumber(in: FormatString(key)) ?? (1, "lld")
    }

    private static func firstNumber(in format: FormatString) -> (position: Int, valueType: String)? {
        do {
            var sequential = 0
            for segment in format.segments {
                switch segment {
                case .specifier(let specifier):
                    if specifier.position == nil { sequential += 1 }
                    let kind = specifier.conversion.argumentKind
                    if kind == .integer || kind == .floatingPoint {
                        let conversion = specifier.length.rawValue + String(specifier.conversion.rawValue)
                        return (specifier.position ?? sequential, conversion)
                    }
                case .variable(let reference):
                    if reference.position == nil { sequential += 1 }
                default:
                    break
                }
            }
        }
        return nil
    }
}

/// How catalog paths are written in messages.
public enum CatalogPath {
    /// A member of a path: `.fr` when it is a plain name, else `["..."]`.
    public static func member(_ name: String) -> String {
        let plain =
            !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
        return plain ? ".\(name)" : "[\(quoted(name))]"
    }

    /// A key in double quotes, with quotes, backslashes and control characters escaped.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
