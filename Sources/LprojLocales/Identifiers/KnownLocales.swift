/// The locales this system knows, as ICU's data (CLDR 42) defines them:
/// SDLocalizationManager's `allowsOnlyLocalesAvailableOnSystem`.
package enum KnownLocales {
    /// Whether ICU has data for the locale's language (directly, or through
    /// a parent, as `en-JP` has through `en`) and knows its region.
    package static func isKnown(_ locale: LocaleIdentifier) -> Bool {
        known.value(forKey: locale.tag) {
            guard ICU.hasData(locale.tag) else { return false }
            if let region = locale.region, !ICU.isKnownRegion(region) { return false }
            return true
        }
    }

    /// Answers already given, by tag (ICU's data does not change while the
    /// process runs).
    private static let known = BoundedCache<String, Bool>(capacity: 4096)

    /// The locales ICU lists as available, sorted.
    package static let available: [LocaleIdentifier] = ICU.availableTags.map(LocaleIdentifier.init(canonicalTag:)).sorted()
}
