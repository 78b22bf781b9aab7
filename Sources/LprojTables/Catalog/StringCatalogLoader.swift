internal import JSONText
internal import LprojFormatStrings

/// Reads and compiles a String Catalog in one pass, without building the
/// catalog model: what lprojd does each time a catalog changes.
///
/// Most of a catalog Xcode writes is plain units (`{"stringUnit": {"state":
/// …, "value": …}}`); each goes straight into its language's table. A
/// localization with anything more (variations, substitutions, a value that
/// may refer to a substitution) is read into the model and compiled as
/// ``StringCatalogCompiler`` compiles it. Anything the parser would have
/// something to say about (a field of the wrong type, a malformed part, a
/// duplicate key, an unknown version, `strings` before `sourceLanguage`)
/// makes the loader start again the slow way, parser then compiler, so
/// that the tables and the diagnostics are always theirs.
public struct StringCatalogLoader: Sendable {
    public let compiler: StringCatalogCompiler

    public init(compiler: StringCatalogCompiler = StringCatalogCompiler()) {
        self.compiler = compiler
    }

    /// What loading gives: the source language, the compiled tables, and
    /// the diagnostics of reading and compiling.
    public struct Loaded: Sendable {
        public let sourceLanguage: String
        public let compilation: StringCatalogCompilation
        public let readingDiagnostics: [Diagnostic]
    }

    public func load(_ bytes: [UInt8]) throws(TableParseError) -> Loaded {
        if let fast = bytes.withUnsafeBufferPointer({ fastLoad($0) }) { return fast }
        let file = try StringCatalogParser().parse(bytes)
        return Loaded(
            sourceLanguage: file.catalog.sourceLanguage, compilation: compiler.compile(file.catalog), readingDiagnostics: file.diagnostics)
    }

    /// The one-pass load, or nil when the slow way must say something.
    func fastLoad(_ buffer: UnsafeBufferPointer<UInt8>) -> Loaded? {
        var reader = JSONTokenizer(catalog: buffer)
        var tables = Tables()
        var sourceLanguage: String?
        var sawStrings = false
        do throws(JSONSyntaxError) {
            guard try reader.peekKind() == .object else { return nil }
            try reader.beginObject()
            while let field = try reader.nextKey() {
                switch field {
                case "sourceLanguage":
                    guard !sawStrings, sourceLanguage == nil, try reader.peekKind() == .string else { return nil }
                    let language = try reader.readString()
                    guard !language.isEmpty else { return nil }
                    sourceLanguage = language
                    tables.source = tables.index(of: language)
                case "version":
                    guard try reader.peekKind() == .string, StringCatalogParser.knownVersions.contains(try reader.readString()) else {
                        return nil
                    }
                case "strings":
                    guard sourceLanguage != nil, !sawStrings, try reader.peekKind() == .object else { return nil }
                    sawStrings = true
                    guard try readEntries(&reader, into: &tables) else { return nil }
                default:
                    try reader.skipValue()
                }
            }
            try reader.finish()
        } catch {
            return nil
        }
        guard let sourceLanguage, sawStrings else { return nil }
        return Loaded(sourceLanguage: sourceLanguage, compilation: tables.finish(), readingDiagnostics: [])
    }

    /// The tables being built, one per language, in the order met.
    struct Tables {
        var names: [String] = []
        var indexes: [String: Int] = [:]
        var builders: [StringTableBuilder] = []
        var plurals: [[String: PluralFormat]] = []
        var diagnostics: [Diagnostic] = []
        var source = 0

        mutating func index(of language: String) -> Int {
            if let index = indexes[language] { return index }
            indexes[language] = names.count
            names.append(language)
            builders.append(StringTableBuilder(estimatedBytes: 0))
            plurals.append([:])
            return names.count - 1
        }

        /// The tables sorted by language, as ``StringCatalogCompiler/compile(_:)`` gives them.
        consuming func finish() -> StringCatalogCompilation {
            var built: [CompiledCatalogTable] = []
            built.reserveCapacity(names.count)
            for (index, builder) in builders.enumerated() {
                built.append(CompiledCatalogTable(language: names[index], strings: builder.finish().table, plurals: plurals[index]))
            }
            return StringCatalogCompilation(tables: built.sorted { $0.language < $1.language }, diagnostics: diagnostics)
        }
    }

    /// One plain unit of an entry, kept until the entry's end says whether
    /// it is to be translated.
    struct PlainUnit {
        let language: Int
        let isNew: Bool
        let value: String
    }

    /// The entries of `strings`; false when the slow way must take over.
    func readEntries(_ reader: inout JSONTokenizer, into tables: inout Tables) throws(JSONSyntaxError) -> Bool {
        var keys: Set<String> = []
        var plain: [PlainUnit] = []
        var complex: [(language: Int, localization: StringCatalog.Localization)] = []
        var reading = CatalogReading()
        try reader.beginObject()
        while let key = try reader.nextKey() {
            guard keys.insert(key).inserted, try reader.peekKind() == .object else { return false }
            plain.removeAll(keepingCapacity: true)
            complex.removeAll(keepingCapacity: true)
            var shouldTranslate = true
            var sawSource = false
            var seenLanguages: [Int] = []
            try reader.beginObject()
            while let field = try reader.nextKey() {
                switch field {
                case "comment", "extractionState":
                    guard try reader.peekKind() == .string else { return false }
                    try reader.skipValue()
                case "shouldTranslate":
                    guard try reader.peekKind() == .boolean else { return false }
                    shouldTranslate = try reader.readBoolean()
                case "localizations":
                    guard try reader.peekKind() == .object else { return false }
                    try reader.beginObject()
                    while true {
                        let keyStart = reader.valueStart()
                        guard let language = try reader.nextKey() else { break }
                        let index = tables.index(of: language)
                        // A language twice in one entry: the parser's last one wins.
                        guard !seenLanguages.contains(index) else { return false }
                        seenLanguages.append(index)
                        if index == tables.source { sawSource = true }
                        let mark = reader.mark()
                        if let unit = try readPlainUnit(&reader) {
                            plain.append(PlainUnit(language: index, isNew: unit.isNew, value: unit.value))
                            continue
                        }
                        // More than a plain unit: read as the parser reads it.
                        reader.rewind(to: mark)
                        let path = JSONPath.member(JSONPath.member(JSONPath.entry(key), "localizations"), language)
                        guard var localization = try reading.readCleanLocalization(&reader, path: path) else { return false }
                        localization.location = reader.location(of: keyStart)
                        complex.append((index, localization))
                    }
                default:
                    try reader.skipValue()
                }
            }
            var entry = StringCatalog.Entry(key: key)
            entry.shouldTranslate = shouldTranslate
            for unit in plain {
                let isSource = unit.language == tables.source
                if !isSource && !shouldTranslate && !compiler.includesAllStates { continue }
                guard compiler.includesAllStates || isSource || !unit.isNew else { continue }
                tables.builders[unit.language].append(key: key, value: unit.value)
            }
            for (language, localization) in complex {
                let isSource = language == tables.source
                switch compiler.compile(
                    entry, localization, language: tables.names[language], isSource: isSource, diagnostics: &tables.diagnostics)
                {
                case .string(let value)?: tables.builders[language].append(key: key, value: value)
                case .plural(let format)?: tables.plurals[language][key] = format
                case nil: break
                }
            }
            if !sawSource { tables.builders[tables.source].append(key: key, value: key) }
        }
        return true
    }

    /// A localization that is exactly `{"stringUnit": {"state": "…", "value": "…"}}`
    /// (members in any order) whose value cannot refer to a substitution;
    /// nil, with the reader somewhere inside it, for anything else.
    func readPlainUnit(_ reader: inout JSONTokenizer) throws(JSONSyntaxError) -> (isNew: Bool, value: String)? {
        guard try reader.peekKind() == .object else { return nil }
        try reader.beginObject()
        guard try reader.nextKey() == "stringUnit", try reader.peekKind() == .object else { return nil }
        try reader.beginObject()
        var state: String?, value: String?
        while let field = try reader.nextKey() {
            switch field {
            case "state" where state == nil:
                guard try reader.peekKind() == .string else { return nil }
                state = try reader.readString()
            case "value" where value == nil:
                guard try reader.peekKind() == .string else { return nil }
                value = try reader.readString()
            default:
                return nil
            }
        }
        guard let state, let value, try reader.nextKey() == nil else { return nil }
        guard !StringCatalogCompiler.mayReferToVariables(value) else { return nil }
        return (state == StringCatalog.State.new.rawValue, value)
    }
}
