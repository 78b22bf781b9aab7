import Foundation
import LprojExchange
import Testing

/// The real `lproj-extract` (and `lprojctl extract`, which runs it) on a
/// small app: tables written, a second run changing nothing, `--check`.
@Suite struct CommandTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let extractor = package.appendingPathComponent(".build/debug/lproj-extract").path
    static let lprojctl = package.deletingLastPathComponent().appendingPathComponent(".build/debug/lprojctl").path

    struct Finished {
        let status: Int32
        let output: String
    }

    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Finished {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Finished(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// A small app in a temporary directory: `Sources/` with these files
    /// (a Swift view, an Objective-C menu), `Resources/` for its tables.
    struct App {
        let root: URL
        var sources: URL { root.appendingPathComponent("Sources") }
        var bundle: URL { root.appendingPathComponent("Resources") }

        init(view: String) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("lproj-extract-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources"), withIntermediateDirectories: true)
            try Data(view.utf8).write(to: sources.appendingPathComponent("View.swift"))
            try Data(#"x = NSLocalizedStringFromTable(@"file", @"Menu", @"The File menu");"#.utf8)
                .write(to: sources.appendingPathComponent("Menu.m"))
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    @Test func extractWritesOnceChecksAndReportsWhatTheCodeDropped() throws {
        let app = try App(view: "Text(\"hello\", comment: \"Greets\")\nText(\"bye\")\n")
        defer { app.remove() }
        let sources = app.sources, bundle = app.bundle

        let first = try Self.run(Self.extractor, [sources.path, "-o", bundle.path])
        #expect(first.status == 0, "\(first.output)")
        let localizable = bundle.appendingPathComponent("en.lproj/Localizable.strings")
        #expect(try String(contentsOf: localizable, encoding: .utf8) == "\"bye\" = \"bye\";\n\n/* Greets */\n\"hello\" = \"hello\";\n")
        #expect(
            try String(contentsOf: bundle.appendingPathComponent("en.lproj/Menu.strings"), encoding: .utf8)
                == "/* The File menu */\n\"file\" = \"file\";\n")

        // A translator's value is kept; a second run writes nothing.
        try Data("\"bye\" = \"See you\";\n\n/* Greets */\n\"hello\" = \"Hello!\";\n".utf8).write(to: localizable)
        let second = try Self.run(Self.extractor, [sources.path, "-o", bundle.path])
        #expect(second.status == 0 && !second.output.contains("added"), "\(second.output)")
        #expect(try String(contentsOf: localizable, encoding: .utf8).contains("\"Hello!\""))
        #expect(try Self.run(Self.extractor, [sources.path, "-o", bundle.path, "--check"]).status == 0)

        // The code changes: a new key, a key dropped.
        try Data("Text(\"hello\")\nText(\"new.key\")\n".utf8).write(to: sources.appendingPathComponent("View.swift"))
        let check = try Self.run(Self.extractor, [sources.path, "-o", bundle.path, "--check"])
        #expect(check.status == 1)
        #expect(check.output.contains("lacks \"new.key\"") && check.output.contains("\"bye\" is no longer used by the code"))
        #expect(!(try String(contentsOf: localizable, encoding: .utf8).contains("new.key")), "--check changes nothing")

        // Through lprojctl (built by the main package), which runs lproj-extract.
        if FileManager.default.isExecutableFile(atPath: Self.lprojctl) {
            let through = try Self.run(
                Self.lprojctl, ["extract", sources.path, "-o", bundle.path], environment: ["LPROJ_EXTRACT": Self.extractor])
            #expect(through.status == 0, "\(through.output)")
            #expect(try String(contentsOf: localizable, encoding: .utf8).hasSuffix("\"new.key\" = \"new.key\";\n"))
            #expect(through.output.contains("\"bye\" is no longer used by the code"))
        }
    }
}

/// `--references`: where the code uses each key, for the `#:` comments of
/// `lprojctl po export --references`.
@Suite struct ReferencesCommandTests {
    @Test func placesReachThePOTemplate() throws {
        let app = try CommandTests.App(view: "Text(\"hello\", comment: \"Greets\")\n\nText(\"hello\")\n")
        defer { app.remove() }
        let root = app.root, sources = app.sources, bundle = app.bundle
        try #require(try CommandTests.run(CommandTests.extractor, [sources.path, "-o", bundle.path]).status == 0)

        // Without -o, the references are all it writes; paths as given, from the directory it runs in.
        let references = root.appendingPathComponent("references.json")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandTests.extractor)
        process.arguments = ["./Sources", "--references", references.path]
        process.currentDirectoryURL = root
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let places = try SourceReferences(json: [UInt8](try Data(contentsOf: references)))
        #expect(places.places(table: "Localizable", key: "hello") == ["Sources/View.swift:1", "Sources/View.swift:3"])
        #expect(places.places(table: "Menu", key: "file") == ["Sources/Menu.m:1"])

        let lprojctl = try #require(
            FileManager.default.isExecutableFile(atPath: CommandTests.lprojctl) ? CommandTests.lprojctl : nil,
            "make test-extract builds lprojctl first")
        let template = root.appendingPathComponent("app.pot")
        let export = try CommandTests.run(
            lprojctl, ["po", "export", bundle.path, "--template", "-o", template.path, "--references", references.path])
        #expect(export.status == 0 && export.output.contains("2 messages, 0 plural, 2 with places in the code"), "\(export.output)")
        let text = try String(contentsOf: template, encoding: .utf8)
        #expect(text.contains("#. Greets\n#: Sources/View.swift:1 Sources/View.swift:3\nmsgctxt \"hello\"\n"), "\(text)")
        #expect(text.contains("#: Sources/Menu.m:1\nmsgctxt \"Menu:file\"\n"))

        // A file that is not a references file is refused by name.
        let wrong = try CommandTests.run(
            lprojctl, ["po", "export", bundle.path, "--template", "-o", template.path, "--references", template.path])
        #expect(wrong.status != 0 && wrong.output.contains("\(template.path): error: not a references file"), "\(wrong.output)")
        #expect(try CommandTests.run(CommandTests.extractor, [sources.path]).output.contains("give -o BUNDLE_DIR"))
    }
}

@Suite struct CatalogCommandTests {
    @Test func anExistingCatalogIsMergedAndDroppedKeysGoStale() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lproj-extract-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let sources = root.appendingPathComponent("Sources"), bundle = root.appendingPathComponent("Resources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data("Text(\"kept\")\nText(\"added\", comment: \"New\")\n".utf8).write(to: sources.appendingPathComponent("V.swift"))
        let catalog = bundle.appendingPathComponent("Localizable.xcstrings")
        try Data(
            """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "dropped" : {
                  "localizations" : {
                    "de" : {
                      "stringUnit" : {
                        "state" : "translated",
                        "value" : "Weg"
                      }
                    }
                  }
                },
                "kept" : {

                }
              },
              "version" : "1.0"
            }
            """.utf8
        ).write(to: catalog)
        #expect(try CommandTests.run(CommandTests.extractor, [sources.path, "-o", bundle.path, "--check"]).status == 1)
        let run = try CommandTests.run(CommandTests.extractor, [sources.path, "-o", bundle.path])
        #expect(run.status == 0 && run.output.contains("\"dropped\" is no longer used by the code (stale)"), "\(run.output)")
        let text = try String(contentsOf: catalog, encoding: .utf8)
        #expect(
            text.contains("\"added\" : {\n      \"comment\" : \"New\"\n    },\n    \"dropped\" : {\n      \"extractionState\" : \"stale\",")
        )
        #expect(text.contains("\"value\" : \"Weg\""))
        #expect(!FileManager.default.fileExists(atPath: bundle.appendingPathComponent("en.lproj").path))
        #expect(try CommandTests.run(CommandTests.extractor, [sources.path, "-o", bundle.path, "--check"]).status == 0)
    }
}

/// `--routine` and Python sources through the command: every language in
/// one run, and a wrong `--routine` said before anything is read.
@Suite struct RoutineCommandTests {
    @Test func routinesAndPythonInOneRun() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lproj-extract-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let sources = root.appendingPathComponent("Sources"), bundle = root.appendingPathComponent("Resources")
        try FileManager.default.createDirectory(at: sources.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try Data(#"NSString *s = SULocalizedStringFromTableInBundle(@"Update", @"Sparkle", bundle, @"The button");"#.utf8)
            .write(to: sources.appendingPathComponent("Updater.m"))
        try Data("let t = tr(\"swift.key\", \"Menu\")\n".utf8).write(to: sources.appendingPathComponent("App.swift"))
        try Data("print(localizer.localized(\"py.key\", default=\"From Python\"))\nprint(tr(\"py.menu\", \"Menu\"))\n".utf8)
            .write(to: sources.appendingPathComponent("app.py"))
        try Data("#!/usr/bin/env python3\nprint(localizer.localized(\"launcher.key\"))\n".utf8)
            .write(to: sources.appendingPathComponent("bin/app"))

        let arguments = [sources.path, "-o", bundle.path, "--routine", "SULocalizedString", "--routine", "tr:1,2"]
        let run = try CommandTests.run(CommandTests.extractor, arguments)
        #expect(run.status == 0, "\(run.output)")
        #expect(
            try String(contentsOf: bundle.appendingPathComponent("en.lproj/Sparkle.strings"), encoding: .utf8)
                == "/* The button */\n\"Update\" = \"Update\";\n")
        #expect(
            try String(contentsOf: bundle.appendingPathComponent("en.lproj/Menu.strings"), encoding: .utf8)
                == "\"py.menu\" = \"py.menu\";\n\n\"swift.key\" = \"swift.key\";\n")
        #expect(
            try String(contentsOf: bundle.appendingPathComponent("en.lproj/Localizable.strings"), encoding: .utf8)
                == "\"launcher.key\" = \"launcher.key\";\n\n\"py.key\" = \"From Python\";\n")
        #expect(try CommandTests.run(CommandTests.extractor, arguments + ["--check"]).status == 0)
        // Without the routines, their keys are not the code's.
        let without = try CommandTests.run(CommandTests.extractor, [sources.path, "-o", bundle.path, "--check"])
        #expect(without.status == 1 && without.output.contains("\"Update\" is no longer used by the code"), "\(without.output)")
    }

    /// The language panel (panel/) reads its texts through its own routine,
    /// `texts("key", "English", …)`: its tables hold every key its code uses, and no other.
    @Test func thePanelsTablesAreItsCode() throws {
        let repository = CommandTests.package.deletingLastPathComponent()
        let panel = repository.appendingPathComponent("panel")
        let check = try CommandTests.run(
            CommandTests.extractor,
            [
                panel.appendingPathComponent("lprojd_panel").path, "-o", panel.appendingPathComponent("Localizations").path,
                "--check", "--routine", "texts:1,,2",
            ])
        #expect(check.status == 0, "\(check.output)")
    }

    @Test func aWrongRoutineIsSaid() throws {
        let run = try CommandTests.run(CommandTests.extractor, ["/nonexistent", "-o", "/nonexistent", "--routine", "tr:0,2"])
        #expect(run.status == 64)
        #expect(run.output.contains("--routine tr:0,2: the key's position is needed (1 for the first argument)"), "\(run.output)")
        #expect(!run.output.contains("no such file"), "the option is checked first")
    }
}
