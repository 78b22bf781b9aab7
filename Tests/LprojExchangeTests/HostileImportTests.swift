import Foundation
import LprojExchange
import LprojTables
import Testing

/// A translator's file is read as hostile: anything wrong is an error at
/// its line and column, and then nothing is written at all.
@Suite struct HostileImportTests {
    func plan(language: String = "ru", _ edit: (inout String) -> Void) throws -> ImportPlan {
        let exchange = try LocalizationExchange(bundle: TableExchangeTests.bundle(), language: language)
        let (exported, _) = exchange.xliffDocument(tool: TableExchangeTests.tool)
        var text = String(decoding: XLIFFWriter.write(exported), as: UTF8.self)
        // A valid translation besides, so that "nothing written" means something.
        text = text.replacingOccurrences(
            of: "<source>Nothing selected</source>", with: "<source>Nothing selected</source>\n        <target>Ничего</target>")
        edit(&text)
        return exchange.importing(try XLIFFReader.read(Array(text.utf8)), from: "ru.xliff")
    }

    func line(of needle: String, in edit: (inout String) -> Void) throws -> Int {
        let exchange = try LocalizationExchange(bundle: TableExchangeTests.bundle(), language: "ru")
        var text = String(decoding: XLIFFWriter.write(exchange.xliffDocument(tool: TableExchangeTests.tool).0), as: UTF8.self)
        text = text.replacingOccurrences(
            of: "<source>Nothing selected</source>", with: "<source>Nothing selected</source>\n        <target>Ничего</target>")
        edit(&text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.contains(needle) }) + 1
    }

    @Test func validTranslationIsWritten() throws {
        let plan = try plan { _ in }
        #expect(!plan.hasErrors)
        #expect(plan.writes.map(\.path) == ["ru.lproj/Localizable.strings"])
    }

    /// A file's language becomes a folder only as a BCP 47 tag of a known
    /// language, written as the bundle writes its folders; Base and the
    /// development language, whose text everyone falls back to, only when
    /// asked. (`Base` once overwrote Base.lproj/Menu.strings, exit 0; a
    /// language was used raw as a folder's name.)
    @Test func aLanguageBecomesAFolderOnlyAsAKnownTag() throws {
        let bundle = TableExchangeTests.bundle()
        for language in ["Base", "en"] {
            #expect(throws: ExchangeError.self) { try LocalizationExchange(bundle: bundle, language: language) }
            #expect(try LocalizationExchange(bundle: bundle, language: language, intoDevelopmentLanguage: true).language == language)
        }
        #expect(try LocalizationExchange(bundle: bundle, language: "Base", intoDevelopmentLanguage: true).targetFolder == "Base")
        for hostile in ["sv\u{00A0}", " sv", "zz", "x-evil", "sv/../..", "sv.lproj", "", "de-x-evil", "qaa"] {
            #expect(throws: ExchangeError.self, "'\(hostile)' was taken") { try LocalizationExchange(bundle: bundle, language: hostile) }
        }
        // A known tag: the bundle's own folder for it, or the canonical tag,
        // with the bundle's separator.
        #expect(try LocalizationExchange(bundle: bundle, language: "RU").targetFolder == "ru")
        #expect(try LocalizationExchange(bundle: bundle, language: "pt_br").targetFolder == "pt-BR")
        let underscored = ExchangeBundle(
            files: ["en.lproj/A.strings": Array("\"k\" = \"v\";".utf8), "zh_Hans.lproj/A.strings": Array("\"k\" = \"v\";".utf8)],
            developmentFolder: "en")
        #expect(try LocalizationExchange(bundle: underscored, language: "pt-BR").targetFolder == "pt_BR")
    }

    @Test func wrongLanguage() throws {
        let plan = try plan { $0 = $0.replacingOccurrences(of: "target-language=\"ru\"", with: "target-language=\"uk\"") }
        #expect(plan.writes.isEmpty)
        #expect(plan.findings.first?.message == "the file is in uk, not ru")
        #expect(plan.findings.first?.location == SourceLocation(line: 3, column: 3))
    }

    @Test func unitTheBundleLacks() throws {
        let edit: (inout String) -> Void = { $0 = $0.replacingOccurrences(of: "trans-unit id=\"title\"", with: "trans-unit id=\"titel\"") }
        let plan = try plan(edit)
        #expect(plan.writes.isEmpty)
        let finding = try #require(plan.findings.first { $0.severity == .error })
        #expect(finding.message == "the bundle has no unit \"titel\" in \"en.lproj/Localizable.strings\"")
        #expect(finding.location == SourceLocation(line: try line(of: "id=\"titel\"", in: edit), column: 7))
        #expect(finding.description.hasPrefix("ru.xliff:\(finding.location!.line):7: error: "))
    }

    @Test func pluralFormTheLanguageLacks() throws {
        let plan = try plan(language: "de") { text in
            text = text.replacingOccurrences(of: "/files:dict/other:dict/:string", with: "/files:dict/few:dict/:string")
        }
        #expect(plan.writes.isEmpty)
        #expect(
            plan.findings.contains {
                $0.message
                    == "\"/files.selected:dict/files:dict/few:dict/:string\": de has no plural category 'few' (it has one, other); not imported"
            })
    }

    @Test func formatSpecifiersThatDiffer() throws {
        let edit: (inout String) -> Void = {
            $0 = $0.replacingOccurrences(of: "<target state=\"translated\">%d из %@</target>", with: "<target>%@ из %d</target>")
        }
        let result = try plan(edit)
        #expect(result.writes.isEmpty)
        let finding = try #require(result.findings.first)
        #expect(finding.message == "\"count\": argument 1 is %@ (object) in the translation but %d (integer) in the source")
        #expect(finding.location == SourceLocation(line: try line(of: "<target>%@ из %d</target>", in: edit), column: 9))
        // An argument the source lacks, and one left out.
        let added = try plan {
            $0 = $0.replacingOccurrences(of: "<target state=\"translated\">Файлы</target>", with: "<target>Файлы %@</target>")
        }
        #expect(added.findings.first?.message == "\"title\": the translation has argument 1 (%@), which the source does not have")
        let dropped = try plan {
            $0 = $0.replacingOccurrences(of: "<target state=\"translated\">%d из %@</target>", with: "<target>%d</target>")
        }
        #expect(dropped.findings.first?.message == "\"count\": the translation leaves out argument 2 (%@)")
        // A plural form may leave its number out.
        let form = try plan {
            $0 = $0.replacingOccurrences(of: "<target state=\"translated\">Выбран %d файл</target>", with: "<target>Один файл</target>")
        }
        #expect(!form.hasErrors, "\(form.findings)")
    }

    @Test func sourceChangedSinceTheExport() throws {
        let plan = try plan { text in
            text = text.replacingOccurrences(
                of: "<source>Files</source>\n        <target state=\"translated\">Файлы</target>",
                with: "<source>Folders</source>\n        <target state=\"translated\">Папки</target>")
        }
        #expect(!plan.hasErrors)
        #expect(plan.sourceChanged == 1)
        #expect(plan.findings.first?.message.hasPrefix("\"title\": the source changed since the export") == true)
        // The rest is imported; "title" is not.
        #expect(plan.writes.count == 1)
        let table = try StringsParser().parse(plan.writes[0].bytes).table
        #expect(table.value(forKey: "title") == "Файлы")
        #expect(table.value(forKey: "empty") == "Ничего")
    }

    @Test func unfinishedStatesAreNotImported() throws {
        let plan = try plan {
            $0 = $0.replacingOccurrences(of: "<target>Ничего</target>", with: "<target state=\"needs-review-l10n\">Ничего</target>")
        }
        #expect(plan.writes.isEmpty && plan.unfinished == 1 && !plan.hasErrors)
    }

    @Test func structureAndMarkup() throws {
        let cases: [(String, String)] = [
            ("<target>Ничего</target>", "<target>Ни<g id=\"1\">чего</g></target>"),
            ("<xliff xmlns=\"urn:oasis:names:tc:xliff:document:1.2\"", "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\""),
            ("<file original=\"en.lproj/Localizable.strings\"", "<file original=\"en.lproj/Other.strings\""),
            ("<trans-unit id=\"title\" xml:space=\"preserve\">", "<trans-unit id=\"empty\" xml:space=\"preserve\">"),
        ]
        let messages = [
            "inline markup is not imported", "expected XLIFF 1.2's", "the bundle has no table \"en.lproj/Other.strings\"",
            "the unit \"empty\" is given twice",
        ]
        for (index, (original, replacement)) in cases.enumerated() {
            do {
                let plan = try plan { $0 = $0.replacingOccurrences(of: original, with: replacement) }
                #expect(plan.writes.isEmpty)
                #expect(plan.findings.contains { $0.message.contains(messages[index]) }, "\(plan.findings)")
            } catch let error as XMLError {
                #expect(error.message.contains(messages[index]), "\(error)")
            }
        }
    }
}
