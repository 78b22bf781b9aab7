import LprojLocales

/// One miss lprojd counted: a key a lookup in a locale did not find there.
package struct ObservedMiss: Sendable, Hashable {
    package let locale: String
    package let table: String
    package let key: String
    package let count: Int

    package init(locale: String, table: String, key: String, count: Int) {
        self.locale = locale
        self.table = table
        self.key = key
        self.count = count
    }
}

extension CoverageReport {
    /// The report with lprojd's misses beside its missing keys. A miss in a
    /// locale the report does not list counts for the report's locale its
    /// fallback chain reaches first (`fr-CA` for `fr`): that is the
    /// translation that would have answered it.
    package func addingMisses(_ misses: [ObservedMiss]) -> CoverageReport {
        var report = self
        var indexByKey: [LocaleKey: Int] = [:]
        for (index, locale) in locales.enumerated() {
            if let identifier = try? LocaleIdentifier(locale.locale) { indexByKey[identifier.matchKey] = index }
        }
        for miss in misses {
            guard let identifier = try? LocaleIdentifier(miss.locale),
                let index = FallbackChain(identifier).keys.lazy.compactMap({ indexByKey[$0] }).first,
                let table = report.locales[index].tables.firstIndex(where: { $0.table == miss.table }),
                report.locales[index].tables[table].missingKeys.contains(miss.key)
            else { continue }
            report.locales[index].tables[table].misses[miss.key, default: 0] += miss.count
        }
        return report
    }
}
