import Foundation
import LprojExchange
import LprojFormatStrings
import LprojTables
import Testing

/// gettext PO: the plural mapping against gettext's own tables, and the
/// files against gettext's own tools (msginit, msgfmt, msgmerge).
@Suite struct POTests {
    struct Run {
        let status: Int32
        let output: String
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.environment = ["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    static func temporary() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lproj-po-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let languages = [
        "be", "bg", "cs", "da", "de", "el", "en", "eo", "es", "et", "fi", "fo", "fr", "ga", "he", "hr", "hu", "it", "ja", "ko", "lt", "lv",
        "nb", "nl", "nn", "no", "pl", "pt", "ro", "ru", "sk", "sl", "sr", "sv", "tr", "uk", "vi",
    ]

    /// Each standard header is what gettext's msginit writes for the language.
    @Test func pluralFormsAreMsginits() throws {
        let directory = try Self.temporary()
        defer { try? FileManager.default.removeItem(at: directory) }
        let template = directory.appendingPathComponent("t.pot")
        try Data("msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\"Content-Transfer-Encoding: 8bit\\n\"\n".utf8)
            .write(to: template)
        for language in Self.languages {
            let result = try Self.run("msginit", ["--no-translator", "-l", language, "-i", template.path, "-o", "-"])
            let header = result.output.replacingOccurrences(of: "\"\n\"", with: "")
            let forms = try #require(LocalizationExchange.standardPluralForms(for: language), "\(language)")
            #expect(header.contains("Plural-Forms: \(forms)\\n"), "\(language): \(header)")
        }
        #expect(LocalizationExchange.standardPluralForms(for: "ar") == nil)
        #expect(LocalizationExchange.standardPluralForms(for: "pt-BR") == LocalizationExchange.standardPluralForms(for: "pt"))
    }

    /// Where gettext's standard rule and CLDR's (ICU 72) disagree, for every
    /// language both know: found by evaluating both over the same numbers.
    @Test func mappingForEveryLanguageGettextAndICUKnow() throws {
        var disagreeing: [String: [String]] = [:]
        for language in Self.languages {
            let rule = try #require(GettextPluralRule(LocalizationExchange.standardPluralForms(for: language)!))
            let mapping = PluralMapping(language: language, rule: rule)
            if !mapping.disagreements.isEmpty { disagreeing[language] = mapping.disagreements }
            // Every gettext form holds a category.
            #expect(mapping.categoryOfIndex.allSatisfy { $0 != nil }, "\(language): \(mapping.disagreements)")
        }
        for language in disagreeing.keys.sorted() { print("\(language): \(disagreeing[language]!.joined(separator: "; "))") }
        // Russian: one/few/many are gettext's 0/1/2 exactly.
        let russian = PluralMapping(language: "ru", rule: GettextPluralRule(LocalizationExchange.standardPluralForms(for: "ru")!)!)
        #expect(russian.categoryOfIndex == [.one, .few, .many])
        #expect(russian.disagreements.isEmpty)
        // French: gettext has one form for CLDR's many and other.
        let french = PluralMapping(language: "fr", rule: GettextPluralRule(LocalizationExchange.standardPluralForms(for: "fr")!)!)
        #expect(french.categoryOfIndex == [.one, .other])
        #expect(
            french.disagreements == [
                "gettext form 1 holds CLDR 'other' (2, 3, 4, 5, …) and 'many' (1000000, 2000000, 3000000, 5000000, …); 'many' has no form of its own"
            ])
        #expect(Set(disagreeing.keys) == Self.expectedDisagreements, "\(disagreeing.keys.sorted())")
    }

    static let expectedDisagreements: Set<String> = ["es", "fr", "ga", "he", "it", "lv", "pt"]

    static func demo() throws -> ExchangeBundle {
        try CorpusRoundTripTests.read(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Examples/DemoApp").standardized)
    }

    func write(_ export: POExport, to url: URL) throws {
        try Data(POWriter.write(export.document)).write(to: url)
    }

    @Test func exportsPassMsgfmtCheck() throws {
        let directory = try Self.temporary()
        defer { try? FileManager.default.removeItem(at: directory) }
        var checked = 0
        for bundle in [try Self.demo()] + (try CorpusRoundTripTests.bundles().map { try CorpusRoundTripTests.read($0) }) {
            for language in try CorpusRoundTripTests.languages(bundle) where LocalizationExchange.standardPluralForms(for: language) != nil
            {
                let exchange = try LocalizationExchange(bundle: bundle, language: language)
                let file = directory.appendingPathComponent("\(checked).po")
                try write(exchange.poDocument(template: checked == 0, project: "test", generator: "test"), to: file)
                let result = try Self.run("msgfmt", ["--check", "-o", "/dev/null", file.path])
                #expect(result.status == 0, "\(language): \(result.output.prefix(2000))")
                checked += 1
            }
        }
        #expect(checked > 150)
    }

    @Test func exportThenImportChangesNothingOnTheCorpus() throws {
        var checked = 0
        for bundle in [try Self.demo()] + (try CorpusRoundTripTests.bundles().map { try CorpusRoundTripTests.read($0) }) {
            for language in try CorpusRoundTripTests.languages(bundle) {
                guard let exchange = try? LocalizationExchange(bundle: bundle, language: language) else { continue }
                let export = exchange.poDocument(template: false, project: "test", generator: "test")
                let read = try POReader.read(POWriter.write(export.document))
                let essentials = { (document: PODocument) in
                    document.messages.map { [$0.context ?? "", $0.id, $0.idPlural ?? "", $0.flags.joined(separator: ",")] + $0.strings }
                }
                #expect(essentials(read) == essentials(export.document), "\(language): the PO file does not read back as written")
                let plan = exchange.importing(read, from: "\(language).po")
                #expect(plan.findings.isEmpty && plan.writes.isEmpty, "\(language): \(plan.findings.prefix(3))")
                checked += 1
            }
        }
        #expect(checked > 450)
    }

    /// Russian plurals by gettext form: msgstr[0..2] are one, few, many.
    @Test func russianFormsGoToTheirCategories() throws {
        let exchange = try LocalizationExchange(bundle: TableExchangeTests.bundle(), language: "ru")
        var document = exchange.poDocument(template: false, project: "test", generator: "test").document
        let index = try #require(document.messages.firstIndex { $0.context == "files.selected|==|files" })
        #expect(document.messages[index].id == "%d file selected")
        #expect(document.messages[index].idPlural == "%d files selected")
        #expect(document.messages[index].strings == ["Выбран %d файл", "", ""])
        // Only one of Russian's three forms is translated: gettext takes a plural whole, so it is fuzzy.
        #expect(document.messages[index].flags == ["fuzzy", "c-format"])
        document.messages[index].strings = ["Выбран %d файл", "Выбрано %d файла", "Выбрано %d файлов"]
        document.messages[index].flags = ["c-format"]
        let plan = exchange.importing(try POReader.read(POWriter.write(document)), from: "ru.po")
        #expect(!plan.hasErrors, "\(plan.findings)")
        let written = try #require(plan.writes.first { $0.path == "ru.lproj/Localizable.stringsdict" })
        let forms = try StringsdictParser().parse(written.bytes).entries["files.selected"]?.variables["files"]?.forms
        #expect(forms == [.one: "Выбран %d файл", .few: "Выбрано %d файла", .many: "Выбрано %d файлов", .other: "Выбрано %d файла"])
        // Russian's `other` (fractions) has no gettext form: it keeps what it had, and the export said so.
        #expect(plan.findings.isEmpty)
    }

    /// msgmerge of a newer template into an old translation keeps its
    /// translations, and import reads the result back.
    @Test func msgmergeKeepsTranslations() throws {
        let directory = try Self.temporary()
        defer { try? FileManager.default.removeItem(at: directory) }
        var bundle = try Self.demo()
        let old = directory.appendingPathComponent("fr.po")
        try write(
            try LocalizationExchange(bundle: bundle, language: "fr").poDocument(template: false, project: "demo", generator: "test"),
            to: old)
        // The code grows a string.
        bundle.files["en.lproj/Localizable.strings"]! += Array("\n/* A new button */\n\"export.button\" = \"Export\";\n".utf8)
        let template = directory.appendingPathComponent("demo.pot")
        try write(
            try LocalizationExchange(bundle: bundle, language: "fr").poDocument(template: true, project: "demo", generator: "test"),
            to: template)
        let merged = directory.appendingPathComponent("merged.po")
        let merge = try Self.run("msgmerge", ["--quiet", "-o", merged.path, old.path, template.path])
        #expect(merge.status == 0, "\(merge.output)")
        #expect(try Self.run("msgfmt", ["--check", "-o", "/dev/null", merged.path]).status == 0)
        let text = try String(contentsOf: merged, encoding: .utf8)
        #expect(text.contains("msgstr \"Réglages\""))
        #expect(text.contains("msgctxt \"export.button\"\nmsgid \"Export\"\nmsgstr \"\""))
        let exchange = try LocalizationExchange(bundle: bundle, language: "fr")
        let unchanged = exchange.importing(try POReader.read([UInt8](try Data(contentsOf: merged))), from: "merged.po")
        #expect(unchanged.findings.isEmpty && unchanged.writes.isEmpty, "\(unchanged.findings)")
        // The translator fills the new message.
        try Data(text.replacingOccurrences(of: "msgid \"Export\"\nmsgstr \"\"", with: "msgid \"Export\"\nmsgstr \"Exporter\"").utf8).write(
            to: merged)
        let plan = exchange.importing(try POReader.read([UInt8](try Data(contentsOf: merged))), from: "merged.po")
        #expect(!plan.hasErrors, "\(plan.findings)")
        let french = try #require(plan.writes.first { $0.path == "fr.lproj/Localizable.strings" })
        #expect(try StringsParser().parse(french.bytes).table.value(forKey: "export.button") == "Exporter")
    }

    /// Where the code uses each key (what `lproj-extract --references`
    /// writes) becomes the messages' `#:` lines, as xgettext writes them;
    /// msgmerge takes a new template's places into an old translation, and
    /// an import reads the result without a finding.
    @Test func sourceReferencesBecomeTheMessagesPlaces() throws {
        let directory = try Self.temporary()
        defer { try? FileManager.default.removeItem(at: directory) }
        var references = SourceReferences()
        references.add(table: "Localizable", key: "settings.title", place: "Sources/Settings.swift:12")
        references.add(table: "Localizable", key: "settings.title", place: "Sources/Settings.swift:12")
        let listing = (1...6).map { "Sources/List.swift:\($0 * 10)" }
        for place in listing { references.add(table: "Localizable", key: "files.selected", place: place) }
        references.add(table: "Menu", key: "menu.file", place: "Sources/Menus.c:7")
        references.add(table: "Localizable", key: "no.such.key", place: "Sources/Gone.swift:1")
        #expect(try SourceReferences(json: references.json()) == references)

        let exchange = try LocalizationExchange(bundle: Self.demo(), language: "fr")
        let template = exchange.poDocument(template: true, project: "demo", generator: "test", references: references).document
        func places(_ context: String) -> [String]? { template.messages.first { $0.context == context }?.references }
        #expect(places("settings.title") == ["Sources/Settings.swift:12"])
        #expect(places("files.selected") == listing && places("files.selected|==|files") == listing, "each message of the key")
        #expect(places("Menu:menu.file") == ["Sources/Menus.c:7"], "by table")
        #expect(places("welcome.title") == [])
        let text = String(decoding: POWriter.write(template), as: UTF8.self)
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("#:") }
        #expect(lines.allSatisfy { $0.count <= 79 } && lines.count == 6, "\(lines)")
        #expect(text.contains("#: Sources/Settings.swift:12\nmsgctxt \"settings.title\"\n"))
        #expect(text.contains("#: Sources/List.swift:10 Sources/List.swift:20 Sources/List.swift:30\n#: Sources/List.swift:40 "))
        #expect(try POReader.read(POWriter.write(template)).messages.map(\.references) == template.messages.map(\.references))

        // A translation made before the code had places; msgmerge brings them in.
        let old = directory.appendingPathComponent("fr.po"), pot = directory.appendingPathComponent("demo.pot")
        try write(exchange.poDocument(template: false, project: "demo", generator: "test"), to: old)
        try Data(POWriter.write(template)).write(to: pot)
        #expect(try Self.run("msgfmt", ["--check", "-o", "/dev/null", pot.path]).status == 0)
        let merged = directory.appendingPathComponent("merged.po")
        let merge = try Self.run("msgmerge", ["--quiet", "-o", merged.path, old.path, pot.path])
        #expect(merge.status == 0, "\(merge.output)")
        let mergedDocument = try POReader.read([UInt8](try Data(contentsOf: merged)))
        #expect(mergedDocument.messages.first { $0.context == "files.selected|==|files" }?.references == listing)
        #expect(try Self.run("msgfmt", ["--check", "-o", "/dev/null", merged.path]).status == 0)
        let plan = exchange.importing(mergedDocument, from: "merged.po")
        #expect(plan.findings.isEmpty && plan.writes.isEmpty, "\(plan.findings)")
    }

    /// A references file is only ever one: anything else is refused by name.
    @Test func aReferencesFileIsChecked() throws {
        func message(_ text: String) -> String? {
            do {
                _ = try SourceReferences(json: Array(text.utf8))
                return nil
            } catch {
                return error.message
            }
        }
        #expect(message(#"{"sourceLanguage":"en","strings":{},"version":"1.0"}"#)?.contains("has no \"format\"") == true)
        #expect(
            message(#"{"format":"lproj-extract references 9","tables":{}}"#)?.contains("of format \"lproj-extract references 9\"") == true)
        #expect(message(#"{"format":"lproj-extract references 1","tables":{"Localizable":{"k":[1]}}}"#) != nil)
        #expect(message(#"{"format":"lproj-extract references 1","tables":{"Localizable":{"k":["a.c:1\nmsgid"]}}}"#) != nil)
        #expect(message("{") != nil)
        #expect(message(#"{"format":"lproj-extract references 1","tables":{"Localizable":{"k":["a.c:1"]}}}"#) == nil)
    }

    /// A Plural-Forms of 400 KB (`n+n+…`) once overflowed the stack: the
    /// expression is bounded in length and in nodes, whatever its shape.
    @Test func aPluralFormsExpressionIsBounded() throws {
        let chain = "nplurals=2; plural=" + Array(repeating: "n", count: 100_000).joined(separator: "+") + ";"
        #expect(GettextPluralRule(chain) == nil)
        let nodes = "nplurals=2; plural=" + Array(repeating: "n", count: 300).joined(separator: "+") + ";"
        #expect(GettextPluralRule(nodes) == nil)
        let nested = "nplurals=2; plural=" + String(repeating: "(", count: 5000) + "n" + String(repeating: ")", count: 5000) + ";"
        #expect(GettextPluralRule(nested) == nil)
        let negations = "nplurals=2; plural=" + String(repeating: "!", count: 100_000) + "n;"
        #expect(GettextPluralRule(negations) == nil)
        // Arabic's, one of the longest in use, still reads.
        let arabic = "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;"
        #expect(GettextPluralRule(arabic)?.index(for: 11) == 4)
    }

    /// gettext's tools read a PO file with CRLF line ends; so does lprojctl.
    @Test func crlfLineEndsReadAsLF() throws {
        let text = """
            msgid ""
            msgstr ""
            "Language: de\\n"
            "Content-Type: text/plain; charset=UTF-8\\n"

            #. A comment
            msgctxt "Localizable"
            msgid "hello"
            msgstr "Hallo"

            """
        let lf = try POReader.read(Array(text.utf8))
        let crlf = try POReader.read(Array(text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n").utf8))
        #expect(crlf.messages.map(\.id) == ["hello"] && crlf.messages == lf.messages)
        #expect(crlf.field("Language") == "de")
    }

    @Test func badFilesChangeNothing() throws {
        let exchange = try LocalizationExchange(bundle: TableExchangeTests.bundle(), language: "ru")
        let text = String(
            decoding: POWriter.write(exchange.poDocument(template: false, project: "t", generator: "t").document), as: UTF8.self)
        func plan(_ edited: String) throws -> ImportPlan { exchange.importing(try POReader.read(Array(edited.utf8)), from: "ru.po") }
        let language = try plan(text.replacingOccurrences(of: "Language: ru", with: "Language: uk"))
        #expect(language.writes.isEmpty && language.findings.first?.message == "the file is in uk, not ru")
        let unknown = try plan(text.replacingOccurrences(of: "msgctxt \"title\"", with: "msgctxt \"titel\""))
        #expect(unknown.writes.isEmpty && unknown.findings.first?.message == "the bundle has no message \"titel\"")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(unknown.findings.first?.location?.line == lines.firstIndex { $0 == "msgctxt \"title\"" }.map { $0 + 1 })
        let arguments = try plan(text.replacingOccurrences(of: "msgstr \"%d из %@\"", with: "msgstr \"%@ из %d\""))
        #expect(arguments.writes.isEmpty && arguments.findings.contains { $0.message.contains("argument 1 is %@ (object)") })
        do {
            _ = try plan(text + "\nmsgctxt \"x\"\nmsgid \"y\"\nmsgstr \"z\" trailing\n")
            Issue.record("a broken line was read")
        } catch let error as XMLError {
            #expect(error.location.line == lines.count + 3)
            #expect(error.message == "text after the string's closing quote")
        }
        let fuzzy = try plan(
            text.replacingOccurrences(of: "msgctxt \"empty\"", with: "#, fuzzy\nmsgctxt \"empty\"").replacingOccurrences(
                of: "msgid \"Nothing selected\"\nmsgstr \"\"", with: "msgid \"Nothing selected\"\nmsgstr \"Ничего\""))
        #expect(fuzzy.writes.isEmpty && fuzzy.unfinished == 1)
    }
}
