import Foundation
import LprojInterface
import Testing
@testable import LprojConfiguration

/// The limits are named once, in the interface's `Limit`; the settings
/// that set them once, in ``LimitSetting``. The documentation's table of
/// limits and the sample configuration must say the same.
@Suite struct LimitNamesTests {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { url.deleteLastPathComponent() }
        return url
    }()

    /// The rows of the table of limits (its header begins with the
    /// settings' column), wherever in the documentation it is.
    static func tableRows() throws -> [String] {
        let docs = root.appendingPathComponent("docs")
        let pages =
            [root.appendingPathComponent("README.md")]
            + ((try? FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "md" }
        for page in pages {
            let lines = try String(contentsOf: page, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            guard let header = lines.firstIndex(where: { $0.hasPrefix("| setting (`limits:`)") }) else { continue }
            return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map(String.init)
        }
        Issue.record("no table of limits in README.md or docs/")
        return []
    }

    static func matches(_ pattern: String, in text: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return Set(regex.matches(in: text, range: range).map { String(text[Range($0.range(at: 1), in: text)!]) })
    }

    @Test func everyLimitIsInTheTableAndTheTableNamesOnlyLimits() throws {
        let rows = try Self.tableRows().joined(separator: "\n")
        let named = Self.matches(#"LimitExceeded\((\w+)\)"#, in: rows)
        let limits = Set(Localization.Limit.allCases.map(\.rawValue))
        #expect(limits.subtracting(named).sorted() == [], "limits the table does not name")
        #expect(named.subtracting(limits).sorted() == [], "names in the table that are not limits")
    }

    @Test func everySettingIsInTheTableAndTheSampleConfiguration() throws {
        let rows = try Self.tableRows()
        let documented = Set(rows.flatMap { row in Self.matches(#"`([a-z-]+)`"#, in: String(row.split(separator: "|").first ?? "")) })
        let settings = Set(LimitSetting.allCases.map(\.rawValue))
        #expect(settings.subtracting(documented).sorted() == [], "settings the table does not name")
        #expect(documented.subtracting(settings).sorted() == [], "settings in the table lprojd does not read")
        let sample = try String(contentsOf: Self.root.appendingPathComponent("etc/lprojd/lprojd.conf"), encoding: .utf8)
        let inSample = Self.matches(#"(?m)^\s*#?\s*([a-z-]+):"#, in: sample).intersection(settings.union(documented))
        #expect(settings.subtracting(inSample).sorted() == [], "settings the sample configuration does not show")
    }

    /// Each setting sets its limit in the one model the daemon hands to
    /// its components whole (server, service, added strings, bundles,
    /// budget), and no two set the same.
    @Test func everySettingSetsOneLimitOfTheModel() {
        var seen: [String: LimitSetting] = [:]
        for setting in LimitSetting.allCases {
            var limits = DaemonConfiguration.Limits()
            setting.apply(7_777, to: &limits)
            #expect(limits != DaemonConfiguration.Limits(), "\(setting.rawValue) sets nothing")
            let changed = "\(limits)"
            #expect(seen[changed] == nil, "\(setting.rawValue) sets what \(seen[changed]?.rawValue ?? "") sets")
            seen[changed] = setting
        }
    }
}
