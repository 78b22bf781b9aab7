internal import LprojEngine
internal import LprojFormatStrings
internal import LprojLocales
internal import LprojTables

/// A table file the linter has read.
struct ParsedTableFile {
    let path: String
    let kind: TableFileKind
    let strings: StringsFile?
    let stringsdict: StringsdictFile?
    let failure: TableParseError?
    /// The file as read, for pointing into it.
    var bytes: [UInt8] = []

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
    private let files: any FileTree
    private let maximumFileSize: Int
    private var cache: [String: Result<ParsedTableFile, FileTreeError>] = [:]

    init(files: any FileTree, maximumFileSize: Int) {
        self.files = files
        self.maximumFileSize = maximumFileSize
    }

    /// The file at a path, parsed (or why it failed to parse), or why it could not be read.
    private var folders: [String: [String]] = [:]

    /// The `.lproj` folders of a directory, listed once per run.
    func lprojFolders(in directory: String) -> [String] {
        if let listed = folders[directory] { return listed }
        let listed = (try? files.lprojFolders(in: directory)) ?? []
        folders[directory] = listed
        return listed
    }

    func read(_ path: String) -> Result<ParsedTableFile, FileTreeError> {
        if let cached = cache[path] { return cached }
        guard let kind = TableFileKind(fileName: TreePath.lastComponent(path)) else {
            return .failure(.unreadable(reason: "not a table file"))
        }
        let bytes: [UInt8]
        do {
            bytes = try files.read(path, maximumSize: maximumFileSize)
        } catch {
            cache[path] = .failure(error)
            return .failure(error)
        }
        var parsed: ParsedTableFile
        do throws(TableParseError) {
            switch kind {
            case .strings:
                parsed = ParsedTableFile(
                    path: path, kind: kind, strings: try StringsParser(recordsKeyLocations: true).parse(bytes), stringsdict: nil,
                    failure: nil)
            case .stringsdict:
                parsed = ParsedTableFile(
                    path: path, kind: kind, strings: nil, stringsdict: try StringsdictParser().parse(bytes), failure: nil)
            }
        } catch {
            parsed = ParsedTableFile(path: path, kind: kind, strings: nil, stringsdict: nil, failure: error)
        }
        parsed.bytes = bytes
        cache[path] = .success(parsed)
        return .success(parsed)
    }
}
