import Foundation
import Testing
import JSONText
@testable import LprojExtract

/// String Catalogs: written back byte for byte, and merged as Xcode would.
@Suite struct CatalogMergeTests {
    static let iceCubes = StringsMergeTests.corpus.appendingPathComponent(
        "IceCubesApp/IceCubesApp/Resources/Localization/Localizable.xcstrings")
    static let whistleYoo = CommandTests.package.deletingLastPathComponent().appendingPathComponent(
        "Tests/Fixtures/WhistleYoo/Localizable.xcstrings")

    func strings(_ keys: [String]) -> [ExtractedString] {
        keys.map { ExtractedString(key: $0, location: Location(file: "x.swift", line: 1, column: 1)) }
    }

    func entries(_ bytes: [UInt8]) throws -> JSONObject {
        guard case .object(let root) = try JSONParser.parse(bytes), case .object(let strings)? = root["strings"] else {
            throw CatalogMerge.Unreadable(description: "no strings")
        }
        return strings
    }

    @Test(arguments: [iceCubes, whistleYoo])
    func aCatalogXcodeWroteIsWrittenBackByteForByte(_ file: URL) throws {
        let bytes = Array(try Data(contentsOf: file))
        #expect(Array(CatalogMerge.write(try JSONParser.parse(bytes), like: bytes).utf8) == bytes)
        // Xcode's key order is the order this writer inserts in.
        let keys = try entries(bytes).keys
        #expect(zip(keys, keys.dropFirst()).allSatisfy { CatalogMerge.xcodeOrder($0, $1) })
    }

    /// IceCubes's catalog with the keys Xcode extracted as the code: nothing
    /// changes (its stale keys stay stale, its manual ones alone). Then the
    /// code changes, and the catalog follows as Xcode's would.
    @Test func mergingFollowsTheCodeAsXcodeDoes() throws {
        let bytes = Array(try Data(contentsOf: Self.iceCubes))
        let before = try entries(bytes)
        let extracted = (0..<before.count).compactMap { index -> String? in
            guard case .object(let entry) = before.values[index] else { return nil }
            return entry["extractionState"] == nil ? before.keys[index] : nil
        }
        #expect(extracted.count == 295)
        #expect(try CatalogMerge.merge(strings(extracted), into: bytes, sourceLanguage: "en").bytes == nil)
        // Xcode put "" there (IceCubes's `var title: LocalizedStringKey`
        // returns "" for one case); the extractors leave it out, and the
        // merge leaves the catalog's "" alone rather than mark it stale.
        #expect(extracted.contains(""))
        let withoutEmpty = try CatalogMerge.merge(strings(extracted.filter { !$0.isEmpty }), into: bytes, sourceLanguage: "en")
        #expect(withoutEmpty.bytes == nil && withoutEmpty.markedStale.isEmpty)

        // Two keys dropped from the code, two new ones, a stale one used again.
        let dropped = ["Bookmarks", "Favorites"]
        let code = extracted.filter { !dropped.contains($0) } + ["A brand new key", "zz.last"] + ["instance.info.users"]
        var withComment = strings(code)
        withComment[withComment.count - 3].comment = "Shown first"
        withComment[withComment.count - 3].defaultValue = "A brand new value"
        let outcome = try CatalogMerge.merge(withComment, into: bytes, sourceLanguage: "en")
        #expect(outcome.added.map(\.key) == ["A brand new key", "zz.last"])
        #expect(outcome.markedStale == dropped && outcome.revived == ["instance.info.users"])
        let after = try entries(try #require(outcome.bytes))
        #expect(after.keys.count == before.keys.count + 2)
        #expect(zip(after.keys, after.keys.dropFirst()).allSatisfy { CatalogMerge.xcodeOrder($0, $1) })
        for key in dropped {
            guard case .object(let entry)? = after[key], case .object(let old)? = before[key] else {
                Issue.record("missing \(key)")
                continue
            }
            #expect(entry["extractionState"] == .string("stale"))
            #expect(entry["localizations"] == old["localizations"], "every translation kept")
        }
        guard case .object(let new)? = after["A brand new key"] else {
            Issue.record("not added")
            return
        }
        #expect(new["comment"] == .string("Shown first") && new["extractionState"] == .string("extracted_with_value"))
        #expect(new["localizations"] == .object(["en": .object(["stringUnit": .object(["state": "new", "value": "A brand new value"])])]))
        guard case .object(let revived)? = after["instance.info.users"] else {
            Issue.record("revived")
            return
        }
        #expect(revived["extractionState"] == nil)
        // Everything else is as it was, and merging again changes nothing.
        for (index, key) in before.keys.enumerated() where !dropped.contains(key) && key != "instance.info.users" {
            #expect(after[key] == before.values[index], "\(key)")
        }
        #expect(try CatalogMerge.merge(withComment, into: try #require(outcome.bytes), sourceLanguage: "en").bytes == nil)
    }

    @Test func aNewCatalogIsMade() throws {
        let outcome = try CatalogMerge.merge(strings(["b", "A"]), into: nil, sourceLanguage: "en")
        #expect(
            String(decoding: try #require(outcome.bytes), as: UTF8.self) == """
                {
                  "sourceLanguage" : "en",
                  "strings" : {
                    "A" : {

                    },
                    "b" : {

                    }
                  },
                  "version" : "1.0"
                }
                """)
    }
}
