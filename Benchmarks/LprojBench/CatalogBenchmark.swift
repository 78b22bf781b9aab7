import Foundation
import LprojTables

/// Loading a String Catalog (parse and compile every language, what lprojd
/// does on each change) against `JSONSerialization` merely reading the same
/// bytes.
enum CatalogBenchmark {
    static let languages = ["de", "en", "es", "fr", "it", "ja", "ko", "nl", "pl", "pt-BR", "ru", "zh-Hans"]

    /// A catalog the way Xcode writes it (two-space indents, `" : "`, keys
    /// sorted): plain units, needs_review ones, plural variations and
    /// substitutions, in twelve languages, until it has `bytes` bytes. One
    /// key in `pluralEvery` varies by plural and one in `substitutionEvery`
    /// has a substitution (the corpus's catalog has about 2% and 1%).
    static func generatedCatalog(bytes target: Int, pluralEvery: Int, substitutionEvery: Int) -> (text: String, keys: Int) {
        var text = "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n"
        text.reserveCapacity(target + 4096)
        var index = 0
        func unit(_ value: String, _ state: String = "translated", indent: String) -> String {
            "\(indent)\"stringUnit\" : {\n\(indent)  \"state\" : \"\(state)\",\n\(indent)  \"value\" : \"\(value)\"\n\(indent)}\n"
        }
        while text.utf8.count < target {
            let key = String(format: "section%03d.item%06d", index % 500, index)
            text += index == 0 ? "" : ",\n"
            text +=
                "    \"\(key)\" : {\n      \"comment\" : \"Label for item \(index) in the settings window\",\n      \"localizations\" : {\n"
            for (offset, language) in languages.enumerated() {
                text += offset == 0 ? "" : ",\n"
                text += "        \"\(language)\" : {\n"
                switch index {
                case _ where index % pluralEvery == 0:
                    text += "          \"variations\" : {\n            \"plural\" : {\n"
                    text +=
                        "              \"one\" : {\n" + unit("%lld file in \(language) – Größe", indent: "                ")
                        + "              },\n"
                    text +=
                        "              \"other\" : {\n" + unit("%lld files in \(language) – Größe", indent: "                ")
                        + "              }\n"
                    text += "            }\n          }\n"
                case _ where index % substitutionEvery == 1:
                    text += unit("%#@count@ for %@", indent: "          ").dropLast() + ",\n"
                    text += "          \"substitutions\" : {\n            \"count\" : {\n              \"argNum\" : 1,\n"
                    text +=
                        "              \"formatSpecifier\" : \"lld\",\n              \"variations\" : {\n                \"plural\" : {\n"
                    text += "                  \"one\" : {\n" + unit("%arg item", indent: "                    ") + "                  },\n"
                    text +=
                        "                  \"other\" : {\n" + unit("%arg items", indent: "                    ") + "                  }\n"
                    text += "                }\n              }\n            }\n          }\n"
                default:
                    text += unit(
                        "Open the \\\"\(key)\\\" settings in \(language): réglages 設定 Ошибка %@",
                        index % 7 == 0 ? "needs_review" : "translated",
                        indent: "          ")
                }
                text += "        }"
            }
            text += "\n      }\n    }"
            index += 1
        }
        text += "\n  },\n  \"version\" : \"1.0\"\n}"
        return (text, index)
    }

    static func run(smoke: Bool) throws -> [BenchmarkRow] {
        [
            try measure(smoke: smoke, pluralEvery: 40, substitutionEvery: 100, label: "real mix: 2.5% plural, 1% substitutions", target: 5),
            try measure(smoke: smoke, pluralEvery: 10, substitutionEvery: 10, label: "10% plural, 10% substitutions", target: nil),
        ]
    }

    static func measure(smoke: Bool, pluralEvery: Int, substitutionEvery: Int, label: String, target: Double?) throws -> BenchmarkRow {
        let (text, keys) = generatedCatalog(
            bytes: smoke ? 1_000_000 : 10_000_000, pluralEvery: pluralEvery, substitutionEvery: substitutionEvery)
        let bytes = Array(text.utf8)
        let data = Data(bytes)
        var compiledKeys = 0
        // What lprojd does on each change: StringCatalogLoader, one pass.
        let ours = try Measure.median(rounds: smoke ? 3 : 7) {
            let compilation = try StringCatalogLoader().load(bytes).compilation
            compiledKeys = compilation.tables.first { $0.language == "fr" }.map { $0.strings.count + $0.plurals.count } ?? -1
        }
        // For context: the parser's model, then the compiler.
        let twoPasses = try Measure.median(rounds: smoke ? 3 : 7) {
            _ = StringCatalogCompiler().compile(try StringCatalogParser().parse(bytes).catalog)
        }
        var foundationKeys = 0
        let foundation = try Measure.median(rounds: smoke ? 2 : 5) {
            let object = try JSONSerialization.jsonObject(with: data)
            foundationKeys = ((object as? [String: Any])?["strings"] as? [String: Any])?.count ?? -1
        }
        guard compiledKeys == keys, foundationKeys == keys else {
            throw BenchmarkFailure("compiled \(compiledKeys) keys, JSONSerialization read \(foundationKeys), expected \(keys)")
        }
        let megabytes = Double(bytes.count) / 1_000_000
        let ratio = foundation / ours
        return BenchmarkRow(
            name: String(
                format: ".xcstrings load (parse, compile 12 languages), %.1f MB, %@; model then compiler %.0f ms", megabytes, label,
                twoPasses * 1000),
            measured: String(format: "%.0f ms", ours * 1000),
            baseline: String(format: "JSONSerialization read only %.0f ms", foundation * 1000),
            ratio: String(format: "%.1f×", ratio),
            target: target.map { String(format: "≥ %.0f×", $0) } ?? "(worst case)",
            passed: target.map { ratio >= $0 } ?? true)
    }
}
