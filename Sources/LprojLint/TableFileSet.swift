internal import Foundation
internal import LprojEngine
internal import LprojFormat
internal import LprojLocales
internal import LprojTables

/// A table file the linter has read.
struct ParsedTableFile {
    let path: String
    let kind: TableFileKind
    let strings: StringsFile?
    let stringsdict: StringsdictFile?
    let failure: TableParseError?

    /// The value of a key as a format, with the entry's variables.
    func format(forKey key: String) -> (format: FormatString, variables: [String: PluralVariable])? {
        if let entry = stringsdict?.entries[key] { return (entry.format, entry.variables) }
        if let value = strings?.table.value(forKey: key) { return (FormatString(value), [:]) }
        return nil
    }

    /// The keys it defines with their locations.
    var keys: [(key: String, location: SourceLocation?)] {
        if let strings {
            return strings.table.keys.map { ($0, strings.keyLocations?[$0]) }
        }
        if let stringsdict {
            return stringsdict.entries.keys.sorted().map { ($0, stringsdict.keyLocations[$0]) }
        }
        return []
    }
}

/// Reads table files once and remembers them.
final class TableFileSet {
    private var cache: [String: ParsedTableFile] = [:]

    func read(_ path: String) -> ParsedTableFile? {
        if let cached = cache[path] { return cached }
        let name = (path as NSString).lastPathComponent
        guard let kind = TableFileKind(fileName: name), let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        var parsed: ParsedTableFile
        do throws(TableParseError) {
            switch kind {
            case .strings:
                parsed = ParsedTableFile(path: path, kind: kind, strings: try StringsParser(recordsKeyLocations: true).parse(bytes), stringsdict: nil, failure: nil)
            case .stringsdict:
                parsed = ParsedTableFile(path: path, kind: kind, strings: nil, stringsdict: try StringsdictParser().parse(bytes), failure: nil)
            }
        } catch {
            parsed = ParsedTableFile(path: path, kind: kind, strings: nil, stringsdict: nil, failure: error)
        }
        cache[path] = parsed
        return parsed
    }
}
