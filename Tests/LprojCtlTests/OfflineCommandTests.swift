import Foundation
import Testing

@Suite struct OfflineCommandTests {
    @Test func lintPrintsCompilerStyleLinesAndFails() throws {
        let file = Tool.corpus.appendingPathComponent("vlc-ios/Resources/ko.lproj/Localizable.strings").path
        let result = try Tool.run("lprojctl", ["lint", file])
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "\(file):840:36: error: \"ADD_ALERT_MESSAGE_MULTIPLE\": argument 1 is %@ (object) here but %d (integer) in en"))
        #expect(result.errors.contains("error"))
    }

    @Test func lintJSON() throws {
        let file = Tool.corpus.appendingPathComponent("vlc-ios/Resources/ja.lproj/Localizable.strings").path
        let result = try Tool.run("lprojctl", ["lint", "--json", file])
        #expect(result.status == 1)
        let findings = try #require(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        let hit = try #require(findings.first { $0["key"] as? String == "ADD_ALERT_MESSAGE_MULTIPLE" })
        #expect(hit["severity"] as? String == "error")
        #expect(hit["line"] as? Int == 840)
        #expect(hit["file"] as? String == file)
    }

    /// An app's shipped snapshots: one per locale, whole, checked; a
    /// damaged one is refused with the reason.
    @Test func snapshotWritesEachLocaleAndChecksThem() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("snapshots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let demo = Tool.packageRoot.appendingPathComponent("Examples/DemoApp").path
        let written = try Tool.run("lprojctl", ["snapshot", demo, "-o", output.path, "--name", "demo"])
        #expect(written.status == 0, "\(written.errors)")
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(files.contains("ru.lprojsnap") && files.contains("zh-Hant.lprojsnap") && files.count == 10, "\(files)")
        let russian = output.appendingPathComponent("ru.lprojsnap")
        let checked = try Tool.run("lprojctl", ["snapshot", "--check", russian.path])
        #expect(checked.status == 0 && checked.output.contains("demo ru, 11 entries"), "\(checked.output)\(checked.errors)")
        var bytes = try Data(contentsOf: russian)
        bytes[bytes.count - 3] ^= 0x20
        try bytes.write(to: russian)
        let damaged = try Tool.run("lprojctl", ["snapshot", "--check", russian.path])
        #expect(damaged.status == 1 && damaged.errors.contains("checksum is wrong"), "\(damaged.errors)")
    }

    @Test func lintSucceedsOnCleanTables() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lprojctl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("en.lproj"), withIntermediateDirectories: true)
        try Data("\"a\" = \"b %@\";\n".utf8).write(to: root.appendingPathComponent("en.lproj/Localizable.strings"))
        let result = try Tool.run("lprojctl", ["lint", root.path])
        #expect(result.status == 0)
        #expect(result.output.isEmpty)
        #expect(result.errors == "0 errors, 0 warnings\n")
    }

    /// `dump` prints what Foundation reads from the file, as JSON whose keys
    /// are in code-point order.
    @Test(arguments: [
        "vlc-ios/Resources/ko.lproj/Localizable.strings",
        "duckduckgo-ios/DuckDuckGo/ro.lproj/Localizable.stringsdict",
        "supplement/iina/iina/he.lproj/InfoPlist.strings",
    ])
    func dumpMatchesFoundation(_ relativePath: String) throws {
        let path = Tool.corpus.appendingPathComponent(relativePath).path
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let reference = try #require(try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? NSDictionary)
        let result = try Tool.run("lprojctl", ["dump", path])
        #expect(result.status == 0, "\(result.errors)")
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? NSDictionary)
        #expect(printed == reference)
        #expect(printed.count > 0)
    }

    /// Keys print in code-point order at every level, indented by two
    /// spaces, with JSON's escapes; printing twice gives the same bytes.
    @Test func dumpPrintsKeysInCodePointOrder() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lprojctl-\(UUID().uuidString).strings")
        defer { try? FileManager.default.removeItem(at: file) }
        let keys = ["b", "B", "a10", "a9", "é", "e", "Z", "_x", "😀"]
        try Data(keys.map { "\"\($0)\" = \"v \\\"\($0)\\\"\\n/\";\n" }.joined().utf8).write(to: file)
        let result = try Tool.run("lprojctl", ["dump", file.path])
        #expect(result.status == 0, "\(result.errors)")
        let expected =
            "{\n"
            + [
                #""B" : "v \"B\"\n/""#, #""Z" : "v \"Z\"\n/""#, #""_x" : "v \"_x\"\n/""#, #""a10" : "v \"a10\"\n/""#,
                #""a9" : "v \"a9\"\n/""#, #""b" : "v \"b\"\n/""#, #""e" : "v \"e\"\n/""#,
                #""é" : "v \"é\"\n/""#, #""😀" : "v \"😀\"\n/""#,
            ]
            .map { "  " + $0 }.joined(separator: ",\n") + "\n}\n"
        #expect(result.output == expected)
        #expect(try Tool.run("lprojctl", ["dump", file.path]).output == result.output)
    }

    @Test func dumpReportsWhereAFileBreaks() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lprojctl-\(UUID().uuidString).strings")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("\"a\" = \"b\";\n\"c\" = \"d\"\n\"e\" = \"f\";\n".utf8).write(to: file)
        let result = try Tool.run("lprojctl", ["dump", file.path])
        #expect(result.status != 0)
        // Where the ';' belongs (after "d", line 2), not where the next key starts.
        #expect(
            result.errors.contains("\(file.path):2:10: error: expected ';' after the value of the key \"c\", found '\"' at 3:1"),
            "\(result.errors)")
        #expect(result.output.isEmpty)
    }
}
