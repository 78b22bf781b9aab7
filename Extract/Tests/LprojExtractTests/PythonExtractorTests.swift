import Foundation
import Testing
@testable import LprojExtract

/// Python sources, read by Python's own parser (`python3` runs `ast`).
@Suite struct PythonExtractorTests {
    func extract(_ source: String, routines: [String] = []) throws -> ExtractionResult {
        try PythonExtractor(routines: routines.map { try Routine($0) }).extract([(path: "app.py", text: source)])
    }

    @Test func theLocalizersCalls() throws {
        let result = try extract(
            #"""
            import codecs
            import unicodedata as ud
            from lprojd import Localizer

            def render(localizer, self, name, key):
                a = localizer.localized("welcome.title")
                b = localizer.localized("menu.file", table="Menu", default="File")
                c = localizer.lookup("positional", "Extra", "Positional default")
                d = self.localizer.localized("greeting", placeholders={"name": "Ada"})
                e = localizer.localized("files.selected", arguments=[3])
                f = localizer.localized("joined " 'across '
                                        "lines", None, None)
                g = localizer.lookup_with_placeholders("gi.key", None, "From gi", {"name": "Ada"})
                é = "x"; h = localizer.localized("after.unicode")
                i = localizer.localized(key)
                j = localizer.localized(f"user.{name}")
                k = localizer.localized("")
                l = localizer.localized(b"bytes")
                m = codecs.lookup("utf-8")
                n = ud.lookup("SNOWMAN")
                o = lookup("a bare call")
                p = localizer.localized(table="Menu", key="by.keyword")

            async def later(localizer):
                return await localizer.formatted("inbox.unread", [4], "Mail", "You have mail")
            """#)
        #expect(
            result.strings.map(\.key) == [
                "welcome.title", "menu.file", "positional", "greeting", "files.selected", "joined across lines", "gi.key", "after.unicode",
                "by.keyword", "inbox.unread",
            ])
        let byKey = Dictionary(uniqueKeysWithValues: result.strings.map { ($0.key, $0) })
        #expect(byKey["welcome.title"]?.table == "Localizable" && byKey["welcome.title"]?.defaultValue == nil)
        #expect(byKey["welcome.title"]?.location == Location(file: "app.py", line: 6, column: 29))
        #expect(byKey["menu.file"]?.table == "Menu" && byKey["menu.file"]?.defaultValue == "File")
        #expect(byKey["positional"]?.table == "Extra" && byKey["positional"]?.defaultValue == "Positional default")
        #expect(byKey["joined across lines"]?.table == "Localizable" && byKey["joined across lines"]?.location.line == 11)
        #expect(byKey["gi.key"]?.defaultValue == "From gi")
        // Columns count UTF-8 bytes, as Swift's and C's do: `é` is two.
        #expect(byKey["after.unicode"]?.location == Location(file: "app.py", line: 14, column: 39))
        #expect(byKey["by.keyword"]?.table == "Menu")
        #expect(byKey["inbox.unread"]?.table == "Mail" && byKey["inbox.unread"]?.defaultValue == "You have mail")
        #expect(result.strings.allSatisfy { $0.comment == nil })
        // The f-string is said; a variable passed to a method that other
        // objects have too is not.
        #expect(result.warnings.map(\.location) == [Location(file: "app.py", line: 16, column: 29)])
        #expect(result.warnings.first?.message.contains("f-string") == true)
    }

    @Test func routinesByPositionAndKeyword() throws {
        let result = try extract(
            #"""
            from i18n import _, tr
            import i18n

            TITLE = _("window.title")
            MENU = tr("menu.quit", "Menu", None, "The Quit item")
            HELP = i18n.tr("help", comment="Opens the manual", table="Help")
            NOTE = tr("note", default="A note")
            KEY = _(variable)
            NAME = _(f"hello {name}")
            NONE = tr()
            SAME = localizer.localized("still.found")
            """#,
            routines: ["_", "tr:1,2,3,4"])
        #expect(result.strings.map(\.key) == ["window.title", "menu.quit", "help", "note", "still.found"])
        let byKey = Dictionary(uniqueKeysWithValues: result.strings.map { ($0.key, $0) })
        #expect(byKey["window.title"]?.table == "Localizable" && byKey["window.title"]?.comment == nil)
        #expect(byKey["menu.quit"]?.table == "Menu" && byKey["menu.quit"]?.comment == "The Quit item")
        #expect(byKey["menu.quit"]?.defaultValue == nil)
        #expect(byKey["help"]?.table == "Help" && byKey["help"]?.comment == "Opens the manual")
        #expect(byKey["note"]?.defaultValue == "A note")
        #expect(result.warnings.map(\.location.line) == [8, 9, 10])
        #expect(result.warnings[0].message == "_: the key is not a string literal, so it cannot be extracted; add it to the table by hand")
        #expect(result.warnings[1].message.contains("f-string"))
        #expect(result.warnings[2].message.contains("no argument 1 (the key)"))
        // Without the routines: only the localizer's call.
        #expect(try extract("x = localizer.localized(\"k\")\ny = _(\"n\")").strings.map(\.key) == ["k"])
    }

    @Test func aFileThatDoesNotParseIsSaidAndTheOthersAreRead() throws {
        let result = try PythonExtractor().extract([
            (path: "broken.py", text: "def f(:\n    pass\n"),
            (path: "good.py", text: "x = localizer.localized(\"fine\")\n"),
        ])
        #expect(result.strings.map(\.key) == ["fine"])
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.location.file == "broken.py" && result.warnings.first?.location.line == 1)
        #expect(result.warnings.first?.message.hasPrefix("not read: ") == true)
    }

    @Test func withoutPythonItSaysSo() {
        #expect(throws: PythonExtractor.Failure.self) {
            try PythonExtractor(python: "/nonexistent/python3").extract([(path: "a.py", text: "")])
        }
        // No Python files, no Python needed.
        #expect((try? PythonExtractor(python: "/nonexistent/python3").extract([])) != nil)
    }

    @Test func scriptsAreKnownByTheirFirstLine() {
        #expect(SourceLanguage(fileName: "bin/app", firstLine: "#!/usr/bin/env python3") == .python)
        #expect(SourceLanguage(fileName: "bin/app", firstLine: "#!/usr/bin/env -S python3 -I") == .python)
        #expect(SourceLanguage(fileName: "bin/app", firstLine: "#!/usr/bin/python3.11") == .python)
        #expect(SourceLanguage(fileName: "bin/app", firstLine: "#!/bin/sh") == nil)
        #expect(SourceLanguage(fileName: "bin/app", firstLine: "import os") == nil)
        #expect(SourceLanguage(fileName: "notes.txt", firstLine: "#!/usr/bin/env python3") == nil)
        #expect(SourceLanguage(fileName: "main.py", firstLine: "") == .python)
    }

    /// The repository's own Python apps: the GTK demo asks the localizer
    /// for literal keys, every one of them in the demo bundle it shows; the
    /// language panel is not localized, and gives nothing.
    @Test func theExamplesMatchTheirBundle() throws {
        let root = CommandTests.package.deletingLastPathComponent()
        func sources(_ folder: String) throws -> [(path: String, language: SourceLanguage, text: String)] {
            let directory = root.appendingPathComponent(folder)
            let names = try FileManager.default.subpathsOfDirectory(atPath: directory.path).sorted()
            return try names.compactMap { name in
                let url = directory.appendingPathComponent(name)
                let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
                guard let language = SourceLanguage(fileName: name, firstLine: String(text.prefix { $0 != "\n" })) else { return nil }
                return (path: url.path, language: language, text: text)
            }
        }
        let demo = try Extraction().extract(try sources("Examples/GtkDemo"))
        #expect(demo.warnings.isEmpty, "\(demo.warnings)")
        let found = Set(demo.strings.map { "\($0.table)/\($0.key)" })
        #expect(
            found == [
                "Localizable/welcome.title", "Localizable/greeting", "Localizable/settings.title", "Localizable/files.selected",
                "Localizable/inbox.unread", "Menu/menu.file", "Menu/menu.edit", "Menu/menu.help",
            ])
        // Every key is in the development tables the demo bundle has (Menu in Base).
        let bundle = root.appendingPathComponent("Examples/DemoApp")
        var keys: Set<String> = []
        for (table, file) in [
            ("Localizable", "en.lproj/Localizable.strings"), ("Localizable", "en.lproj/Localizable.stringsdict"),
            ("Menu", "Base.lproj/Menu.strings"),
        ] {
            let data = try Data(contentsOf: bundle.appendingPathComponent(file))
            let entries = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
            keys.formUnion(entries.keys.map { "\(table)/\($0)" })
        }
        #expect(found.subtracting(keys).isEmpty, "not in the bundle: \(found.subtracting(keys))")

        let panel = try sources("panel")
        #expect(panel.contains { $0.path.hasSuffix("/lprojd-panel") && $0.language == .python }, "the launcher, by its #! line")
        let nothing = try Extraction().extract(panel)
        #expect(nothing.strings.isEmpty && nothing.warnings.isEmpty, "\(nothing.strings) \(nothing.warnings)")
    }
}
