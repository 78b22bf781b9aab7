internal import LprojEngine
internal import LprojFiles
internal import LprojFormatting
internal import LprojInterface
internal import LprojLocales
internal import LprojSnapshot
internal import Foundation

extension Localizer {
    /// The fallback bundle directory loaded in process, in the locale lprojd
    /// would choose for the preferred languages with nothing saved: lookups,
    /// plurals, formats and placeholders answer as lprojd would; the choice
    /// is not saved and nothing reloads. Nil without a fallback, or when its
    /// development locale is no locale.
    func fallbackMirror() -> Mirror? {
        guard let fallback = options.fallback, let development = try? LocaleIdentifier(fallback.developmentLocale) else { return nil }
        if let shipped = snapshotMirror(fallback.directory, development: development) { return shipped }
        let configuration = BundleConfiguration(name: bundle, directory: fallback.directory, developmentLocale: development)
        let loaded = BundleLoader(files: DiskFileTree()).load(configuration)
        let choice = SelectionPolicy.current(in: loaded, saved: nil, preferred: preferredLocales)
        guard let display = try? loaded.resolve(locale: choice.locale.tag) else { return nil }
        let locales = Self.localeNames(of: loaded, in: display.standardLocale) { loaded.ownName(of: $0, display: display) }
        return Mirror(bundle: loaded, locale: display, supportedLocales: locales)
    }

    /// The mirror of the snapshots an app ships (`LOCALE.lprojsnap`, as
    /// `lprojctl snapshot` writes them), in the locale lprojd would choose
    /// among theirs for the preferred languages; nil when the directory
    /// holds none, or the chosen one cannot be read (a damaged snapshot is
    /// refused whole, never half used).
    func snapshotMirror(_ directory: String, development: LocaleIdentifier) -> Mirror? {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var shipped: [LocaleIdentifier: String] = [:]
        for name in files.prefix(4096) where name.hasSuffix(Self.snapshotExtension) {
            if let locale = try? LocaleIdentifier(String(name.dropLast(Self.snapshotExtension.count))) {
                shipped[locale] = "\(directory)/\(name)"
            }
        }
        guard !shipped.isEmpty else { return nil }
        // The choice lprojd makes, over a bundle of the shipped locales.
        let folders = shipped.keys.map { LprojFolder(name: .locale($0), folderName: "\($0.tag).lproj", standardLocale: $0, tables: [:]) }
        let shelf = LoadedBundle(
            configuration: BundleConfiguration(name: bundle, directory: directory, developmentLocale: development), localizations: folders,
            fileReports: [], problems: [])
        let choice = SelectionPolicy.current(in: shelf, saved: nil, preferred: preferredLocales)
        guard let path = shipped[choice.locale], let snapshot = try? Snapshot.open(path: path) else { return nil }
        let display = (try? LocaleIdentifier(snapshot.locale)) ?? choice.locale
        return Mirror(snapshot: snapshot, supportedLocales: Self.localeNames(of: shelf, in: display) { _ in nil })
    }

    /// The process's preferred languages that are locales.
    private var preferredLocales: [LocaleIdentifier] { preferredLanguages.compactMap { try? LocaleIdentifier($0) } }

    /// A bundle's locales as the language menu names them: in `display`,
    /// in themselves, and by the bundle's own name for each, if it has one.
    private static func localeNames(
        of bundle: LoadedBundle, in display: LocaleIdentifier, ownName: (LocaleIdentifier) -> String?
    ) -> [Localization.LocaleName] {
        let names = LocaleFormatter(locale: display)
        return bundle.supportedLocales.map { locale in
            Localization.LocaleName(
                locale: locale.tag, name: names.name(of: locale), nativeName: LocaleFormatter.nativeName(of: locale),
                bundleName: ownName(locale))
        }
    }

    static let snapshotExtension = ".lprojsnap"
}
