import Foundation
import LprojTables
import Testing

/// Found by the `.stringsdict` fuzzer: an entry may define a variable it
/// never refers to, without an `other` form; the entry stays valid (as in
/// Foundation), and nothing renders the variable.
@Suite struct UnusedVariableTests {
    @Test func anUnusedVariableWithoutOtherLeavesTheEntryValid() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>k</key><dict>
              <key>NSStringLocalizedFormatKey</key><string>%d selected</string>
              <key>files</key><dict>
                <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                <key>NSStringFormatValueTypeKey</key><string>d</string>
                <key>one</key><string>%d file</string>
              </dict>
            </dict></dict></plist>
            """
        let file = try StringsdictParser().parse(Array(plist.utf8))
        let entry = try #require(file.entries["k"])
        #expect(entry.variables["files"]?.forms[.other] == nil)
        #expect(entry.format.variableReferences.isEmpty)
    }
}
