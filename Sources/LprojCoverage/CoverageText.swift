/// The report for a terminal: a line per locale with a bar, then the
/// problems worth a look.
package enum CoverageText {
    /// `width` is the bar's width in characters.
    package static func render(_ report: CoverageReport, width: Int = 24) -> String {
        var lines = ["\(report.bundle): keys in \(report.developmentLocale), \(report.locales.first?.total.keys ?? 0) in all"]
        guard !report.locales.isEmpty else { return (lines + ["no locale but the development locale"]).joined(separator: "\n") + "\n" }
        let localeWidth = max(6, report.locales.map(\.locale.count).max() ?? 0)
        lines.append(
            pad("LOCALE", localeWidth) + "  " + pad("", width) + "   DONE  TRANSLATED  SAME  MISSING  REVIEW  STALE  PLURALS  ARGUMENTS")
        for locale in report.locales {
            let total = locale.total
            lines.append(
                pad(locale.locale, localeWidth) + "  " + bar(total, width: width) + "  " + right(percent(total.covered), 5)
                    + right(total.translated + total.inherited, 12) + right(total.identical, 6) + right(total.missing, 9)
                    + right(total.needsReview, 8) + right(total.stale, 7) + right(total.pluralProblems, 9)
                    + right(total.argumentProblems, 11))
        }
        let withMisses = report.locales.flatMap { locale in
            locale.tables.flatMap { table in table.misses.map { (locale.locale, table.table, $0.key, $0.value) } }
        }.sorted { $0.3 != $1.3 ? $0.3 > $1.3 : ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        if !withMisses.isEmpty {
            lines.append("")
            lines.append("missing, and met by users (lprojd's misses):")
            for (locale, table, key, count) in withMisses.prefix(20) {
                lines.append("  \(right(count, 8))×  \(locale)  \(table)  \(key)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `█` for translated (and inherited), `▒` for identical, `░` for missing.
    static func bar(_ counts: Counts, width: Int) -> String {
        guard counts.keys > 0 else { return String(repeating: "█", count: width) }
        let done = Int((Double(counts.translated + counts.inherited) / Double(counts.keys) * Double(width)).rounded())
        let same = min(width - done, Int((Double(counts.identical) / Double(counts.keys) * Double(width)).rounded()))
        return String(repeating: "█", count: done) + String(repeating: "▒", count: same)
            + String(repeating: "░", count: width - done - same)
    }

    static func percent(_ share: Double) -> String {
        "\(Int((share * 100).rounded(.down)))%"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    static func right(_ value: Int, _ width: Int) -> String { right(String(value), width) }

    static func right(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
