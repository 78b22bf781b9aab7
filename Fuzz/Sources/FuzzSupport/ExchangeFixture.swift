@testable import LprojExchange

/// A small bundle the exchange fuzzers import into: a `.strings` table and
/// a `.stringsdict` plural in the development language, and a German
/// translation of some of it.
enum ExchangeFixture {
    static let bundle = ExchangeBundle(
        files: [
            "en.lproj/Localizable.strings": Array(
                """
                /* The window's title */
                "title" = "Files";
                "count" = "%d of %@";
                "empty" = "Nothing selected";
                """.utf8),
            "en.lproj/Localizable.stringsdict": Array(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>files</key><dict>
                  <key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
                  <key>n</key><dict>
                    <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                    <key>NSStringFormatValueTypeKey</key><string>d</string>
                    <key>one</key><string>%d file</string><key>other</key><string>%d files</string>
                  </dict>
                </dict></dict></plist>
                """.utf8),
            "de.lproj/Localizable.strings": Array("\"title\" = \"Dateien\";\n".utf8),
        ], developmentFolder: "en")

    /// What an import may write: only the target language's tables.
    static func checkWrites(_ plan: ImportPlan, language folder: String) {
        if plan.hasErrors { return }
        for write in plan.writes {
            precondition(write.path.hasPrefix("\(folder).lproj/"), "an import wrote \(write.path)")
        }
    }
}
