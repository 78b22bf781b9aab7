package import LprojFormatStrings
internal import LprojLocales

/// Which gettext form holds which CLDR category, for one language: found by
/// evaluating both rules over the same numbers (0 to 1,099 and round
/// millions), never assumed. Where they disagree (one gettext form for two
/// categories, or one category split over two forms), the numbers that
/// show it are kept, to be reported.
package struct PluralMapping: Sendable {
    package let rule: GettextPluralRule
    /// The category each gettext form holds: the one that covers its
    /// numbers, or `other` (else the most frequent) when several do.
    package let categoryOfIndex: [PluralCategory?]
    /// Where the two rules disagree, as sentences with numbers.
    package let disagreements: [String]

    /// The numbers both rules are evaluated on.
    package static let samples: [UInt64] = Array(0...1099) + [1_000_000, 2_000_000, 3_000_000, 5_000_000, 10_000_000, 1_000_001, 1_000_002]

    /// The mapping of a language's CLDR rules (from ICU) to a gettext rule.
    package init(language: String, rule: GettextPluralRule) {
        let rules = (try? LocaleIdentifier(language)).flatMap { PluralRules.forLocale($0) }
        var numbers: [Int: [PluralCategory: [UInt64]]] = [:]
        var outOfRange: [UInt64] = []
        for n in Self.samples {
            let category = rules?.category(for: .integer(Int64(n))) ?? .other
            let index = rule.index(for: n)
            guard index < rule.count else {
                outOfRange.append(n)
                continue
            }
            numbers[index, default: [:]][category, default: []].append(n)
        }
        var categoryOfIndex: [PluralCategory?] = Array(repeating: nil, count: rule.count)
        var disagreements: [String] = []
        func list(_ values: [UInt64]) -> String {
            values.prefix(4).map(String.init).joined(separator: ", ") + (values.count > 4 ? ", …" : "")
        }
        for index in 0..<rule.count {
            guard let found = numbers[index] else {
                disagreements.append("gettext form \(index) is never chosen for 0 to 1,099 or the round millions")
                continue
            }
            let chosen = found[.other] != nil && found.count > 1 ? .other : found.max { $0.value.count < $1.value.count }!.key
            categoryOfIndex[index] = chosen
            for (category, values) in found.sorted(by: { $0.key < $1.key }) where category != chosen {
                disagreements.append(
                    "gettext form \(index) holds CLDR '\(chosen)' (\(list(found[chosen]!))) and '\(category)' (\(list(values))); '\(category)' has no form of its own"
                )
            }
        }
        var indexes: [PluralCategory: [Int]] = [:]
        for (index, found) in numbers { for category in found.keys { indexes[category, default: []].append(index) } }
        for (category, list) in indexes.sorted(by: { $0.key < $1.key }) where list.count > 1 {
            let detail = list.sorted().map { index in
                "form \(index) for \(numbers[index]![category]!.prefix(3).map(String.init).joined(separator: ", "))"
            }
            disagreements.append("CLDR '\(category)' is split over gettext \(detail.joined(separator: " and "))")
        }
        if !outOfRange.isEmpty { disagreements.append("the rule gives a form past nplurals for \(list(outOfRange))") }
        self.rule = rule
        self.categoryOfIndex = categoryOfIndex
        self.disagreements = disagreements
    }

    /// The gettext form of a category, when it has one of its own.
    package func index(of category: PluralCategory) -> Int? {
        categoryOfIndex.firstIndex(of: category)
    }
}
