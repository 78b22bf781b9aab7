/// The report as one self-contained HTML page: no script, no font, no
/// request of any kind; a stacked bar per locale and, under it, the keys it
/// lacks (with how often users met them, when lprojd said).
package enum CoverageHTML {
    package static func render(_ report: CoverageReport) -> String {
        var body = ""
        let keys = report.locales.first?.total.keys ?? 0
        body += "<h1>\(escape(report.bundle))</h1>\n"
        body +=
            "<p class=\"summary\">\(count(keys, "key")) in \(escape(report.developmentLocale)), \(count(report.locales.count, "locale"))</p>\n"
        if !report.unreadableFiles.isEmpty {
            body += "<section class=\"unreadable\" id=\"unreadable\">\n<h2>Could not read</h2>\n"
            body += "<p>The keys these files may hold are counted as unknown, not missing.</p>\n<ul>\n"
            for file in report.unreadableFiles { body += "<li><code>\(escape(file.description))</code></li>\n" }
            body += "</ul>\n</section>\n"
        }
        body += """
            <p class="legend"><span class="swatch translated"></span>translated <span class="swatch identical"></span>same as \
            \(escape(report.developmentLocale)) <span class="swatch missing"></span>missing\
            \(report.unreadableFiles.isEmpty ? "" : " <span class=\"swatch unknown\"></span>unknown")</p>

            """
        body += "<table class=\"locales\">\n<thead><tr><th>locale</th><th class=\"chart\"></th><th>done</th><th>translated</th>"
        body += "<th>same</th><th>missing</th>\(report.unreadableFiles.isEmpty ? "" : "<th>unknown</th>")"
        body += "<th>review</th><th>stale</th><th>plurals</th><th>arguments</th></tr></thead>\n<tbody>\n"
        for locale in report.locales {
            let total = locale.total
            body += "<tr id=\"locale-\(escape(locale.locale))\" data-locale=\"\(escape(locale.locale))\">"
            body += "<th><a href=\"#keys-\(escape(locale.locale))\">\(escape(locale.locale))</a></th>"
            body += "<td class=\"chart\">\(bar(total))</td>"
            body += "<td class=\"done\">\(escape(CoverageText.done(total)))</td>"
            body += "<td class=\"translated\">\(total.translated + total.inherited)</td>"
            body += "<td class=\"identical\">\(total.identical)</td><td class=\"missing\">\(total.missing)</td>"
            if !report.unreadableFiles.isEmpty { body += "<td class=\"unknown\">\(total.unknown)</td>" }
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
                    let met = table.misses[key].map { " <span class=\"met\">met \(count($0, "time"))</span>" } ?? ""
                    // The development text beside the key: what to translate.
                    let source =
                        table.sources[key].map {
                            " <span class=\"source\" lang=\"\(escape(report.developmentLocale))\">\(escape($0))</span>"
                        } ?? ""
                    body += "<li><code>\(escape(key))</code>\(source)\(met)</li>\n"
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
            .missing-part, .swatch.missing { background: #d9534f; } .unknown-part, .swatch.unknown { background: #9a9a9a; }
            .source { color: #444; margin-left: 0.5em; } .source::before { content: "“"; } .source::after { content: "”"; }
            .unreadable { border-left: 4px solid #d9534f; padding: 0.2em 1em; background: #fdf2f1; }
            .swatch { display: inline-block; width: 0.9em; height: 0.9em; margin: 0 0.3em 0 1em; border-radius: 2px; vertical-align: -0.1em; }
            .legend .swatch:first-child { margin-left: 0; }
            code { font: 13px ui-monospace, monospace; } .met { color: #b03a2e; font-size: 0.9em; margin-left: 0.5em; }
            h2 { font-size: 1.15em; margin-top: 1.5em; } ul { columns: 2; } summary { cursor: pointer; } li { break-inside: avoid; }
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
            + (counts.unknown > 0 ? part(counts.unknown, "unknown") : "") + part(counts.missing, "missing") + "</div>"
    }

    /// "1 key", "2 keys".
    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

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
