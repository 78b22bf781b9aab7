import Foundation
import LprojFormatStrings
import Testing
@testable import LprojLocales

/// ICU's plural rules for every locale ICU knows, checked against Babel,
/// an independent implementation of CLDR. Babel 2.12.1 carries CLDR 42,
/// the same release as ICU 72, so every difference is a real one.
@Suite struct PluralRulesAgainstBabelTests {
    static let integers: [Int64] = Array(0...120) + [200, 1000, 1001, 10000, 100_000, 1_000_000, 1_000_001]
    static let decimals: [(String, Double, Int)] = [
        ("0.0", 0, 1), ("0.5", 0.5, 1), ("1.0", 1, 1), ("1.5", 1.5, 1), ("2.0", 2, 1), ("2.5", 2.5, 1),
        ("1.25", 1.25, 2), ("10.0", 10, 1), ("100.5", 100.5, 1), ("0.01", 0.01, 2), ("1.10", 1.1, 2),
    ]

    @Test func everyICULocaleAgreesWithBabel() throws {
        let tags = KnownLocales.available.map(\.tag)
        let babel = try Self.babelCategories(for: tags)
        var compared = 0
        var disagreements: [String] = []
        for tag in tags {
            guard let expected = babel[tag] else { continue }
            let rules = try #require(PluralRules.forLocale(LocaleIdentifier(tag)))
            for (index, value) in Self.integers.enumerated() where rules.category(for: .integer(value)).rawValue != expected[index] {
                disagreements.append("\(tag) \(value): ICU \(rules.category(for: .integer(value))), Babel \(expected[index])")
            }
            for (offset, decimal) in Self.decimals.enumerated() {
                let actual = rules.category(for: .decimal(decimal.1, fractionDigits: decimal.2)).rawValue
                let wanted = expected[Self.integers.count + offset]
                if actual != wanted { disagreements.append("\(tag) \(decimal.0): ICU \(actual), Babel \(wanted)") }
            }
            compared += 1
        }
        #expect(compared > 500, "Babel knew only \(compared) of ICU's \(tags.count) locales")
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, e.g. \(disagreements.prefix(10))")
    }

    /// Runs Babel (`pip install babel==2.12.1`) over the same numbers.
    static func babelCategories(for tags: [String]) throws -> [String: [String]] {
        let script = """
            import json, sys
            from decimal import Decimal
            import babel
            from babel import Locale
            assert babel.__version__ == "2.12.1", "expected Babel 2.12.1 (CLDR 42), found " + babel.__version__
            request = json.load(sys.stdin)
            result = {}
            for tag in request["tags"]:
                try:
                    locale = Locale.parse(tag, sep="-")
                except Exception:
                    continue
                result[tag] = [locale.plural_form(n) for n in request["integers"]] + [locale.plural_form(Decimal(d)) for d in request["decimals"]]
            json.dump(result, sys.stdout)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let request: [String: Any] = ["tags": tags, "integers": integers.map { NSNumber(value: $0) }, "decimals": decimals.map(\.0)]
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: request))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BabelUnavailable(message: "python3 with babel==2.12.1 is needed (pip install babel==2.12.1): \(errorText)")
        }
        return try JSONDecoder().decode([String: [String]].self, from: data)
    }

    struct BabelUnavailable: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
