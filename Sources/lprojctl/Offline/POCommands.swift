import ArgumentParser
import Foundation
import LprojExchange
import LprojVersion
import TerminalProgress

/// `lprojctl po export|import`: gettext PO files, for gettext platforms.
struct POCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "po",
        abstract: "Exchange translations as gettext PO files (Weblate, Pontoon, GNOME's Damned Lies, Launchpad).",
        subcommands: [POExportCommand.self, POImportCommand.self]
    )
}

/// `lprojctl po export BUNDLE_DIR --language fr -o fr.po`, or `--template -o app.pot`.
struct POExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a language's PO file, or the POT template of the development language.",
        discussion: """
            The key is the msgctxt (after TABLE: for tables other than
            Localizable), the development language's text the msgid, the
            developer's comment a #. comment. A plural is one message with
            the language's standard Plural-Forms (gettext's msginit table),
            each form holding the CLDR category found by evaluating both
            rules; where they disagree, the numbers are printed. With
            --references (what lproj-extract --references wrote), each
            message's #: comments say where the code uses its key.
            """
    )

    @Argument(help: "The bundle directory.")
    var bundle: String

    @Option(name: .long, help: "The language of the PO file.")
    var language: String?

    @Flag(help: "Write the template (.pot) of the development language instead.")
    var template = false

    @Option(name: [.customShort("o"), .customLong("output")], help: "The file to write.")
    var output: String

    @Option(
        help: ArgumentHelp(
            "Where the code uses each key, as lproj-extract --references wrote it: the messages' #: comments.", valueName: "file"))
    var references: String?

    @Option(help: "A Plural-Forms header for a language gettext's table lacks.")
    var pluralForms: String?

    @Option(help: "The development language's folder (default: en, else Base).")
    var developmentLocale: String?

    func validate() throws {
        guard template != (language != nil) else { throw ValidationError("give --language L, or --template") }
    }

    func run() throws {
        let bar = ProgressBar("po export", total: 0)
        defer { bar.finish() }
        var places = SourceReferences()
        if let references {
            do {
                places = try SourceReferences(json: BundleFiles.readFile(references))
            } catch let error as SourceReferences.Error {
                throw CommandError("\(references): error: \(error)")
            }
        }
        let files = try BundleFiles.read(bundle, developmentLocale: developmentLocale, progress: bar)
        let exchange: LocalizationExchange
        do {
            // The template speaks of no target language; any other serves to list the units.
            exchange = try LocalizationExchange(bundle: files, language: language ?? (files.developmentFolder == "fr" ? "de" : "fr"))
        } catch {
            throw CommandError(error.description)
        }
        let project = URL(fileURLWithPath: bundle).standardizedFileURL.lastPathComponent
        let export = exchange.poDocument(
            template: template, project: project, generator: "lprojctl \(LprojVersion.current)", pluralForms: pluralForms,
            references: places)
        for problem in export.problems { Output.note("warning: \(problem)") }
        try BundleFiles.writeAtomically([(output, POWriter.write(export.document))], progress: bar)
        bar.finish()
        let plurals = export.document.messages.filter { $0.idPlural != nil }.count
        var summary = "\(output): \(count(export.document.messages.count, "message")), \(plurals) plural"
        if references != nil {
            summary += ", \(export.document.messages.filter { !$0.references.isEmpty }.count) with places in the code"
        }
        print(summary)
    }
}

/// `lprojctl po import BUNDLE_DIR fr.po`
struct POImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write the translations of a PO file back into a bundle.",
        discussion: """
            Checks the whole file as import-localizations does (its Language,
            every msgctxt, the format arguments, the plural forms by the
            file's own Plural-Forms) and writes nothing if anything is wrong;
            fuzzy messages are not imported.
            """
    )

    @Argument(help: "The bundle directory.")
    var bundle: String

    @Argument(help: "The PO file.")
    var file: String

    @Option(help: "The development language's folder (default: en, else Base).")
    var developmentLocale: String?

    @Flag(help: "Check and report, but write nothing.")
    var dryRun = false

    @Flag(help: "Let the file write into Base.lproj or the development language's folder, whose text every other language falls back to.")
    var intoDevelopmentLanguage = false

    func run() throws {
        let document: PODocument
        do {
            document = try POReader.read(try BundleFiles.readFile(file))
        } catch let error as XMLError {
            throw CommandError("\(file):\(error.location): error: \(error.message)")
        }
        guard let language = document.field("Language"), !language.isEmpty else {
            throw CommandError("\(file):1:1: error: the header has no Language")
        }
        let bar = ProgressBar("po import", total: 0)
        defer { bar.finish() }
        let exchange = try importExchange(
            bundle, developmentLocale: developmentLocale, language: language, intoDevelopmentLanguage: intoDevelopmentLanguage, for: file,
            progress: bar)
        try applyImport(
            exchange.importing(document, from: file), from: file, into: bundle, dryRun: dryRun, progress: bar, unfinished: "fuzzy")
    }
}
