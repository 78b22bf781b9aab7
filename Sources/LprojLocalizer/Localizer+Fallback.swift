internal import LprojEngine
internal import LprojFiles
internal import LprojFormatting
internal import LprojInterface
internal import LprojLocales

extension Localizer {
    /// The fallback bundle directory loaded in process, in the locale lprojd
    /// would choose for the preferred languages with nothing saved: lookups,
    /// plurals, formats and placeholders answer as lprojd would; the choice
    /// is not saved and nothing reloads. Nil without a fallback, or when its
    /// development locale is no locale.
    func fallbackMirror() -> Mirror? {
        guard let fallback = options.fallback, let development = try? LocaleIdentifier(fallback.developmentLocale) else { return nil }
        let configuration = BundleConfiguration(name: bundle, directory: fallback.directory, developmentLocale: development)
        let loaded = BundleLoader(files: DiskFileTree()).load(configuration)
        let preferred = preferredLanguages.compactMap { try? LocaleIdentifier($0) }
        let choice = SelectionPolicy.current(in: loaded, saved: nil, preferred: preferred)
        guard let display = try? loaded.resolve(locale: choice.locale.tag) else { return nil }
        let names = LocaleFormatter(locale: display.standardLocale)
        let locales = loaded.supportedLocales.map { locale in
            Localization.LocaleName(
                locale: locale.tag, name: names.name(of: locale), nativeName: LocaleFormatter.nativeName(of: locale),
                bundleName: loaded.ownName(of: locale, display: display))
        }
        return Mirror(bundle: loaded, locale: display, supportedLocales: locales)
    }
}
