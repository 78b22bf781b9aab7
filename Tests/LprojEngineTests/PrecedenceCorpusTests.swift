import Foundation
import LprojFiles
import LprojLocales
import LprojTablesOracle
import Testing
@testable import LprojEngine

/// `Lookup` and `GetTable` walk one chain of precedence: on every bundle of
/// the shared corpus, for every locale it has and every key of every table,
/// the whole table resolved for a locale holds exactly what a lookup of each
/// key gives, value and source, with added strings and without.
struct PrecedenceCorpusTests {
    /// Added strings for a few keys at a parent locale and at the development locale.
    struct Overlay: StringOverlay {
        let strings: [LocaleKey: [String: String]]
        func value(forKey key: String, table: String, locale: LocaleKey) -> String? { strings[locale]?[key] }
        func strings(table: String, locale: LocaleKey) -> [String: String] { strings[locale] ?? [:] }
        func name(of locale: LocaleKey) -> String { "added:\(locale.tag)" }
    }

    static func bundles() -> [URL] {
        let folders = Corpus.files(withExtension: "lproj")
        return Set(folders.map { $0.deletingLastPathComponent() }).sorted { $0.path < $1.path }
    }

    @Test func lookupAndWholeTablesAgreeOnEveryKeyOfTheCorpus() throws {
        let bundles = Self.bundles()
        try #require(bundles.count >= 10, "the shared corpus is missing")
        var compared = 0
        for directory in bundles {
            let configuration = BundleConfiguration(
                name: "corpus", directory: directory.path, developmentLocale: try LocaleIdentifier("en"))
            let bundle = BundleLoader().load(configuration)
            let tables = Set(bundle.localizations.flatMap(\.tables.keys))
            let keysByTable = Dictionary(
                uniqueKeysWithValues: tables.map { table in
                    (
                        table,
                        Set(
                            bundle.localizations.flatMap { folder -> [String] in
                                guard let entries = folder.table(named: table) else { return [] }
                                return (0..<entries.strings.count).map(entries.strings.key(at:)) + entries.plurals.keys
                            })
                    )
                })
            let locales =
                bundle.localizations.compactMap { folder -> String? in
                    if case .locale(let locale) = folder.name { return locale.tag } else { return nil }
                } + ["sw-KE"]
            for localeText in locales {
                let locale = try bundle.resolve(locale: localeText)
                for (table, keys) in keysByTable {
                    // Strings added at the locale's last own step and at the development locale.
                    var added: [LocaleKey: [String: String]] = [:]
                    for (index, key) in keys.sorted().enumerated() where index % 7 == 0 {
                        if let stepKey = locale.steps[index % locale.steps.count].key {
                            added[stepKey, default: [:]][key] = "added \(index)"
                        }
                    }
                    for overlay in [nil, Overlay(strings: added)] as [Overlay?] {
                        let whole = bundle.resolvedTable(table, locale: locale, overlay: overlay)
                        for key in keys {
                            let single = bundle.lookup(key, table: table, locale: locale, overlay: overlay)
                            let entry = whole.entries[key]
                            #expect(single.found == (entry != nil), "\(directory.lastPathComponent) \(localeText) \(table) \(key)")
                            #expect(single.value == (entry?.value ?? key), "\(directory.lastPathComponent) \(localeText) \(table) \(key)")
                            #expect(
                                single.sourceDescription == entry?.source, "\(directory.lastPathComponent) \(localeText) \(table) \(key)")
                            #expect(single.plural == entry?.plural)
                            compared += 1
                        }
                        #expect(Set(whole.entries.keys).isSubset(of: keys.union(added.values.flatMap(\.keys))))
                    }
                }
            }
        }
        #expect(compared > 100_000)
    }
}
