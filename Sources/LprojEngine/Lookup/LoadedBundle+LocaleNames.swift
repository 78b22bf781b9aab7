package import LprojLocales

extension LoadedBundle {
    /// The bundle's own name for one of its locales, as the display locale's
    /// tables write it: SDLocalizationManager's `LM_locale_name_<locale>` in
    /// `Localizable` (its ids were written with `_`, `it_IT`; ours with `-`,
    /// so both spellings are tried). Nil when no table names it.
    package func ownName(of locale: LocaleIdentifier, display: ResolvedLocale, overlay: (any StringOverlay)? = nil) -> String? {
        let underscored = locale.tag.replacing("-", with: "_")
        let keys =
            underscored == locale.tag
            ? ["LM_locale_name_\(locale.tag)"] : ["LM_locale_name_\(locale.tag)", "LM_locale_name_\(underscored)"]
        return lookup(anyOf: keys, locale: display, overlay: overlay)?.value
    }
}
