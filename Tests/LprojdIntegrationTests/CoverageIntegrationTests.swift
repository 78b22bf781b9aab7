import Foundation
import LprojClient
import Testing

/// `lprojctl coverage` on the demo bundle with the misses of a real lprojd,
/// and its HTML page as headless Chromium lays it out.
@Suite struct CoverageIntegrationTests {
    @Test func theReportShowsMissesAndRendersInChromium() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        for _ in 0..<3 { _ = try await lprojd.lookup(bundle: "demo", key: "colour.label", locale: "fr") }
        _ = try await lprojd.lookup(bundle: "demo", key: "colour.label", locale: "fr-CA")

        let page = daemon.directory.appendingPathComponent("coverage.html")
        let ctl = DaemonProcess.binaries.appendingPathComponent("lprojctl").path
        let report = try await run(
            ctl,
            ["coverage", daemon.bundleDirectory.path, "--name", "demo", "--with-misses", "--html", page.path, "--socket", daemon.socket])
        #expect(report.status == 0, "\(report.errors)")
        #expect(report.output.contains("4×  fr  Localizable  colour.label"), "\(report.output)")
        let german = try #require(report.output.split(separator: "\n").first { $0.hasPrefix("de ") })
        #expect(german.contains("90%"))

        // The page, with a script added to this copy only, that measures what
        // Chromium drew and writes it into the document Chromium dumps.
        let measuring = daemon.directory.appendingPathComponent("measured.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains("<script"))
        let probe = """
            <script>
            const rows = [...document.querySelectorAll('tr[data-locale]')].map(row => {
              const bar = row.querySelector('.bar').getBoundingClientRect().width;
              const part = name => row.querySelector('.' + name + '-part').getBoundingClientRect().width / bar;
              return {locale: row.dataset.locale, bar, translated: part('translated'), missing: part('missing'),
                      done: row.querySelector('.done').innerText, missingCount: row.querySelector('td.missing').innerText};
            });
            const met = [...document.querySelectorAll('.met')].filter(e => e.offsetHeight > 0).map(e => e.innerText);
            const frenchSources = [...document.querySelectorAll('#keys-fr .source')].filter(e => e.offsetHeight > 0)
              .map(e => e.innerText);
            const out = document.createElement('pre');
            out.id = 'measured';
            out.textContent = JSON.stringify({rows, met, frenchSources});
            document.body.appendChild(out);
            </script>
            """
        try Data(html.replacingOccurrences(of: "</body>", with: probe + "</body>").utf8).write(to: measuring)
        let dumped = try await run(
            "chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", measuring.absoluteString],
            environment: ["HOME": daemon.directory.path])
        #expect(dumped.status == 0, "\(dumped.errors)")
        let json = try #require(
            dumped.output.range(of: "<pre id=\"measured\">").flatMap { start in
                dumped.output[start.upperBound...].range(of: "</pre>").map { String(dumped.output[start.upperBound..<$0.lowerBound]) }
            }, "Chromium ran no script: \(dumped.output.prefix(300))")
        struct Measured: Decodable {
            struct Row: Decodable {
                let locale: String, bar: Double, translated: Double, missing: Double, done: String, missingCount: String
            }
            let rows: [Row], met: [String], frenchSources: [String]
        }
        let measured = try JSONDecoder().decode(Measured.self, from: Data(json.replacingOccurrences(of: "&quot;", with: "\"").utf8))
        let rows = Dictionary(uniqueKeysWithValues: measured.rows.map { ($0.locale, $0) })
        #expect(rows.keys.sorted() == ["ar", "de", "en-GB", "fr", "ja", "pt-BR", "ru", "zh-Hans", "zh-Hant"])
        // de: 10 of 11 keys; fr: 8 of 11. The bars are drawn to those shares.
        let de = try #require(rows["de"]), fr = try #require(rows["fr"])
        #expect(de.bar > 100 && de.done == "90%" && de.missingCount == "1", "\(de)")
        #expect(abs(de.translated - 10.0 / 11.0) < 0.02 && abs(de.missing - 1.0 / 11.0) < 0.02, "\(de)")
        #expect(abs(fr.translated - 8.0 / 11.0) < 0.02 && fr.missingCount == "3", "\(fr)")
        #expect(measured.met == ["met 4 times"])
        // What a translator is to translate is shown beside the key.
        #expect(measured.frenchSources.contains("Color"), "\(measured.frenchSources)")
    }

    /// Tried as a new user would: one ';' removed from the demo's German
    /// table. Coverage must not report German as merely less translated.
    @Test func aBrokenTableIsReportedNotCountedAsMissing() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lprojd-coverage-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("demo")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: DaemonProcess.packageRoot.appendingPathComponent("Examples/DemoApp"), to: bundle)
        let german = bundle.appendingPathComponent("de.lproj/Localizable.strings")
        var lines = try String(contentsOf: german, encoding: .utf8).components(separatedBy: "\n")
        #expect(lines[4] == #""greeting" = "Hallo, {name}!";"#)
        lines[4].removeLast()
        try Data(lines.joined(separator: "\n").utf8).write(to: german)

        let ctl = DaemonProcess.binaries.appendingPathComponent("lprojctl").path
        let text = try await run(ctl, ["coverage", bundle.path])
        #expect(text.status == 1)
        let place =
            "\(bundle.path)/de.lproj/Localizable.strings:5:30: expected ';' after the value of the key \"greeting\", found '\"' at 8:1"
        #expect(text.errors.contains(place), "\(text.errors)")
        let row = try #require(text.output.split(separator: "\n").first { $0.hasPrefix("de ") })
        // Not "36%" as if German were that far behind: at least that, the
        // rest unknown.
        #expect(row.contains("≥36%") && !row.contains(" 36%"), "\(row)")
        #expect(text.output.contains("could not read"))
        // Standard error is a pipe here: no progress bar, no escape.
        #expect(!text.errors.contains("\u{1B}") && !text.errors.contains("\r"))

        let json = try await run(ctl, ["coverage", bundle.path, "--json"])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let unreadable = try #require(object["unreadableFiles"] as? [[String: Any]])
        #expect(unreadable.count == 1)
        #expect(unreadable.first?["path"] as? String == "de.lproj/Localizable.strings")
        #expect(unreadable.first?["line"] as? Int == 5 && unreadable.first?["column"] as? Int == 30)
        let locales = try #require(object["locales"] as? [[String: Any]])
        let de = try #require(locales.first { $0["locale"] as? String == "de" }?["total"] as? [String: Any])
        #expect((de["unknown"] as? Int ?? 0) > 0, "\(de)")
    }
}
