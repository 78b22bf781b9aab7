/// The report as one self-contained HTML page: no script, no font, no
/// request of any kind; a stacked bar per locale and, under it, the keys it
/// lacks (with how often users met them, when lprojd said).
package enum CoverageHTML {
    package static func render(_ report: CoverageReport) -> String {
        var body = ""
        let keys = report.locales.first?.total.keys ?? 0
        body += "<h1>\(escape(report.bundle))</h1>\n"
        body += "<p class=\"summary\">\(keys) keys in \(escape(report.developmentLocale)), \(report.locales.count) locales</p>\n"
        body += """
            <p class="legend"><span class="swatch translated"></span>translated <span class="swatch identical"></span>same as \
            \(escape(report.developmentLocale)) <span class="swatch missing"></span>missing</p>

            """
        body += "<table class=\"locales\">\n<thead><tr><th>locale</th><th class=\"chart\"></th><th>done</th><th>translated</th>"
        body += "<th>same</th><th>missing</th><th>review</th><th>stale</th><th>plurals</th><th>arguments</th></tr></thead>\n<tbody>\n"
        for locale in report.locales {
            let total = locale.total
            body += "<tr id=\"locale-\(escape(locale.locale))\" data-locale=\"\(escape(locale.locale))\">"
            body += "<th><a href=\"#keys-\(escape(locale.locale))\">\(escape(locale.locale))</a></th>"
            body += "<td class=\"chart\">\(bar(total))</td>"
            body += "<td class=\"done\">\(Int((total.covered * 100).rounded(.down)))%</td>"
            body += "<td class=\"translated\">\(total.translated + total.inherited)</td>"
            body += "<td class=\"identical\">\(total.identical)</td><td class=\"missing\">\(total.missing)</td>"
            body += "<td>\(total.needsReview)</td><td>\(total.stale)</td><td>\(total.pluralProblems)</td><td>\(total.argumentProblems)</td>"
            body += "</tr>\n"
        }
        body += "</tbody>\n</table>\n"
        for locale in report.locales {
            let missing = locale.tables.reduce(0) { $0 + $1.missingKeys.count }
            body += "<section id=\"keys-\(escape(locale.locale))\">\n<h2>\(escape(locale.locale)): \(missing) missing</h2>\n"
            for table in locale.tables where !table.missingKeys.isEmpty {
                let keys = table.missingKeys.sorted { (table.misses[$0] ?? 0, $1) > (table.misses[$1] ?? 0, $0) }
                body +=
                    "<details\(missing <= 50 ? " open" : "")><summary>\(escape(table.table)) (\(table.missingKeys.count))</summary>\n<ul>\n"
                for key in keys {
                    let met = table.misses[key].map { " <span class=\"met\">met \($0) time\($0 == 1 ? "" : "s")</span>" } ?? ""
                    body += "<li><code>\(escape(key))</code>\(met)</li>\n"
                }
                body += "</ul>\n</details>\n"
            }
            body += "</section>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Coverage of \(escape(report.bundle))</title>
            <style>
            body { font: 15px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 60em; padding: 0 1em; color: #1d1d1f; }
            h1 { font-size: 1.6em; margin-bottom: 0.2em; } .summary { color: #555; margin-top: 0; }
            table.locales { border-collapse: collapse; width: 100%; }
            table.locales th, table.locales td { padding: 0.3em 0.5em; text-align: right; border-bottom: 1px solid #e5e5e5; }
            table.locales th:first-child { text-align: left; white-space: nowrap; } .chart { width: 40%; min-width: 12em; }
            .bar { display: flex; height: 1em; border-radius: 3px; overflow: hidden; background: #eee; }
            .bar span { display: block; height: 100%; }
            .translated-part, .swatch.translated { background: #2e9e5b; } .identical-part, .swatch.identical { background: #e8b93c; }
            .missing-part, .swatch.missing { background: #d9534f; }
            .swatch { display: inline-block; width: 0.9em; height: 0.9em; margin: 0 0.3em 0 1em; border-radius: 2px; vertical-align: -0.1em; }
            .legend .swatch:first-child { margin-left: 0; }
            code { font: 13px ui-monospace, monospace; } .met { color: #b03a2e; font-size: 0.9em; margin-left: 0.5em; }
            h2 { font-size: 1.15em; margin-top: 1.5em; } ul { columns: 2; } summary { cursor: pointer; }
            </style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    static func bar(_ counts: Counts) -> String {
        guard counts.keys > 0 else { return "<div class=\"bar\"></div>" }
        func part(_ count: Int, _ name: String) -> String {
            let width = Double(count) / Double(counts.keys) * 100
            return "<span class=\"\(name)-part\" style=\"width: \(String(format: "%.2f", width))%\" title=\"\(count) \(name)\"></span>"
        }
        return "<div class=\"bar\">" + part(counts.translated + counts.inherited, "translated") + part(counts.identical, "identical")
            + part(counts.missing, "missing") + "</div>"
    }

    /// Text for HTML content and attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
