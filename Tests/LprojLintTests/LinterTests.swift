import Foundation
import LprojFiles
import LprojLocales
import LprojTables
import Testing
@testable import LprojLint

@Suite struct LinterTests {
    static let corpus: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }()

    /// The swapped `%d … %@` in VLC's Korean, Japanese and Turkish tables.
    @Test func swappedArgumentsInTheVLCCorpus() throws {
        let resources = Self.corpus.appendingPathComponent("vlc-ios/Resources").path
        let findings = Linter(files: DiskFileTree()).lint(paths: [resources])
        for language in ["ko", "ja", "tr"] {
            let hits = findings.filter {
                $0.file.hasSuffix("/\(language).lproj/Localizable.strings") && $0.diagnostic.keyPath == "ADD_ALERT_MESSAGE_MULTIPLE"
            }
            #expect(hits.count == 2, "\(language): \(hits.map(\.formatted))")
            #expect(
                hits.allSatisfy {
                    $0.diagnostic.severity == .error && $0.diagnostic.code == "argument-type" && $0.diagnostic.location?.line == 840
                })
            // At the specifiers: UTF-16 files' columns count scalars, as the parser's do.
            if language == "ja" {
                #expect(Set(hits.compactMap(\.diagnostic.location?.column)) == [36, 46], "\(hits.map(\.formatted))")
            }
        }
        // German kept the order: nothing to say about that key.
        #expect(
            !findings.contains {
                $0.file.hasSuffix("/de.lproj/Localizable.strings") && $0.diagnostic.keyPath == "ADD_ALERT_MESSAGE_MULTIPLE"
            })
        #expect(findings.contains { $0.diagnostic.code == "duplicate-key" })
    }

    /// DuckDuckGo's Turkish `1$@ > %2$@`, where a '%' was lost.
    @Test func lostPercentInTheDuckDuckGoCorpus() {
        let file = Self.corpus.appendingPathComponent("duckduckgo-ios/DuckDuckGo/tr.lproj/Localizable.strings").path
        let findings = Linter(files: DiskFileTree()).lint(paths: [file])
        #expect(
            findings.contains {
                $0.diagnostic.keyPath == "autofill.import.passwords.instructions.step2" && $0.diagnostic.code == "argument-dropped"
            })
    }

    func fixture(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lprojd-lint-\(UUID().uuidString)")
        for (path, contents) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        return root
    }

    static func stringsdict(_ key: String, format: String, forms: [String: String]) -> String {
        let body = forms.sorted { $0.key < $1.key }.map { "<key>\($0.key)</key><string>\($0.value)</string>" }.joined()
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>\(key)</key><dict>
            <key>NSStringLocalizedFormatKey</key><string>\(format)</string>
            <key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string>\(body)</dict>
            </dict></dict></plist>
            """
    }

    @Test func pluralCategoriesTheLanguageNeeds() throws {
        let root = try fixture([
            "en.lproj/Localizable.stringsdict": Self.stringsdict("files", format: "%#@n@", forms: ["one": "%d file", "other": "%d files"]),
            "pl.lproj/Localizable.stringsdict": Self.stringsdict(
                "files", format: "%#@n@", forms: ["one": "%d plik", "other": "%d plików"]),
            "ja.lproj/Localizable.stringsdict": Self.stringsdict("files", format: "%#@n@", forms: ["other": "%d ファイル"]),
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let findings = Linter(files: DiskFileTree()).lint(paths: [root.path])
        let polish = findings.filter { $0.file.contains("pl.lproj") && $0.diagnostic.code == "missing-plural-category" }
        #expect(polish.count == 1)
        #expect(polish.first?.diagnostic.message.contains("'few', 'many'") == true)
        #expect(polish.first?.diagnostic.location?.line != nil)
        #expect(!findings.contains { $0.file.contains("ja.lproj") })
        #expect(!findings.contains { $0.file.contains("en.lproj") })
    }

    @Test func missingVariablesAndSyntaxErrors() throws {
        let root = try fixture([
            "en.lproj/Localizable.stringsdict": Self.stringsdict("files", format: "%#@nope@", forms: ["other": "%d files"]),
            "en.lproj/Localizable.strings": "\"ok\" = \"fine\";\n\"broken\" = \"no end;\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let findings = Linter(files: DiskFileTree()).lint(paths: [root.path])
        #expect(
            findings.contains {
                $0.diagnostic.severity == .error && $0.diagnostic.keyPath == "files/NSStringLocalizedFormatKey"
                    && $0.diagnostic.message.contains("nope")
            })
        let syntax = try #require(findings.first { $0.file.hasSuffix(".strings") })
        #expect(syntax.diagnostic.severity == .error)
        #expect(syntax.diagnostic.location == SourceLocation(line: 2, column: 12))
        #expect(
            syntax.formatted.hasSuffix(
                "en.lproj/Localizable.strings:2:12: error: the string starting here is never closed; expected a closing quote"))
    }

    @Test func translationsUsingArgumentsTheCodeDoesNotPass() throws {
        let root = try fixture([
            "en.lproj/Localizable.strings": "\"greet\" = \"Hello %@\";\n",
            "fr.lproj/Localizable.strings": "\"greet\" = \"Bonjour %@, %d\";\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let findings = Linter(files: DiskFileTree(), developmentLocale: try LocaleIdentifier("en")).lint(paths: [
            root.appendingPathComponent("fr.lproj/Localizable.strings").path
        ])
        #expect(findings.map(\.diagnostic.code) == ["argument-extra"])
        // At the specifier to edit, not at the entry's key.
        #expect(findings.first?.diagnostic.location == SourceLocation(line: 1, column: 24))
    }

    /// Lint points where to edit, as a compiler does: a type mismatch at
    /// the specifier (the key holding the same text is passed over), a
    /// missing ';' just after the value, not at the next key lines below.
    @Test func findingsPointAtTheMistake() throws {
        let root = try fixture([
            "en.lproj/Localizable.strings": "\"%d files\" = \"%d files\";\n\"title\" = \"Title\";\n",
            "de.lproj/Localizable.strings": "\"%d files\" =\n    \"%@ Dateien\";\n\"title\" = \"Titel\";\n",
            "fr.lproj/Localizable.strings": "/* A comment */\n\"title\" = \"Titre\"\n\n\n/* Next */\n\n\"%d files\" = \"%d fichiers\";\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let linter = Linter(files: DiskFileTree(), developmentLocale: try LocaleIdentifier("en"))
        let german = linter.lint(paths: [root.appendingPathComponent("de.lproj/Localizable.strings").path])
        #expect(german.map(\.diagnostic.code) == ["argument-type"])
        #expect(german.first?.diagnostic.location == SourceLocation(line: 2, column: 6), "\(german.map(\.formatted))")
        let french = linter.lint(paths: [root.appendingPathComponent("fr.lproj/Localizable.strings").path])
        let syntax = try #require(french.first { $0.diagnostic.severity == .error })
        #expect(syntax.diagnostic.location == SourceLocation(line: 2, column: 18), "\(syntax.formatted)")
        #expect(syntax.diagnostic.message.hasSuffix("found '\"' at 7:1"), "\(syntax.formatted)")
    }

    @Test func missingPathsAreErrors() {
        let findings = Linter(files: DiskFileTree()).lint(paths: ["/nonexistent/lprojd"])
        #expect(findings.first?.diagnostic.severity == .error)
    }
}
