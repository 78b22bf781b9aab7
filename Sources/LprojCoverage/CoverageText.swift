/// The report for a terminal: a line per locale with a bar, then the
/// problems worth a look.
package enum CoverageText {
    /// `width` is the bar's width in characters.
    package static func render(_ report: CoverageReport, width: Int = 24) -> String {
        var lines = ["\(report.bundle): keys in \(report.developmentLocale), \(report.locales.first?.total.keys ?? 0) in all"]
        guard !report.locales.isEmpty else { return (lines + ["no locale but the development locale"]).joined(separator: "\n") + "\n" }
        let localeWidth = max(6, report.locales.map(\.locale.count).max() ?? 0)
        // The column appears when a file could not be read, as the note
        // under the table does.
        let showUnknown = !report.unreadableFiles.isEmpty
        lines.append(
            pad("LOCALE", localeWidth) + "  " + pad("", width) + "   DONE  TRANSLATED  SAME  MISSING" + (showUnknown ? "  UNKNOWN" : "")
                + "  REVIEW  STALE  PLURALS  ARGUMENTS")
        for locale in report.locales {
            let total = locale.total
            lines.append(
                pad(locale.locale, localeWidth) + "  " + bar(total, width: width) + "  " + right(done(total), 5)
                    + right(total.translated + total.inherited, 12) + right(total.identical, 6) + right(total.missing, 9)
                    + (showUnknown ? right(total.unknown, 9) : "") + right(total.needsReview, 8) + right(total.stale, 7)
                    + right(total.pluralProblems, 9) + right(total.argumentProblems, 11))
        }
        if showUnknown {
            lines.append("")
            lines.append("could not read (the keys they may hold are counted as unknown, not missing):")
            for file in report.unreadableFiles { lines.append("  \(file.description)") }
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

    /// `█` for translated (and inherited), `▒` for identical, `?` for
    /// unknown, `░` for missing.
    static func bar(_ counts: Counts, width: Int) -> String {
        guard counts.keys > 0 else { return String(repeating: "█", count: width) }
        func share(_ count: Int) -> Int { Int((Double(count) / Double(counts.keys) * Double(width)).rounded()) }
        let done = share(counts.translated + counts.inherited)
        let same = min(width - done, share(counts.identical))
        let unknown = min(width - done - same, share(counts.unknown))
        return String(repeating: "█", count: done) + String(repeating: "▒", count: same) + String(repeating: "?", count: unknown)
            + String(repeating: "░", count: width - done - same - unknown)
    }

    static func percent(_ share: Double) -> String {
        "\(Int((share * 100).rounded(.down)))%"
    }

    /// The share done; "at least" it when some keys are unknown.
    static func done(_ counts: Counts) -> String {
        (counts.unknown > 0 ? "≥" : "") + percent(counts.covered)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    static func right(_ value: Int, _ width: Int) -> String { right(String(value), width) }

    static func right(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
