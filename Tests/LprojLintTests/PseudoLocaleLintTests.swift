import Foundation
import LprojEngine
import LprojFiles
import LprojFormatStrings
import LprojLocales
import LprojTables
import Testing
@testable import LprojLint

/// Every table of the shared corpus in `en-XA` and `ar-XB`, as lprojd serves
/// them, written out as tables beside the English ones and linted: the
/// linter's argument checks find not one conversion, plural reference or
/// argument that differs from English.
@Suite struct PseudoLocaleLintTests {
    static let formatCodes: Set<String> = ["argument-type", "argument-extra", "argument-dropped", "stringsdict-entry", "unused-variable"]

    @Test func pseudoLocalesKeepEveryFormatOfTheCorpus() throws {
        let directories = Set(
            (FileManager.default.enumerator(at: LinterTests.corpus, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
                .filter { $0.lastPathComponent == "en.lproj" }.map { $0.deletingLastPathComponent() }
        ).sorted { $0.path < $1.path }
        try #require(directories.count >= 8, "the shared corpus is beside the repository")
        var entries = 0, pluralEntries = 0
        for directory in directories {
            var configuration = BundleConfiguration(
                name: "corpus", directory: directory.path, developmentLocale: try LocaleIdentifier("en"))
            configuration.pseudoLocales = true
            let bundle = BundleLoader(files: DiskFileTree()).load(configuration)
            guard let english = bundle.folders.first(where: { $0.folderName == "en.lproj" }) else { continue }
            var files = InMemoryFileTree()
            for table in english.tables.keys {
                for suffix in [".strings", ".stringsdict"] {
                    let path = directory.appendingPathComponent("en.lproj/\(table)\(suffix)").path
                    if let bytes = FileManager.default.contents(atPath: path) { files.files["b/en.lproj/\(table)\(suffix)"] = Array(bytes) }
                }
                for pseudo in PseudoLocalization.allCases {
                    let resolved = bundle.resolvedTable(table, locale: try bundle.resolve(locale: pseudo.locale.tag))
                    var strings: [String: String] = [:], plurals: [String: PluralFormat] = [:]
                    for (key, entry) in resolved.entries {
                        if let plural = entry.plural { plurals[key] = plural } else { strings[key] = entry.value }
                    }
                    let folder = "b/\(pseudo.locale.tag).lproj/\(table)"
                    files.files[folder + ".strings"] = PropertyListXMLWriter.strings(StringTable(strings))
                    if !plurals.isEmpty { files.files[folder + ".stringsdict"] = PropertyListXMLWriter.stringsdict(plurals) }
                    entries += strings.count
                    pluralEntries += plurals.count
                }
            }
            let findings = Linter(files: files, developmentLocale: try LocaleIdentifier("en")).lint(paths: [
                "b/en-XA.lproj", "b/ar-XB.lproj",
            ])
            let broken = findings.filter { Self.formatCodes.contains($0.diagnostic.code) || $0.diagnostic.code == "syntax" }
            #expect(broken.isEmpty, "\(directory.lastPathComponent): \(broken.prefix(5).map(\.formatted))")
        }
        // Each pseudo-locale: 5,411 values and 29 plural entries of 13 bundles.
        #expect(entries > 10_000 && pluralEntries > 50, "\(entries) values, \(pluralEntries) plural entries")
    }

    /// The check can fail: a value that lost its argument is found.
    @Test func aPseudoValueThatDropsAnArgumentIsFound() {
        let files = InMemoryFileTree(texts: [
            "b/en.lproj/Localizable.strings": "\"k\" = \"%@ sent %lld files\";\n",
            "b/en-XA.lproj/Localizable.strings": "\"k\" = \"[šéñţ %lld ƒîļéš]\";\n",
        ])
        let findings = Linter(files: files, developmentLocale: try? LocaleIdentifier("en")).lint(paths: ["b/en-XA.lproj"])
        #expect(findings.contains { Self.formatCodes.contains($0.diagnostic.code) })
    }
}
