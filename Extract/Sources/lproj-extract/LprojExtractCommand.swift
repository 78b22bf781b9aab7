import ArgumentParser
import Foundation
import LprojExtract
import LprojVersion
import TerminalProgress

/// `lproj-extract` (and `lprojctl extract`): the keys in the code, into the
/// development language's `.strings` tables.
@main
struct LprojExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lprojctl extract",
        abstract: "Find the localizable strings in Swift, C, Objective-C and Python sources and add them to .strings tables.",
        discussion: """
            Reads every .swift, .c, .h, .m, .mm and .py file under the paths (and scripts whose #! line \
            runs Python; hidden folders and .build skipped; Python is read by python3's own parser) and \
            merges the keys found into each table: OUTPUT/<table>.xcstrings when that String Catalog \
            exists (or --format xcstrings), else OUTPUT/<locale>.lproj/<table>.strings. Keys a table lacks \
            are added with their comments; nothing is deleted; keys the code no longer uses are reported \
            (in a catalog, marked stale). Running it again changes nothing. --check changes nothing and \
            exits 1 if the tables lack keys the code uses or hold keys it no longer uses.

            --references FILE writes where the code uses each key, as file:line (paths as given), in the \
            JSON that lprojctl po export --references reads to write gettext's #: comments; without -o, \
            that file is all it writes.

            --routine names a function or macro of the app's own that takes a key, in any of the \
            languages, as genstrings -s does: NAME alone is called as NSLocalizedString is (key first, \
            comment second), and NAMEFromTable, NAMEFromTableInBundle and NAMEWithDefaultValue as \
            Foundation's macros of those names; NAME:KEY,TABLE,VALUE,COMMENT gives each part's 1-based \
            argument position, empty or 0 for none (SULocalizedStringFromTableInBundle:1,2,,4; \
            APP_TR:2,3; tr:1). In Swift and Python an argument labelled table:/tableName:, \
            value:/defaultValue:/default: or comment: is that part wherever it stands.
            """,
        version: LprojVersion.current)

    @Argument(help: "Source files or directories.") var paths: [String]
    @Option(name: .shortAndLong, help: "The folder holding the .lproj folders (the bundle directory).") var output: String?
    @Option(
        help: ArgumentHelp(
            "Also write where the code uses each key (file:line) to this file (- for standard output), for lprojctl po export --references.",
            valueName: "file"))
    var references: String?
    @Option(name: .customLong("development-locale"), help: "The locale the keys are written in.") var developmentLocale = "en"
    @Flag(help: "Change nothing; exit 1 if the tables and the code disagree.") var check = false
    @Option(help: "strings, xcstrings, or auto: a table's catalog if it exists, else .strings.") var format = "auto"
    @Option(
        name: .customLong("routine"),
        help: ArgumentHelp(
            "A function or macro of the app's that takes a key: NAME (as NSLocalizedString) or NAME:KEY,TABLE,VALUE,COMMENT "
                + "(1-based argument positions, empty or 0 for none). Repeatable.",
            valueName: "name[:key,table,value,comment]"))
    var routines: [String] = []

    func validate() throws {
        guard output != nil || references != nil else {
            throw ValidationError("give -o BUNDLE_DIR (the tables the keys go to), --references FILE, or both")
        }
        guard output != nil || !check else { throw ValidationError("--check compares the code with the tables of -o BUNDLE_DIR") }
        guard ["auto", "strings", "xcstrings"].contains(format) else { throw ValidationError("--format is strings, xcstrings or auto") }
        for routine in routines {
            do {
                _ = try Routine(routine)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    func run() throws {
        var files: [(path: String, language: SourceLanguage, text: String)] = []
        for path in paths {
            for file in try Self.sourceFiles(under: path) {
                guard let language = SourceLanguage(fileName: file) ?? Self.script(file) else { continue }
                guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read \(file)") }
                files.append((file, language, String(decoding: data, as: UTF8.self)))
            }
        }
        let extraction = Extraction(routines: try routines.map { try Routine($0) })
        let result: ExtractionResult
        // On a terminal, over a large tree: a bar, gone before the results.
        let bar = ProgressBar("extract", total: files.count)
        do {
            result = try extraction.extract(files) { bar.advance($0) }
        } catch {
            bar.finish()
            throw ValidationError(error.description)
        }
        bar.finish()
        let (tables, conflicts) = result.byTable()
        for warning in (result.warnings + conflicts).sorted(by: { $0.location < $1.location }) {
            FileHandle.standardError.write(Data("\(warning)\n".utf8))
        }
        if let references {
            let json = result.references().json()
            if references == "-" {
                FileHandle.standardOutput.write(Data(json))
            } else {
                try Data(json).write(to: URL(fileURLWithPath: references), options: .atomic)
            }
        }
        guard let output else { return }
        let folder = URL(fileURLWithPath: output).appendingPathComponent("\(developmentLocale).lproj")
        var disagreements = 0
        // Tables the code no longer uses at all are reported too.
        let existing = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".strings") }.map { String($0.dropLast(".strings".count)) }
        let catalogs = ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? [])
            .filter { $0.hasSuffix(".xcstrings") }.map { String($0.dropLast(".xcstrings".count)) }
        for table in Set(tables.keys).union(existing).union(catalogs).sorted() {
            let strings = tables[table] ?? []
            if format == "xcstrings" || (format == "auto" && catalogs.contains(table)) {
                let file = URL(fileURLWithPath: output).appendingPathComponent("\(table).xcstrings")
                disagreements += try apply(file) { bytes throws in
                    let outcome = try CatalogMerge.merge(strings, into: bytes, sourceLanguage: developmentLocale)
                    return TableMerge(
                        added: outcome.added, dropped: outcome.markedStale.map { "\"\($0)\" is no longer used by the code (stale)" },
                        revived: outcome.revived.map { "\"\($0)\" is marked stale but used (\(file.lastPathComponent))" },
                        bytes: outcome.bytes)
                }
            } else {
                disagreements += try apply(folder.appendingPathComponent("\(table).strings")) { bytes throws in
                    let outcome = try StringsMerge.merge(strings, into: bytes)
                    return TableMerge(
                        added: outcome.added, dropped: outcome.unused.map { "\"\($0)\" is no longer used by the code" }, revived: [],
                        bytes: outcome.bytes)
                }
            }
        }
        if check && disagreements > 0 { throw ExitCode(1) }
    }

    /// What merging one table into its file gives, whatever the file's kind.
    struct TableMerge {
        let added: [ExtractedString]
        /// Keys the code no longer uses, said always.
        let dropped: [String]
        /// Keys a catalog marks stale that the code uses, said by --check.
        let revived: [String]
        /// The new file, nil when nothing changed.
        let bytes: [UInt8]?
    }

    /// Merges into one file (or, with --check, only says what would
    /// change); returns how many keys the file and the code disagree on.
    func apply(_ file: URL, _ merge: ([UInt8]?) throws -> TableMerge) throws -> Int {
        let outcome: TableMerge
        do {
            outcome = try merge(FileManager.default.contents(atPath: file.path).map(Array.init))
        } catch {
            throw ValidationError("\(file.path): \(error)")
        }
        for note in outcome.dropped { print("\(file.path): \(note)") }
        if check {
            for string in outcome.added { print("\(file.path): lacks \"\(string.key)\" (\(string.location))") }
            for note in outcome.revived { print("\(file.path): \(note)") }
            return outcome.added.count + outcome.dropped.count + outcome.revived.count
        }
        if let new = outcome.bytes {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(new).write(to: file, options: .atomic)
            print("\(file.path): added \(outcome.added.count) key\(outcome.added.count == 1 ? "" : "s")")
        }
        return 0
    }

    /// The language of a file without an extension, by its `#!` line.
    static func script(_ file: String) -> SourceLanguage? {
        guard !(file as NSString).lastPathComponent.contains("."), let handle = FileHandle(forReadingAtPath: file) else { return nil }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 256)) ?? Data()
        let firstLine = String(decoding: start.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        return SourceLanguage(fileName: file, firstLine: firstLine)
    }

    /// The files under a path (itself, if a file), sorted; hidden folders
    /// and build folders skipped.
    static func sourceFiles(under path: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ValidationError("\(path): no such file or directory")
        }
        guard isDirectory.boolValue else { return [path] }
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let relative = enumerator?.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") || name == "Pods" || name == "DerivedData" {
                enumerator?.skipDescendants()
                continue
            }
            files.append((path as NSString).appendingPathComponent(relative))
        }
        return files.sorted()
    }
}
