import ArgumentParser
import Foundation
import LprojEngine
import LprojTables
import VarlinkProtocol

/// `lprojctl dump FILE`
struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print what lprojd reads from a table file or String Catalog, as JSON.",
        discussion: """
            A .strings file prints as an object of key -> value, a .stringsdict
            file as its property list: what Foundation's PropertyListSerialization
            reads, as JSON with keys in code-point order. A String Catalog (.xcstrings)
            prints one language's table as the .strings and .stringsdict files
            Xcode compiles from it would: both merged, or the one --file names.
            """
    )

    @Argument(help: "A .strings, .stringsdict or .xcstrings file.")
    var file: String

    @Option(help: "For a String Catalog: the language to print (default: its source language).")
    var locale: String?

    @Option(name: .customLong("file"), help: "For a String Catalog: print only what this compiled file holds (strings or stringsdict).")
    var compiledFile: CompiledFile?

    @Flag(help: "For a String Catalog: include units in every state, like xcstringstool's --force-build-all-strings.")
    var allStates = false

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandError("\(file): cannot be read")
        }
        let propertyList: [String: PropertyListValue]
        do throws(TableParseError) {
            if StringCatalogFiles.tableName(of: (file as NSString).lastPathComponent) != nil {
                propertyList = try catalogPropertyList([UInt8](data))
            } else {
                guard locale == nil, compiledFile == nil, !allStates else {
                    throw TableParseError(location: nil, message: "--locale, --file and --all-states apply to String Catalogs only")
                }
                switch TableFileKind(fileName: (file as NSString).lastPathComponent) {
                case .stringsdict:
                    propertyList = try StringsdictParser().parse([UInt8](data)).propertyList
                default:
                    propertyList = try StringsParser().parse([UInt8](data)).propertyList
                }
            }
        } catch {
            throw CommandError(error.diagnostic.formatted(file: file))
        }
        Output.write(Data(JSONWriter.encodePretty(PropertyListValue.dictionary(propertyList).json)))
    }

    private func catalogPropertyList(_ bytes: [UInt8]) throws(TableParseError) -> [String: PropertyListValue] {
        let parsed = try StringCatalogParser().parse(bytes)
        let language = locale ?? parsed.catalog.sourceLanguage
        guard parsed.catalog.languages.contains(language) else {
            throw TableParseError(
                location: nil,
                message: "the catalog has no language '\(language)' (it has \(parsed.catalog.languages.joined(separator: ", ")))")
        }
        var diagnostics = parsed.diagnostics
        let table = StringCatalogCompiler(includesAllStates: allStates).compile(
            parsed.catalog, language: language, diagnostics: &diagnostics)
        for diagnostic in diagnostics { Output.note(diagnostic.formatted(file: file)) }
        var result: [String: PropertyListValue] = [:]
        if compiledFile != .stringsdict {
            for index in 0..<table.strings.count { result[table.strings.key(at: index)] = .string(table.strings.value(at: index)) }
        }
        if compiledFile != .strings {
            for (key, entry) in table.plurals { result[key] = .dictionary(entry.propertyList) }
        }
        return result
    }
}

/// The files a catalog compiles to.
enum CompiledFile: String, ExpressibleByArgument, CaseIterable {
    case strings, stringsdict
}

extension PropertyListValue {
    /// The value as JSON: dates in ISO 8601, data in base64.
    var json: JSONValue {
        switch self {
        case .string(let string): .string(string)
        case .integer(let integer): .number(JSONNumber(Int64(integer)))
        case .real(let real): .number(JSONNumber(real))
        case .boolean(let boolean): .bool(boolean)
        case .date(let date): .string(date.formatted(.iso8601))
        case .data(let data): .string(Data(data).base64EncodedString())
        case .array(let items): .array(items.map(\.json))
        case .dictionary(let items): .object(JSONObject(uniqueKeys: Array(items.keys), values: items.values.map(\.json)))
        }
    }
}
