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
        let choice = SelectionPolicy.current(in: shelf, saved: nil, preferred: preferredLanguages.compactMap { try? LocaleIdentifier($0) })
        guard let path = shipped[choice.locale], let snapshot = try? Snapshot.open(path: path) else { return nil }
        let display = (try? LocaleIdentifier(snapshot.locale)) ?? choice.locale
        let names = LocaleFormatter(locale: display)
        let locales = shelf.supportedLocales.map { locale in
            Localization.LocaleName(
                locale: locale.tag, name: names.name(of: locale), nativeName: LocaleFormatter.nativeName(of: locale), bundleName: nil)
        }
        return Mirror(snapshot: snapshot, supportedLocales: locales)
    }

    static let snapshotExtension = ".lprojsnap"
}
