import ArgumentParser
import Foundation
import LprojClient
import LprojCoverage
import LprojFiles
import LprojLocales
import TerminalProgress
import VarlinkProtocol

/// `lprojctl coverage DIR`
struct CoverageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Show how far a bundle is translated, per locale and table.",
        discussion: """
            For every key of the development locale, in every other locale of the bundle: translated, \
            the same as the development value (likely untranslated), inherited from a parent of the \
            same language, or missing (lookups fall back); with catalog units needing review or stale, \
            plural entries lacking categories, and arguments that disagree (as lint finds them). \
            --html writes a self-contained page, with the development text beside each missing key; \
            --with-misses asks lprojd how often users met each missing key. A table file that cannot \
            be read is named (file:line:column), the keys it may hold count as unknown rather than \
            missing, and the exit status is 1.
            """)

    @Argument(help: "The bundle directory (its .lproj folders and .xcstrings catalogs).") var directory: String
    @Option(name: .customLong("development-locale"), help: "The locale the keys are written in (default: en, else the first folder's).")
    var developmentLocale: String?
    @Option(help: "The bundle's name, as lprojd serves it (default: the directory's name).") var name: String?
    @Option(help: "Also write the report as a self-contained HTML page to this file.") var html: String?
    @Flag(name: .customLong("with-misses"), help: "Put lprojd's misses (GetMisses for --name) beside the missing keys.")
    var withMisses = false
    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let (path, development) = try BundleFiles.bundleDirectory(directory, developmentLocale: developmentLocale)
        let bundleName = name ?? URL(fileURLWithPath: path).lastPathComponent
        let bar = ProgressBar("coverage", total: 0)
        var report = CoverageAnalyzer(files: DiskFileTree()).report(directory: path, developmentLocale: development, name: bundleName) {
            locale, total in
            bar.expect(total)
            bar.advance(locale)
        }
        bar.finish()
        if withMisses {
            try await connection.withClient { client in
                let misses = try await client.misses(bundle: bundleName, limit: 10_000).misses
                report = report.addingMisses(
                    misses.map { ObservedMiss(locale: $0.locale, table: $0.table, key: $0.key, count: $0.count) })
            }
        }
        if let html {
            do {
                try Data(CoverageHTML.render(report).utf8).write(to: URL(fileURLWithPath: html))
            } catch {
                throw CommandError("cannot write \(html): \(error.localizedDescription)")
            }
        }
        if connection.json {
            Output.write(Data(JSONWriter.encodePretty(Self.json(report))))
        } else {
            Output.write(Data(CoverageText.render(report).utf8))
        }
        // A file that could not be read makes the figures uncertain: never
        // a clean exit, and each file on stderr too, as lint says it.
        if !report.unreadableFiles.isEmpty {
            for file in report.unreadableFiles { Output.note("\(path)/\(file.description)") }
            throw ExitCode(1)
        }
    }

    static func json(_ report: CoverageReport) -> JSONValue {
        func counts(_ counts: Counts) -> JSONValue {
            .object([
                "keys": .int(counts.keys), "translated": .int(counts.translated), "identical": .int(counts.identical),
                "inherited": .int(counts.inherited), "missing": .int(counts.missing), "unknown": .int(counts.unknown),
                "needsReview": .int(counts.needsReview),
                "stale": .int(counts.stale), "pluralProblems": .int(counts.pluralProblems),
                "argumentProblems": .int(counts.argumentProblems),
            ])
        }
        return .object([
            "bundle": .string(report.bundle), "developmentLocale": .string(report.developmentLocale),
            "unreadableFiles": .array(
                report.unreadableFiles.map { file in
                    var object: JSONObject = ["path": .string(file.path), "message": .string(file.message)]
                    if let line = file.line { object["line"] = .int(line) }
                    if let column = file.column { object["column"] = .int(column) }
                    return .object(object)
                }),
            "locales": .array(
                report.locales.map { locale in
                    .object([
                        "locale": .string(locale.locale), "total": counts(locale.total),
                        "tables": .array(
                            locale.tables.map { table in
                                var object: JSONObject = [
                                    "table": .string(table.table), "counts": counts(table.counts),
                                    "missingKeys": .array(table.missingKeys.map(JSONValue.string)),
                                    "missingSources": .object(
                                        JSONObject(
                                            uniqueKeys: table.missingKeys,
                                            values: table.missingKeys.map { .string(table.sources[$0] ?? "") })),
                                    "identicalKeys": .array(table.identicalKeys.map(JSONValue.string)),
                                ]
                                if !table.misses.isEmpty {
                                    object["misses"] = .object(
                                        JSONObject(uniqueKeys: Array(table.misses.keys), values: table.misses.values.map { .int($0) }))
                                }
                                return .object(object)
                            }),
                    ])
                }),
        ])
    }
}
