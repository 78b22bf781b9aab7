import ArgumentParser
import Foundation
import LprojExchange
import LprojTables
import LprojVersion
import TerminalProgress

/// `lprojctl export-localizations BUNDLE_DIR --language fr -o DIR`
struct ExportLocalizations: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-localizations",
        abstract: "Write an Xcode localization catalog (.xcloc) of a bundle for one language.",
        discussion: """
            Writes LANGUAGE.xcloc as `xcodebuild -exportLocalizations` does:
            contents.json, Localized Contents/LANGUAGE.xliff (XLIFF 1.2, one
            <file> per table: .strings, .stringsdict and String Catalogs) and
            Source Contents/ (the development language's files). Plural units
            are the language's own CLDR categories, with those its tables
            already have; units without a translation have no <target>.
            -o names the folder the catalog goes in, or the .xcloc itself.
            """
    )

    @Argument(help: "The bundle directory (its .lproj folders and String Catalogs).")
    var bundle: String

    @Option(name: .long, help: "The language to translate into.")
    var language: String

    @Option(name: [.customShort("o"), .customLong("output")], help: "Where LANGUAGE.xcloc is written (default: here).")
    var output: String = "."

    @Option(help: "The development language's folder (default: en, else Base).")
    var developmentLocale: String?

    func run() throws {
        let bar = ProgressBar("export", total: 0)
        defer { bar.finish() }
        let files = try BundleFiles.read(bundle, developmentLocale: developmentLocale, progress: bar)
        let exchange: LocalizationExchange
        do {
            exchange = try LocalizationExchange(bundle: files, language: language)
        } catch {
            throw CommandError(error.description)
        }
        let destination = output.hasSuffix(".xcloc") ? output : "\(output)/\(language).xcloc"
        let project = URL(fileURLWithPath: bundle).standardizedFileURL.lastPathComponent
        let export = exchange.xcloc(
            tool: XLIFFDocument.Tool(id: "org.lprojd.lprojctl", name: "lprojctl", version: LprojVersion.current), project: project)
        for problem in export.problems { Output.note("warning: \(problem)") }
        try BundleFiles.writeAtomically(export.files.map { ("\(destination)/\($0.path)", $0.bytes) }, progress: bar)
        bar.finish()
        let units = export.document.files.reduce(0) { $0 + $1.units.count }
        let untranslated = export.document.files.reduce(0) { $0 + $1.units.filter { $0.target == nil || $0.state == "new" }.count }
        print("\(destination): \(count(units, "unit")) in \(count(export.document.files.count, "file")), \(untranslated) to translate")
    }
}

/// `lprojctl import-localizations BUNDLE_DIR fr.xcloc`
struct ImportLocalizations: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-localizations",
        abstract: "Write the translations of an .xcloc or .xliff back into a bundle.",
        discussion: """
            Checks the whole file first: XML (no DTD, no entities, bounded),
            its language, that every file and unit is one the bundle has, and
            that every translation keeps its source's format arguments. Any
            error (printed as file:line:column) changes nothing. Otherwise
            the translations are written into the tables they came from,
            keeping every other byte of each file, and every file is replaced
            at once (temporary files, then renames). A unit whose source
            changed since the export, or whose state is new or needs review,
            is not imported; plurals still lacking a category the language
            needs are reported.
            """
    )

    @Argument(help: "The bundle directory.")
    var bundle: String

    @Argument(help: "LANGUAGE.xcloc, or an .xliff file.")
    var localization: String

    @Option(help: "The development language's folder (default: en, else Base).")
    var developmentLocale: String?

    @Flag(help: "Check and report, but write nothing.")
    var dryRun = false

    @Flag(help: "Let the file write into Base.lproj or the development language's folder, whose text every other language falls back to.")
    var intoDevelopmentLanguage = false

    func run() throws {
        let xliffPath = try Self.xliffPath(localization)
        let bytes = try BundleFiles.readFile(xliffPath)
        let document: XLIFFDocument
        do {
            document = try XLIFFReader.read(bytes)
        } catch {
            throw CommandError("\(xliffPath):\(error.location): error: \(error.message)")
        }
        guard let language = document.files.compactMap(\.targetLanguage).first else {
            throw CommandError("\(xliffPath): error: no <file> says its target-language")
        }
        let bar = ProgressBar("import", total: 0)
        defer { bar.finish() }
        let exchange = try importExchange(
            bundle, developmentLocale: developmentLocale, language: language, intoDevelopmentLanguage: intoDevelopmentLanguage,
            for: xliffPath, progress: bar)
        try applyImport(
            exchange.importing(document, from: xliffPath), from: xliffPath, into: bundle, dryRun: dryRun, progress: bar,
            unfinished: "not finished (state new or needs review)")
    }

    /// The XLIFF inside an .xcloc (`Localized Contents/*.xliff`), or the file given.
    static func xliffPath(_ path: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw CommandError("\(path): no such file") }
        guard isDirectory.boolValue else { return path }
        let folder = "\(path)/Localized Contents"
        let found = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".xliff") }.sorted()
        guard found.count == 1 else {
            throw CommandError("\(path): expected one .xliff in Localized Contents, found \(found.count)")
        }
        return "\(folder)/\(found[0])"
    }
}

/// An import's start, for XLIFF and PO alike: the bundle's units in the
/// file's language; a language the bundle cannot take is the file's error.
func importExchange(
    _ bundle: String, developmentLocale: String?, language: String, intoDevelopmentLanguage: Bool, for file: String,
    progress bar: ProgressBar
) throws -> LocalizationExchange {
    let files = try BundleFiles.read(bundle, developmentLocale: developmentLocale, progress: bar)
    do {
        return try LocalizationExchange(bundle: files, language: language, intoDevelopmentLanguage: intoDevelopmentLanguage)
    } catch {
        throw CommandError("\(file): error: \(error.description)")
    }
}

/// An import's end, for XLIFF and PO alike: its findings on stderr (the
/// bundle's files named from the bundle directory), nothing written if any
/// is an error (exit 1), else its files written at once, then one line of
/// what it did. `unfinished` names translations it left out as unfinished.
func applyImport(
    _ plan: ImportPlan, from source: String, into bundle: String, dryRun: Bool, progress bar: ProgressBar, unfinished: String
) throws {
    if dryRun || plan.hasErrors { bar.finish() }
    for finding in plan.findings {
        Output.note(finding.file == source ? finding.description : "\(bundle)/\(finding.description)")
    }
    if plan.hasErrors {
        Output.note("nothing was imported: \(count(plan.findings.filter { $0.severity == .error }.count, "error"))")
        throw ExitCode(1)
    }
    if !dryRun { try BundleFiles.writeAtomically(plan.writes.map { ("\(bundle)/\($0.path)", $0.bytes) }, progress: bar) }
    bar.finish()
    var summary = "\(dryRun ? "would import" : "imported") \(count(plan.imported, "translation"))"
    summary += plan.writes.isEmpty ? "" : " into \(plan.writes.map(\.path).joined(separator: ", "))"
    summary += "; \(plan.unchanged) unchanged"
    if plan.unfinished > 0 { summary += ", \(plan.unfinished) \(unfinished)" }
    if plan.sourceChanged > 0 { summary += ", \(plan.sourceChanged) whose source changed" }
    print(summary)
}
