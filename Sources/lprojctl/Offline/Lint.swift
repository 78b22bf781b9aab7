import ArgumentParser
import Foundation
import VarlinkProtocol
import LprojFiles
import LprojLint
import LprojLocales
import LprojTables

/// `lprojctl lint PATH...`
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check .strings and .stringsdict files for errors and translators' mistakes.",
        discussion: """
            Prints file:line:column: error|warning: message, like a compiler, and
            exits with status 1 if there is any error. Directories are searched
            recursively. Translations are compared with the development language
            of their bundle (en.lproj, else Base.lproj, unless given).
            """
    )

    @Argument(help: "Files or directories to check.")
    var paths: [String]

    @Option(name: .customLong("development-locale"), help: "The locale translations are compared with (default: en, else Base).")
    var developmentLocale: String?

    @Flag(help: "Print the findings as JSON.")
    var json = false

    func run() throws {
        var linter = Linter(files: DiskFileTree())
        if let developmentLocale {
            do {
                linter.developmentLocale = try LocaleIdentifier(developmentLocale)
            } catch {
                throw ValidationError("\(error)")
            }
        }
        let findings = linter.lint(paths: paths)
        if json {
            let objects: [JSONValue] = findings.map { finding in
                var object: JSONObject = [
                    "file": .string(finding.file), "severity": .string(finding.diagnostic.severity.rawValue),
                    "code": .string(finding.diagnostic.code), "message": .string(finding.diagnostic.message),
                ]
                if let location = finding.diagnostic.location {
                    object["line"] = .int(location.line)
                    object["column"] = .int(location.column)
                }
                if let key = finding.diagnostic.keyPath { object["key"] = .string(key) }
                return .object(object)
            }
            Output.write(Data(JSONWriter.encodePretty(.array(objects))))
        } else {
            for finding in findings { print(finding.formatted) }
        }
        let errors = findings.filter { $0.diagnostic.severity == .error }.count
        let warnings = findings.count - errors
        Output.note("\(count(errors, "error")), \(count(warnings, "warning"))")
        if errors > 0 { throw ExitCode(1) }
    }
}
