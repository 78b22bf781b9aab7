import Foundation
import Testing
@testable import LprojConfiguration

/// lprojd.conf(5) describes every setting the configuration reader takes,
/// where it belongs (the file's own under SETTINGS, a bundle's under
/// Bundles, the limits under Limits), and no other.
@Suite struct ManualPageTests {
    /// The settings each part of the page describes: a tagged paragraph
    /// whose tag is the setting in bold (`.TP`, then `.B name`), by the
    /// subsection (`.SS`) it is in; those before the first under SETTINGS.
    static func described() throws -> [String: Set<String>] {
        let page = LimitNamesTests.root.appendingPathComponent("man/lprojd.conf.5")
        let lines = try String(contentsOf: page, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var part = "", found: [String: Set<String>] = [:]
        for (index, line) in lines.enumerated() {
            if line.hasPrefix(".SH ") || line.hasPrefix(".SS ") {
                part = String(line.dropFirst(4)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            } else if line == ".TP", index + 1 < lines.count, lines[index + 1].hasPrefix(".B ") {
                let name = lines[index + 1].dropFirst(3).replacingOccurrences(of: "\\-", with: "-")
                found[part, default: []].insert(name)
            }
        }
        return found
    }

    @Test func thePageDescribesEverySettingWhereItBelongsAndNoOther() throws {
        let described = try Self.described()
        let settings = ConfigurationFile.settings
        for (part, read) in [
            ("SETTINGS", settings.file), ("Bundles", settings.bundle), ("Limits", LimitSetting.allCases.map(\.rawValue)),
        ] {
            let said = described[part] ?? []
            #expect(Set(read).subtracting(said).sorted() == [], "settings lprojd.conf(5) does not describe under \(part)")
            #expect(said.subtracting(read).sorted() == [], "settings under \(part) in lprojd.conf(5) that lprojd does not read there")
        }
    }
}
