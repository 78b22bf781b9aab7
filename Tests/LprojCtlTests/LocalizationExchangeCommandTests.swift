import Foundation
import Testing

/// `lprojctl export-localizations` and `import-localizations` through the
/// real binary, on copies of real bundles, checked with libxml2's xmllint.
@Suite struct LocalizationExchangeCommandTests {
    static func copy(_ source: URL) throws -> URL {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("lprojctl-xcloc-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: source, to: destination)
        return destination
    }

    /// Every file under a directory, with its bytes and modification time.
    static func snapshot(_ directory: URL) throws -> [String: (Data, Date)] {
        var result: [String: (Data, Date)] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)!
        while let path = enumerator.nextObject() as? String {
            let url = directory.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let date = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date ?? Date.distantPast
            result[path] = (try Data(contentsOf: url), date)
        }
        return result
    }

    static func same(_ a: [String: (Data, Date)], _ b: [String: (Data, Date)]) -> Bool {
        a.keys.sorted() == b.keys.sorted() && a.allSatisfy { b[$0.key]!.0 == $0.value.0 && b[$0.key]!.1 == $0.value.1 }
    }

    static func xmllint(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func exportWritesAnXclocThatXmllintAccepts() throws {
        let bundle = try Self.copy(Tool.packageRoot.appendingPathComponent("Examples/DemoApp"))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("lprojctl-out-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: bundle)
            try? FileManager.default.removeItem(at: output)
        }
        let result = try Tool.run("lprojctl", ["export-localizations", bundle.path, "--language", "ru", "-o", output.path])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("ru.xcloc: "))
        let xcloc = output.appendingPathComponent("ru.xcloc")
        let xliff = xcloc.appendingPathComponent("Localized Contents/ru.xliff")
        for file in [
            "contents.json", "Localized Contents/ru.xliff", "Source Contents/en.lproj/Localizable.strings",
            "Source Contents/en.lproj/Localizable.stringsdict", "Source Contents/Base.lproj/Menu.strings",
        ] {
            #expect(FileManager.default.fileExists(atPath: xcloc.appendingPathComponent(file).path), "\(file)")
        }
        let contents = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: xcloc.appendingPathComponent("contents.json"))) as? [String: Any])
        #expect(contents["targetLocale"] as? String == "ru")
        #expect(contents["developmentRegion"] as? String == "en")
        // libxml2 reads it, namespaces and all, with no network.
        let lint = try Self.xmllint(["--noout", "--nonet", xliff.path])
        #expect(lint.status == 0, "\(lint.errors)")
        let text = try String(contentsOf: xliff, encoding: .utf8)
        #expect(text.contains(#"<trans-unit id="/files.selected:dict/files:dict/many:dict/:string" xml:space="preserve">"#))
        #expect(text.contains(#"<file original="Base.lproj/Menu.strings" source-language="en" target-language="ru" datatype="plaintext">"#))
    }

    @Test func roundTripChangesNothingThenAnEditChangesItsLine() throws {
        let bundle = try Self.copy(Tool.packageRoot.appendingPathComponent("Examples/DemoApp"))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("lprojctl-out-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: bundle)
            try? FileManager.default.removeItem(at: output)
        }
        #expect(try Tool.run("lprojctl", ["export-localizations", bundle.path, "--language", "de", "-o", output.path]).status == 0)
        let before = try Self.snapshot(bundle)
        let xcloc = output.appendingPathComponent("de.xcloc")
        let unchanged = try Tool.run("lprojctl", ["import-localizations", bundle.path, xcloc.path])
        #expect(unchanged.status == 0, "\(unchanged.errors)")
        #expect(unchanged.output.hasPrefix("imported 0 translations"))
        #expect(Self.same(before, try Self.snapshot(bundle)))

        let xliff = xcloc.appendingPathComponent("Localized Contents/de.xliff")
        var text = try String(contentsOf: xliff, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "<target state=\"translated\">Einstellungen</target>", with: "<target state=\"translated\">Optionen</target>")
        try Data(text.utf8).write(to: xliff)
        let edited = try Tool.run("lprojctl", ["import-localizations", bundle.path, xcloc.path])
        #expect(edited.status == 0, "\(edited.errors)")
        #expect(edited.output.hasPrefix("imported 1 translation into de.lproj/Localizable.strings"))
        let german = bundle.appendingPathComponent("de.lproj/Localizable.strings")
        let old = String(decoding: before["de.lproj/Localizable.strings"]!.0, as: UTF8.self)
        #expect(try String(contentsOf: german, encoding: .utf8) == old.replacingOccurrences(of: "\"Einstellungen\"", with: "\"Optionen\""))
        let after = try Self.snapshot(bundle)
        #expect(after.keys.filter { after[$0]!.0 != before[$0]!.0 } == ["de.lproj/Localizable.strings"])
        // No temporary file is left behind.
        #expect(after.keys.allSatisfy { !$0.contains(".lprojctl-") })
    }

    @Test func badInputChangesNoFile() throws {
        let bundle = try Self.copy(Tool.packageRoot.appendingPathComponent("Examples/DemoApp"))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("lprojctl-out-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: bundle)
            try? FileManager.default.removeItem(at: output)
        }
        #expect(try Tool.run("lprojctl", ["export-localizations", bundle.path, "--language", "fr", "-o", output.path]).status == 0)
        let xliff = output.appendingPathComponent("fr.xcloc/Localized Contents/fr.xliff")
        let exported = try String(contentsOf: xliff, encoding: .utf8)
        let before = try Self.snapshot(bundle)
        // One good translation and one whose arguments differ: neither is written.
        var text = exported.replacingOccurrences(of: ">Réglages</target>", with: ">Paramètres</target>")
        text = text.replacingOccurrences(of: ">Vous avez %d messages non lus</target>", with: ">Vous avez %@ messages non lus</target>")
        try Data(text.utf8).write(to: xliff)
        let mismatch = try Tool.run("lprojctl", ["import-localizations", bundle.path, xliff.path])
        #expect(mismatch.status == 1)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("%@ messages non lus") }! + 1
        #expect(
            mismatch.errors.contains(
                "\(xliff.path):\(line):9: error: \"inbox.unread\": argument 1 is %@ (object) in the translation but %d (integer) in the source"
            ),
            "\(mismatch.errors)")
        #expect(mismatch.errors.contains("nothing was imported: 1 error"))
        #expect(Self.same(before, try Self.snapshot(bundle)))
        // Broken XML: the reader's own error, at its place.
        try Data((exported + "<extra/>").utf8).write(to: xliff)
        let broken = try Tool.run("lprojctl", ["import-localizations", bundle.path, xliff.path])
        #expect(broken.status == 1)
        let lines = exported.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(broken.errors.contains("\(xliff.path):\(lines):1: error: a second root element"), "\(broken.errors)")
        // An entity: refused before anything is read.
        try Data(
            exported.replacingOccurrences(of: "<xliff ", with: "<!DOCTYPE xliff [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n<xliff ").utf8
        )
        .write(to: xliff)
        let xxe = try Tool.run("lprojctl", ["import-localizations", bundle.path, xliff.path])
        #expect(xxe.status == 1 && xxe.errors.contains(":2:1: error: a document type declaration is not accepted"), "\(xxe.errors)")
        #expect(Self.same(before, try Self.snapshot(bundle)))
    }

    /// A corpus bundle in UTF-16 with duplicate keys, through the binary: nothing changes on disk.
    @Test func corpusBundleRoundTripsOnDisk() throws {
        let bundle = try Self.copy(Tool.corpus.appendingPathComponent("supplement/home-assistant-ios/Sources/App/Resources"))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("lprojctl-out-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: bundle)
            try? FileManager.default.removeItem(at: output)
        }
        let before = try Self.snapshot(bundle)
        let languages = before.keys.compactMap { $0.split(separator: "/").first }.filter { $0.hasSuffix(".lproj") && $0 != "en.lproj" }
        for language in Set(languages).map({ String($0.dropLast(6)) }).sorted() {
            let export = try Tool.run("lprojctl", ["export-localizations", bundle.path, "--language", language, "-o", output.path])
            #expect(export.status == 0, "\(language): \(export.errors)")
            let xliff = output.appendingPathComponent("\(language).xcloc/Localized Contents/\(language).xliff")
            #expect(try Self.xmllint(["--noout", "--nonet", xliff.path]).status == 0)
            let result = try Tool.run(
                "lprojctl", ["import-localizations", bundle.path, output.appendingPathComponent("\(language).xcloc").path])
            #expect(result.status == 0, "\(language): \(result.errors)")
            #expect(result.output.hasPrefix("imported 0 translations"), "\(language): \(result.output)")
        }
        #expect(Self.same(before, try Self.snapshot(bundle)))
    }
}
