import Foundation
import LprojExchange
import LprojTables
import Testing

/// `.strings` and `.stringsdict` tables: export units as Xcode names them,
/// import back keeping every other byte, plurals in the target language's
/// categories.
@Suite struct TableExchangeTests {
    static let tool = XLIFFDocument.Tool(id: "org.lprojd.lprojctl", name: "lprojctl", version: "test")

    static let english = """
        /* The window's title */
        "title" = "Files";

        // Shown when nothing is selected
        "empty" = "Nothing selected";
        "count" = "%d of %@";
        "shorthand";
        """

    static let englishPlurals = plurals(one: "%d file selected", other: "%d files selected")
    static let russianPlurals = plurals(one: "Выбран %d файл", other: "Выбрано %d файла")

    /// A `.stringsdict` of one plural, `files.selected`, with these two forms.
    static func plurals(one: String, other: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>files.selected</key>
            <dict>
                <key>NSStringLocalizedFormatKey</key>
                <string>%#@files@</string>
                <key>files</key>
                <dict>
                    <key>NSStringFormatSpecTypeKey</key>
                    <string>NSStringPluralRuleType</string>
                    <key>NSStringFormatValueTypeKey</key>
                    <string>d</string>
                    <key>one</key>
                    <string>\(one)</string>
                    <key>other</key>
                    <string>\(other)</string>
                </dict>
            </dict>
        </dict>
        </plist>

        """
    }

    /// Russian's `.strings` in UTF-16LE with a byte order mark, as vlc-ios keeps its tables.
    static func utf16(_ text: String) -> [UInt8] {
        [0xFF, 0xFE] + text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    }

    static let russian = "/* Заголовок */\n\"title\" = \"Файлы\";\n\"count\" = \"%d из %@\";\n"

    static func bundle() -> ExchangeBundle {
        ExchangeBundle(
            files: [
                "en.lproj/Localizable.strings": Array(english.utf8), "en.lproj/Localizable.stringsdict": Array(englishPlurals.utf8),
                "ru.lproj/Localizable.strings": utf16(russian), "ru.lproj/Localizable.stringsdict": Array(russianPlurals.utf8),
            ], developmentFolder: "en")
    }

    func units(_ document: XLIFFDocument, _ original: String) -> [XLIFFDocument.Unit] {
        document.files.first { $0.original == original }?.units ?? []
    }

    @Test func exportUsesXcodesIDsAndRussiansCategories() throws {
        let exchange = try LocalizationExchange(bundle: Self.bundle(), language: "ru")
        let (document, problems) = exchange.xliffDocument(tool: Self.tool)
        #expect(problems.isEmpty)
        #expect(document.files.map(\.original) == ["en.lproj/Localizable.strings", "en.lproj/Localizable.stringsdict"])
        #expect(document.files.allSatisfy { $0.sourceLanguage == "en" && $0.targetLanguage == "ru" })
        let strings = units(document, "en.lproj/Localizable.strings")
        #expect(strings.map(\.id) == ["count", "empty", "shorthand", "title"])
        #expect(strings.first { $0.id == "title" }?.note == "The window's title")
        #expect(strings.first { $0.id == "empty" }?.note == "Shown when nothing is selected")
        #expect(strings.first { $0.id == "count" }?.note == nil)
        #expect(strings.first { $0.id == "title" }?.target == "Файлы")
        #expect(strings.first { $0.id == "title" }?.state == "translated")
        // Untranslated: no target.
        #expect(strings.first { $0.id == "empty" }?.target == nil)
        #expect(strings.first { $0.id == "shorthand" }?.source == "shorthand")
        let plurals = units(document, "en.lproj/Localizable.stringsdict")
        #expect(
            plurals.map(\.id) == [
                "/files.selected:dict/NSStringLocalizedFormatKey:dict/:string", "/files.selected:dict/files:dict/few:dict/:string",
                "/files.selected:dict/files:dict/many:dict/:string", "/files.selected:dict/files:dict/one:dict/:string",
                "/files.selected:dict/files:dict/other:dict/:string",
            ])
        // Russian's few and many, which English lacks: English `other` as source, no target yet.
        let few = try #require(plurals.first { $0.id.contains("/few:") })
        #expect(few.source == "%d files selected" && few.target == nil)
        #expect(plurals.first { $0.id.contains("/one:") }?.target == "Выбран %d файл")
    }

    func translated(_ document: XLIFFDocument, _ targets: [String: String]) -> XLIFFDocument {
        var document = document
        for file in document.files.indices {
            for unit in document.files[file].units.indices {
                if let target = targets[document.files[file].units[unit].id] {
                    document.files[file].units[unit].target = target
                    document.files[file].units[unit].state = "translated"
                }
            }
        }
        return document
    }

    @Test func importWritesBackKeepingEveryOtherByte() throws {
        let exchange = try LocalizationExchange(bundle: Self.bundle(), language: "ru")
        let (exported, _) = exchange.xliffDocument(tool: Self.tool)
        let document = translated(
            exported,
            [
                "title": "Файлы и папки", "empty": "Ничего не выбрано", "shorthand": "сокращение",
                "/files.selected:dict/files:dict/few:dict/:string": "Выбрано %d файла",
                "/files.selected:dict/files:dict/many:dict/:string": "Выбрано %d файлов",
                "/files.selected:dict/files:dict/other:dict/:string": "Выбрано %d файла (всего)",
            ])
        // Through the bytes, as a translator's tool would hand it back.
        let plan = exchange.importing(try XLIFFReader.read(XLIFFWriter.write(document)), from: "ru.xliff")
        #expect(!plan.hasErrors, "\(plan.findings)")
        #expect(plan.findings.isEmpty, "\(plan.findings)")
        #expect(plan.imported == 6)
        let writes = Dictionary(uniqueKeysWithValues: plan.writes.map { ($0.path, $0.bytes) })
        #expect(writes.keys.sorted() == ["ru.lproj/Localizable.strings", "ru.lproj/Localizable.stringsdict"])
        // The .strings file stays UTF-16LE; the value is replaced where it was; new keys are appended with their comments.
        let strings = try #require(writes["ru.lproj/Localizable.strings"])
        #expect(
            strings
                == Self.utf16(
                    "/* Заголовок */\n\"title\" = \"Файлы и папки\";\n\"count\" = \"%d из %@\";\n"
                        + "\n/* Shown when nothing is selected */\n\"empty\" = \"Ничего не выбрано\";\n\n\"shorthand\" = \"сокращение\";\n")
        )
        // The .stringsdict: `other` replaced in place, few and many inserted, indented as their neighbours.
        let plist = String(decoding: try #require(writes["ru.lproj/Localizable.stringsdict"]), as: UTF8.self)
        let expected = Self.russianPlurals.replacingOccurrences(
            of: "            <string>Выбрано %d файла</string>\n        </dict>",
            with:
                "            <string>Выбрано %d файла (всего)</string>\n            <key>few</key>\n            <string>Выбрано %d файла</string>\n"
                + "            <key>many</key>\n            <string>Выбрано %d файлов</string>\n        </dict>")
        #expect(expected != Self.russianPlurals)
        #expect(plist == expected, "\(firstDifference(plist, expected))")
        let parsed = try StringsdictParser().parse(Array(plist.utf8))
        #expect(parsed.entries["files.selected"]?.variables["files"]?.forms.count == 4)
    }

    @Test func aLanguageWithoutFilesGetsNewOnes() throws {
        let exchange = try LocalizationExchange(bundle: Self.bundle(), language: "de")
        #expect(exchange.targetFolder == "de")
        let (exported, _) = exchange.xliffDocument(tool: Self.tool)
        let document = translated(
            exported,
            [
                "title": "Dateien", "/files.selected:dict/files:dict/one:dict/:string": "%d Datei ausgewählt",
                "/files.selected:dict/files:dict/other:dict/:string": "%d Dateien ausgewählt",
            ])
        let plan = exchange.importing(document, from: "de.xliff")
        #expect(!plan.hasErrors, "\(plan.findings)")
        let writes = Dictionary(uniqueKeysWithValues: plan.writes.map { ($0.path, $0.bytes) })
        #expect(
            String(decoding: try #require(writes["de.lproj/Localizable.strings"]), as: UTF8.self)
                == "/* The window's title */\n\"title\" = \"Dateien\";\n")
        let plist = try StringsdictParser().parse(try #require(writes["de.lproj/Localizable.stringsdict"]))
        #expect(plist.entries["files.selected"]?.formatKey == "%#@files@")
        #expect(
            plist.entries["files.selected"]?.variables["files"]?.forms == [.one: "%d Datei ausgewählt", .other: "%d Dateien ausgewählt"])
        #expect(plist.entries["files.selected"]?.variables["files"]?.valueTypeText == "d")
    }

    @Test func exportThenImportChangesNothing() throws {
        for language in ["ru", "de", "fr"] {
            let exchange = try LocalizationExchange(bundle: Self.bundle(), language: language)
            let (exported, _) = exchange.xliffDocument(tool: Self.tool)
            let plan = exchange.importing(try XLIFFReader.read(XLIFFWriter.write(exported)), from: "x.xliff")
            #expect(plan.findings.isEmpty && plan.writes.isEmpty, "\(language): \(plan.findings)")
        }
    }
}
