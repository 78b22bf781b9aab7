import ArgumentParser
import Foundation
import LprojEngine
import LprojTables

/// `lprojctl compile CATALOG --output-directory DIR`
struct Compile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the .lproj tables a String Catalog stands for.",
        discussion: """
            Writes <language>.lproj/<Table>.strings for every language of the
            catalog, and <Table>.stringsdict for each language that has plural
            entries, as XML property lists, byte for byte as `xcstringstool
            compile --serialization-format text` writes them; the entries are
            what lprojd serves from the catalog (device variations as a desktop
            sees them). Foundation-based code can then read the bundle too.
            Problems are printed as `lint` prints them; an error fails the
            command after the rest is written.
            """
    )

    @Argument(help: "A .xcstrings file.")
    var catalog: String

    @Option(name: [.customShort("o"), .customLong("output-directory")], help: "Where the .lproj folders are written.")
    var outputDirectory: String

    @Option(name: [.customShort("l"), .customLong("locale")], help: "Write only these languages (repeatable).")
    var locales: [String] = []

    @Flag(help: "Include units in every state, like xcstringstool's --force-build-all-strings.")
    var allStates = false

    func run() throws {
        let name = (catalog as NSString).lastPathComponent
        guard let table = StringCatalogFiles.tableName(of: name) else { throw ValidationError("\(catalog): not a .xcstrings file") }
        guard let data = FileManager.default.contents(atPath: catalog) else { throw CommandError("\(catalog): cannot be read") }
        let parsed: StringCatalogFile
        do throws(TableParseError) {
            parsed = try StringCatalogParser().parse([UInt8](data))
        } catch {
            throw CommandError(error.diagnostic.formatted(file: catalog))
        }
        let unknown = locales.filter { !parsed.catalog.languages.contains($0) }
        guard unknown.isEmpty else {
            throw CommandError(
                "\(catalog): the catalog has no language \(unknown.joined(separator: ", ")) (it has \(parsed.catalog.languages.joined(separator: ", ")))"
            )
        }
        var diagnostics = parsed.diagnostics
        let compiler = StringCatalogCompiler(includesAllStates: allStates)
        let output = URL(fileURLWithPath: outputDirectory, isDirectory: true)
        for language in parsed.catalog.languages where locales.isEmpty || locales.contains(language) {
            let compiled = compiler.compile(parsed.catalog, language: language, diagnostics: &diagnostics)
            let folder = output.appendingPathComponent("\(language).lproj", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try write(PropertyListXMLWriter.strings(compiled.strings), to: folder.appendingPathComponent("\(table).strings"))
            if !compiled.plurals.isEmpty {
                try write(PropertyListXMLWriter.stringsdict(compiled.plurals), to: folder.appendingPathComponent("\(table).stringsdict"))
            }
        }
        for diagnostic in diagnostics { Output.note(diagnostic.formatted(file: catalog)) }
        if diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
    }

    /// Writes next to the destination and renames over it, so that a
    /// watching lprojd never reads half a file.
    private func write(_ bytes: [UInt8], to url: URL) throws {
        try Data(bytes).write(to: url, options: .atomic)
        Output.note("wrote \(url.path)")
    }
}
