import Foundation
import LprojTablesOracle
import LprojFormatStrings
import Testing
@testable import LprojTables

@Suite struct StringsdictParserTests {
    /// The typed model, turned back into a property list, equals what
    /// `PropertyListSerialization` returns, for every entry of every corpus
    /// file that validates; every entry that does not is reported.
    @Test func corpusEntriesMatchPropertyListSerialization() throws {
        let files = Corpus.files(withExtension: "stringsdict")
        #expect(files.count >= 50)
        var entries = 0
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            let parsed = try StringsdictParser().parse(bytes)
            let reference = try #require(
                PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) as? [String: Any])
            #expect(parsed.propertyList == reference.compactMapValues(PropertyListValue.init(foundation:)), "\(file.path)")
            for (key, value) in reference {
                if let entry = parsed.entries[key] {
                    #expect(
                        PropertyListValue.dictionary(entry.propertyList) == PropertyListValue(foundation: value),
                        "\(file.lastPathComponent): \(key)")
                    entries += 1
                } else {
                    #expect(
                        parsed.diagnostics.contains { $0.severity == .error && $0.keyPath?.hasPrefix(key) == true },
                        "\(file.path): \(key) was dropped without a diagnostic")
                }
            }
        }
        #expect(entries > 350)
    }

    /// `%# @sites @` in the SyncUI tables: an error naming the key path, and
    /// the rest of the table still loads.
    @Test func malformedReferenceInTheCorpusIsReported() throws {
        let file = Corpus.root.appendingPathComponent(
            "duckduckgo-ios/LocalPackages/SyncUI-iOS/Sources/SyncUI-iOS/Resources/fr.lproj/Localizable.stringsdict")
        let parsed = try StringsdictParser().parse([UInt8](Data(contentsOf: file)))
        let errors = parsed.diagnostics.filter { $0.severity == .error }
        #expect(
            errors.contains {
                $0.keyPath == "bookmarks.invalid.objects.present.description/NSStringLocalizedFormatKey" && $0.message.contains("%# @sites")
            })
        #expect(errors.allSatisfy { $0.location != nil })
        #expect(parsed.entries["bookmarks.invalid.objects.present.description"] == nil)
        #expect(!parsed.entries.isEmpty || parsed.propertyList.count == errors.count)
    }

    static func plist(_ body: String) -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            \(body)
            </dict></plist>
            """.utf8)
    }

    static let good = """
        <key>good</key><dict>
          <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
          <key>files</key><dict>
            <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>%ld</string>
            <key>one</key><string>%ld file</string>
            <key>other</key><string>%ld files</string>
          </dict>
        </dict>
        """

    @Test(arguments: [
        (
            "no other",
            "<key>bad</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>one</key><string>x</string></dict></dict>",
            "bad/n"
        ),
        (
            "missing variable", "<key>bad</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@nope@</string></dict>",
            "bad/NSStringLocalizedFormatKey"
        ),
        ("no format key", "<key>bad</key><dict><key>n</key><string>x</string></dict>", "bad"),
        ("not a dictionary", "<key>bad</key><string>x</string>", "bad"),
        (
            "wrong rule type",
            "<key>bad</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringVariableWidthRuleType</string><key>other</key><string>x</string></dict></dict>",
            "bad/n/NSStringFormatSpecTypeKey"
        ),
        (
            "bad value type",
            "<key>bad</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>zz</string><key>other</key><string>x</string></dict></dict>",
            "bad/n/NSStringFormatValueTypeKey"
        ),
        (
            "form not a string",
            "<key>bad</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>other</key><integer>3</integer></dict></dict>",
            "bad/n/other"
        ),
    ])
    func malformedEntriesAreLeftOutWithTheirKeyPath(_ name: String, _ body: String, _ path: String) throws {
        let parsed = try StringsdictParser().parse(Self.plist(Self.good + body))
        #expect(parsed.entries["bad"] == nil, "\(name)")
        #expect(parsed.entries["good"] != nil, "\(name): the valid entry must still load")
        let error = try #require(parsed.diagnostics.first { $0.severity == .error }, "\(name)")
        #expect(error.keyPath == path, "\(name): \(error)")
        #expect(error.location != nil, "\(name): \(error)")
    }

    @Test func valueTypesWithAndWithoutPercent() throws {
        let parsed = try StringsdictParser().parse(Self.plist(Self.good))
        let variable = try #require(parsed.entries["good"]?.variables["files"])
        #expect(variable.valueType?.conversion == .signedDecimal)
        #expect(variable.valueType?.length == .long)
        #expect(PluralVariable.parseValueType("ld")?.length == .long)
    }

    @Test func notAPropertyListIsAnError() {
        #expect(throws: TableParseError.self) { try StringsdictParser().parse(Array("<plist><dict><key>a</key>".utf8)) }
        #expect(throws: TableParseError.self) {
            try StringsdictParser().parse(Self.plist("").prefix(0).map { $0 } + Array("<plist><array/></plist>".utf8))
        }
    }
}
