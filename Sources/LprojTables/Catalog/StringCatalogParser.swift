internal import JSONText
internal import LprojFormatStrings

/// A parsed String Catalog and what the parser noticed.
public struct StringCatalogFile: Sendable {
    /// The catalog, without the parts that were malformed.
    public let catalog: StringCatalog
    /// Malformed parts (errors, each naming its JSON path and left out) and
    /// ignored ones (warnings).
    public let diagnostics: [Diagnostic]
}

/// Reads `*.xcstrings` files.
///
/// A file that is not JSON, or whose top level is not a catalog, cannot be
/// read at all (``TableParseError``). Inside it, a malformed part is an
/// error naming its JSON path (`strings["Done"].localizations.fr.stringUnit.value`)
/// and line:column, and only the language it belongs to is left out for
/// that key; the rest of the catalog loads. Fields Xcode may add in the
/// future are ignored.
public struct StringCatalogParser: Sendable {
    /// Creates a parser.
    public init() {}

    /// The versions this parser was written against; others load with a warning.
    public static let knownVersions: Set<String> = ["1.0", "1.1"]

    /// Parses the bytes of a catalog.
    public func parse(_ bytes: [UInt8]) throws(TableParseError) -> StringCatalogFile {
        let result: Result<StringCatalogFile, TableParseError> = bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONTokenizer(catalog: buffer)
            var state = CatalogReading()
            do throws(JSONSyntaxError) {
                guard let catalog = try state.readCatalog(&reader) else {
                    return .failure(state.fatal ?? TableParseError(location: nil, message: "not a String Catalog"))
                }
                try reader.finish()
                return .success(StringCatalogFile(catalog: catalog, diagnostics: state.diagnostics))
            } catch {
                return .failure(TableParseError(location: reader.location(of: error.offset), message: "not valid JSON: \(error.message)"))
            }
        }
        return try result.get()
    }
}

/// The state of one parse: the diagnostics so far.
struct CatalogReading {
    var diagnostics: [Diagnostic] = []
    var fatal: TableParseError?

    /// Problems found inside one localization; it is left out if there are any.
    private var pending: [Diagnostic] = []

    /// Reads one localization for ``StringCatalogLoader``, which goes the
    /// slow way if there is anything to say about it.
    mutating func readCleanLocalization(_ reader: inout JSONTokenizer, path: JSONPath) throws(JSONSyntaxError)
        -> StringCatalog.Localization?
    {
        pending = []
        let localization = try readLocalization(&reader, path: path)
        return pending.isEmpty ? localization : nil
    }

    mutating func readCatalog(_ reader: inout JSONTokenizer) throws(JSONSyntaxError) -> StringCatalog? {
        let start = reader.location()
        guard try reader.peekKind() == .object else {
            fatal = TableParseError(
                location: start, message: "the top level is \(Self.article(try reader.peekKind())); a String Catalog is an object")
            return nil
        }
        var sourceLanguage: String?
        var version: String?
        var entries: [StringCatalog.Entry] = []
        var sawStrings = false
        try reader.beginObject()
        while let field = try reader.nextKey() {
            switch field {
            case "sourceLanguage":
                sourceLanguage = try topLevelString(&reader, field)
            case "version":
                version = try topLevelString(&reader, field)
            case "strings":
                sawStrings = true
                let location = reader.location()
                guard try reader.peekKind() == .object else {
                    fatal = TableParseError(
                        location: location, message: "strings: expected an object of keys, found \(Self.article(try reader.peekKind()))")
                    try reader.skipValue()
                    continue
                }
                entries = try readEntries(&reader)
            default:
                try reader.skipValue()
            }
        }
        if fatal != nil { return nil }
        guard let sourceLanguage, !sourceLanguage.isEmpty else {
            fatal = TableParseError(
                location: start, message: "sourceLanguage is missing; a catalog must say which language its keys are in")
            return nil
        }
        guard sawStrings else {
            fatal = TableParseError(location: start, message: "strings is missing")
            return nil
        }
        if let version, !StringCatalogParser.knownVersions.contains(version) {
            diagnostics.append(
                Diagnostic(
                    severity: .warning, location: start, code: "catalog-version",
                    message: "version \(version) is newer than lprojd knows (1.0, 1.1); fields it does not know are ignored",
                    keyPath: "version"))
        }
        return StringCatalog(sourceLanguage: sourceLanguage, version: version, entries: entries)
    }

    private mutating func topLevelString(_ reader: inout JSONTokenizer, _ field: String) throws(JSONSyntaxError) -> String? {
        let location = reader.location()
        guard try reader.peekKind() == .string else {
            fatal = TableParseError(
                location: location, message: "\(field): expected a string, found \(Self.article(try reader.peekKind()))")
            try reader.skipValue()
            return nil
        }
        return try reader.readString()
    }

    private mutating func readEntries(_ reader: inout JSONTokenizer) throws(JSONSyntaxError) -> [StringCatalog.Entry] {
        var entries: [StringCatalog.Entry] = []
        var indexes: [String: Int] = [:]
        try reader.beginObject()
        while true {
            let location = reader.location()
            guard let key = try reader.nextKey() else { break }
            let path = JSONPath.entry(key)
            guard var entry = try readEntry(&reader, key: key, path: path) else { continue }
            entry.location = location
            if let previous = indexes[key] {
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, location: location, code: "duplicate-key",
                        message: "\(path) is defined again; the last definition is used", keyPath: path.description))
                entries[previous] = entry
            } else {
                indexes[key] = entries.count
                entries.append(entry)
            }
        }
        return entries
    }

    private mutating func readEntry(_ reader: inout JSONTokenizer, key: String, path: JSONPath) throws(JSONSyntaxError) -> StringCatalog
        .Entry?
    {
        guard try expectObject(&reader, path: path, else: .reported(consequence: "the key is left out", severity: .error)) else {
            return nil
        }
        var entry = StringCatalog.Entry(key: key)
        while let field = try reader.nextKey() {
            let fieldPath = JSONPath.member(path, field)
            switch field {
            case "comment":
                entry.comment = try string(&reader, path: fieldPath, else: .reported(consequence: "it is ignored", severity: .warning))
            case "extractionState":
                entry.extractionState = try string(
                    &reader, path: fieldPath, else: .reported(consequence: "it is ignored", severity: .warning))
            case "shouldTranslate":
                if try expect(.boolean, &reader, path: fieldPath, else: .reported(consequence: "it is ignored", severity: .warning)) {
                    entry.shouldTranslate = try reader.readBoolean()
                }
            case "localizations":
                guard
                    try expectObject(
                        &reader, path: fieldPath, else: .reported(consequence: "the key has no translations", severity: .error))
                else {
                    continue
                }
                while true {
                    let location = reader.location()
                    guard let language = try reader.nextKey() else { break }
                    let languagePath = JSONPath.member(fieldPath, language)
                    pending = []
                    let localization = try readLocalization(&reader, path: languagePath)
                    let malformed = pending.contains { $0.severity == .error }
                    diagnostics += pending.map { problem in
                        Diagnostic(
                            severity: problem.severity, location: problem.location ?? location, code: problem.code,
                            message: problem.message
                                + (problem.severity == .error ? "; \(CatalogPath.quoted(key)) is left out in \(language)" : ""),
                            keyPath: problem.keyPath)
                    }
                    if !malformed, var localization {
                        localization.location = location
                        entry.localizations[language] = localization
                    }
                }
            default:
                // isCommentAutoGenerated, generatesSymbol, and whatever Xcode adds next.
                try reader.skipValue()
            }
        }
        return entry
    }

    mutating func readLocalization(_ reader: inout JSONTokenizer, path: JSONPath) throws(JSONSyntaxError) -> StringCatalog
        .Localization?
    {
        guard try expectObject(&reader, path: path) else { return nil }
        var localization = StringCatalog.Localization()
        while let field = try reader.nextKey() {
            let fieldPath = JSONPath.member(path, field)
            switch field {
            case "stringUnit": localization.stringUnit = try readStringUnit(&reader, path: fieldPath)
            case "variations": localization.variations = try readVariations(&reader, path: fieldPath)
            case "substitutions":
                guard try expectObject(&reader, path: fieldPath) else { continue }
                while let name = try reader.nextKey() {
                    let namePath = JSONPath.member(fieldPath, name)
                    if let substitution = try readSubstitution(&reader, path: namePath) {
                        localization.substitutions[name] = substitution
                    }
                }
            default: try reader.skipValue()
            }
        }
        if localization.stringUnit == nil && localization.variations == nil {
            if !localization.substitutions.isEmpty {
                pending.append(problem(nil, path, "has substitutions but no stringUnit that uses them"))
            }
        }
        return localization
    }

    private mutating func readStringUnit(_ reader: inout JSONTokenizer, path: JSONPath) throws(JSONSyntaxError) -> StringCatalog.StringUnit?
    {
        let location = reader.location()
        guard try expectObject(&reader, path: path) else { return nil }
        var state: String??
        var value: String??
        while let field = try reader.nextKey() {
            switch field {
            case "state": state = try string(&reader, path: .member(path, "state"))
            case "value": value = try string(&reader, path: .member(path, "value"))
            default: try reader.skipValue()
            }
        }
        // A field of the wrong type has been reported already.
        guard let value else {
            pending.append(problem(location, path, "has no value"))
            return nil
        }
        guard let state else {
            pending.append(problem(location, path, "has no state"))
            return nil
        }
        guard let value, let state else { return nil }
        return StringCatalog.StringUnit(state: StringCatalog.State(rawValue: state), value: value, location: location)
    }

    private mutating func readVariations(_ reader: inout JSONTokenizer, path: JSONPath) throws(JSONSyntaxError) -> StringCatalog.Variations?
    {
        guard try expectObject(&reader, path: path) else { return nil }
        var variations = StringCatalog.Variations()
        while let axis = try reader.nextKey() {
            let axisPath = JSONPath.member(path, axis)
            switch axis {
            case "plural":
                guard try expectObject(&reader, path: axisPath) else { continue }
                var cases: [PluralCategory: StringCatalog.Variant] = [:]
                while true {
                    let start = reader.valueStart()
                    guard let name = try reader.nextKey() else { break }
                    guard let category = PluralCategory(rawValue: name) else {
                        pending.append(
                            Diagnostic(
                                severity: .warning, location: reader.location(of: start), code: "catalog-entry",
                                message:
                                    "\(JSONPath.member(axisPath, name)): '\(name)' is not a plural category (zero, one, two, few, many, other) and is ignored",
                                keyPath: JSONPath.member(axisPath, name).description))
                        try reader.skipValue()
                        continue
                    }
                    if let variant = try readVariant(&reader, path: .member(axisPath, name)) { cases[category] = variant }
                }
                variations.plural = cases
            case "device":
                guard try expectObject(&reader, path: axisPath) else { continue }
                var cases: [String: StringCatalog.Variant] = [:]
                while let device = try reader.nextKey() {
                    if let variant = try readVariant(&reader, path: .member(axisPath, device)) { cases[device] = variant }
                }
                variations.device = cases
            default:
                // A variation axis Xcode may add (width classes, say) is not served.
                pending.append(
                    Diagnostic(
                        severity: .warning, location: nil, code: "catalog-entry",
                        message: "\(axisPath): lprojd does not know variations by '\(axis)'; they are ignored",
                        keyPath: axisPath.description))
                try reader.skipValue()
            }
        }
        return variations
    }

    private mutating func readVariant(_ reader: inout JSONTokenizer, path: JSONPath) throws(JSONSyntaxError) -> StringCatalog.Variant? {
        guard try expectObject(&reader, path: path) else { return nil }
        var variant = StringCatalog.Variant()
        while let field = try reader.nextKey() {
            switch field {
            case "stringUnit": variant.stringUnit = try readStringUnit(&reader, path: .member(path, "stringUnit"))
            case "variations": variant.variations = try readVariations(&reader, path: .member(path, "variations"))
            default: try reader.skipValue()
            }
        }
        return variant
    }

    private mutating func readSubstitution(_ reader: inout JSONTokenizer, path: JSONPath) throws(JSONSyntaxError) -> StringCatalog
        .Substitution?
    {
        let location = reader.location()
        guard try expectObject(&reader, path: path) else { return nil }
        var argNum: Int?
        var specifier: String?
        var plural: [PluralCategory: StringCatalog.StringUnit]?
        while let field = try reader.nextKey() {
            let fieldPath = JSONPath.member(path, field)
            switch field {
            case "argNum":
                let start = reader.valueStart()
                guard try expect(.number, &reader, path: fieldPath) else { continue }
                let numberLocation = reader.location(of: start)
                let text = try reader.readNumberText()
                guard let number = Int(text), number >= 1, number <= 1000 else {
                    pending.append(problem(numberLocation, fieldPath, "'\(text)' is not an argument position (1, 2, ...)"))
                    continue
                }
                argNum = number
            case "formatSpecifier":
                specifier = try string(&reader, path: fieldPath)
            case "variations":
                guard let variations = try readVariations(&reader, path: fieldPath) else { continue }
                if variations.device != nil {
                    pending.append(problem(nil, fieldPath, "a substitution varies by plural only"))
                }
                var units: [PluralCategory: StringCatalog.StringUnit] = [:]
                for (category, variant) in variations.plural ?? [:] {
                    if variant.variations != nil {
                        pending.append(
                            problem(nil, .member(.member(fieldPath, "plural"), category.rawValue), "a plural case cannot be further varied")
                        )
                    } else if let unit = variant.stringUnit {
                        units[category] = unit
                    } else {
                        pending.append(problem(nil, .member(.member(fieldPath, "plural"), category.rawValue), "has no stringUnit"))
                    }
                }
                plural = units
            default:
                try reader.skipValue()
            }
        }
        guard let specifier else {
            pending.append(problem(location, path, "has no formatSpecifier"))
            return nil
        }
        guard PluralVariable.parseValueType(specifier) != nil else {
            pending.append(
                problem(location, .member(path, "formatSpecifier"), "'\(specifier)' is not a format specifier such as lld, ld or @"))
            return nil
        }
        guard let plural else {
            pending.append(problem(location, path, "has no plural variations"))
            return nil
        }
        return StringCatalog.Substitution(argNum: argNum, formatSpecifier: specifier, plural: plural, location: location)
    }

    // MARK: Helpers

    /// What a value of the wrong type means.
    private enum Mismatch {
        /// The localization being read is left out (the problem waits in `pending`).
        case spoilsLocalization
        /// Reported at once, saying what follows.
        case reported(consequence: String, severity: Diagnostic.Severity)
    }

    /// Whether the next value is of the kind expected; if not, it is
    /// reported as `mismatch` says and skipped.
    private mutating func expect(
        _ expected: JSONValueKind, _ reader: inout JSONTokenizer, path: JSONPath, else mismatch: Mismatch = .spoilsLocalization
    ) throws(JSONSyntaxError) -> Bool {
        let start = reader.valueStart()
        let kind = try reader.peekKind()
        guard kind != expected else { return true }
        let location = reader.location(of: start)
        let wanted = expected == .boolean ? "true or false" : Self.article(expected)
        switch mismatch {
        case .spoilsLocalization:
            pending.append(wrongType(location, path, expected: wanted, found: kind))
        case .reported(let consequence, let severity):
            diagnostics.append(wrongType(location, path, expected: wanted, found: kind, leavingOut: consequence, severity: severity))
        }
        try reader.skipValue()
        return false
    }

    /// Reads the `{` of an object, if the next value is one.
    private mutating func expectObject(
        _ reader: inout JSONTokenizer, path: JSONPath, else mismatch: Mismatch = .spoilsLocalization
    ) throws(JSONSyntaxError) -> Bool {
        guard try expect(.object, &reader, path: path, else: mismatch) else { return false }
        try reader.beginObject()
        return true
    }

    /// Reads a string, if the next value is one.
    private mutating func string(
        _ reader: inout JSONTokenizer, path: JSONPath, else mismatch: Mismatch = .spoilsLocalization
    ) throws(JSONSyntaxError) -> String? {
        try expect(.string, &reader, path: path, else: mismatch) ? try reader.readString() : nil
    }

    private func wrongType(
        _ location: SourceLocation, _ path: JSONPath, expected: String, found: JSONValueKind, leavingOut consequence: String? = nil,
        severity: Diagnostic.Severity = .error
    ) -> Diagnostic {
        Diagnostic(
            severity: severity, location: location, code: "catalog-entry",
            message: "\(path): expected \(expected), found \(Self.article(found))\(consequence.map { "; \($0)" } ?? "")",
            keyPath: path.description)
    }

    private func problem(_ location: SourceLocation?, _ path: JSONPath, _ message: String) -> Diagnostic {
        Diagnostic(severity: .error, location: location, code: "catalog-entry", message: "\(path): \(message)", keyPath: path.description)
    }

    static func article(_ kind: JSONValueKind) -> String {
        switch kind {
        case .object, .array: "an \(kind.rawValue)"
        case .null: "null"
        default: "a \(kind.rawValue)"
        }
    }
}

/// Where a value is in a catalog, rendered only when a message needs it:
/// `strings["Done"].localizations.fr.stringUnit.value`.
indirect enum JSONPath: CustomStringConvertible {
    case entry(String)
    case member(JSONPath, String)

    var description: String {
        switch self {
        case .entry(let key): "strings[\(CatalogPath.quoted(key))]"
        case .member(let parent, let name): parent.description + CatalogPath.member(name)
        }
    }
}
