import Foundation
import LprojTables
import Testing
@testable import LprojExtract

@Suite struct StringsMergeTests {
    static let corpus: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Extract").path) { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }()

    func strings(_ keys: [String], comment: String? = nil) -> [ExtractedString] {
        keys.map { ExtractedString(key: $0, comment: comment, location: Location(file: "x.swift", line: 1, column: 1)) }
    }

    @Test func newKeysAreAppendedAndNothingElseChanges() throws {
        let file = Array("/* kept */\n\"old\" = \"Alt\";\n\"gone\" = \"Weg\";".utf8)
        let outcome = try StringsMerge.merge(strings(["old", "new \"one\"", "another"], comment: "Why */ here"), into: file)
        #expect(outcome.added.map(\.key) == ["another", "new \"one\""])
        #expect(outcome.unused == ["gone"])
        let text = String(decoding: try #require(outcome.bytes), as: UTF8.self)
        #expect(text.hasPrefix("/* kept */\n\"old\" = \"Alt\";\n\"gone\" = \"Weg\";\n\n"))
        #expect(text.hasSuffix("/* Why * / here */\n\"new \\\"one\\\"\" = \"new \\\"one\\\"\";\n"))
        let parsed = try StringsParser().parse(Array(text.utf8)).table.dictionary
        #expect(parsed == ["old": "Alt", "gone": "Weg", "another": "another", "new \"one\"": "new \"one\""])
        // Again: nothing to add, nothing written.
        #expect(try StringsMerge.merge(strings(["old", "new \"one\"", "another"]), into: Array(text.utf8)).bytes == nil)
    }

    /// An empty key is none the extractors give, so a table's `""` is
    /// never said to be unused.
    @Test func anEmptyKeyIsNeverUnused() throws {
        let outcome = try StringsMerge.merge(
            strings(["kept"]), into: Array("\"\" = \"\";\n\"kept\" = \"Kept\";\n\"gone\" = \"Weg\";\n".utf8))
        #expect(outcome.unused == ["gone"] && outcome.bytes == nil)
    }

    /// Every .strings table of the corpus (UTF-8, UTF-16 with and without
    /// BOM, duplicates, comments after entries): merging its own keys
    /// changes nothing; merging three more keeps every byte and entry and
    /// reads as before plus the three; merging again changes nothing.
    @Test func everyCorpusTableMergesWithoutLoss() throws {
        let files = (FileManager.default.enumerator(atPath: Self.corpus.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".strings") }.sorted()
        try #require(files.count > 900, "the shared corpus is beside the repository")
        var merged = 0
        for relative in files {
            let bytes = Array(try Data(contentsOf: Self.corpus.appendingPathComponent(relative)))
            guard let before = try? StringsParser().parse(bytes), !before.isPropertyList else { continue }
            let keys = before.table.keys
            #expect(try StringsMerge.merge(strings(keys), into: bytes).bytes == nil, "\(relative)")
            let extra = ["lprojd.extract.α", "lprojd \"quoted\"\n", "lprojd.extract.z"]
            let outcome = try StringsMerge.merge(strings(keys + extra, comment: "added"), into: bytes)
            let after = try #require(outcome.bytes, "\(relative)")
            #expect(Array(after.prefix(bytes.count)) == bytes, "\(relative)")
            let reparsed = try StringsParser().parse(after)
            #expect(reparsed.encoding == before.encoding, "\(relative)")
            var expected = before.table.dictionary
            for key in extra { expected[key] = key }
            #expect(reparsed.table.dictionary == expected, "\(relative)")
            #expect(try StringsMerge.merge(strings(keys + extra), into: after).bytes == nil, "\(relative)")
            merged += 1
        }
        #expect(merged > 900, "\(merged) of \(files.count) merged")
    }
}
