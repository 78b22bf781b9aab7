internal import Foundation
internal import LprojEngine
internal import LprojLocales

/// One bundle as a configuration writes it: an entry of `lprojd.conf`'s
/// `bundles:`, or a whole drop-in file. Both are read by this one model and
/// checked by this one function, so that they cannot drift apart.
struct BundleEntry: Decodable {
    var name: String?
    var directory: String
    var developmentLocale: String?
    var customLocales: [String: String]?
    var catalogConflicts: String?
    var catalogAllStates: Bool?
    var pseudoLocales: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, directory
        case developmentLocale = "development-locale"
        case customLocales = "custom-locales"
        case catalogConflicts = "catalog-conflicts"
        case catalogAllStates = "catalog-all-states"
        case pseudoLocales = "pseudo-locales"
    }

    init(from decoder: any Decoder) throws {
        try decoder.container(keyedBy: AnyKey.self).refuseUnknownKeys(but: CodingKeys.self)
        let known = try decoder.container(keyedBy: CodingKeys.self)
        name = try known.decodeIfPresent(String.self, forKey: .name)
        directory = try known.decode(String.self, forKey: .directory)
        developmentLocale = try known.decodeIfPresent(String.self, forKey: .developmentLocale)
        customLocales = try known.decodeIfPresent([String: String].self, forKey: .customLocales)
        catalogConflicts = try known.decodeIfPresent(String.self, forKey: .catalogConflicts)
        catalogAllStates = try known.decodeIfPresent(Bool.self, forKey: .catalogAllStates)
        pseudoLocales = try known.decodeIfPresent(Bool.self, forKey: .pseudoLocales)
    }

    /// The bundle this entry says, named `name`. `path` is the entry's
    /// place in `document` (for errors); a relative `directory` is taken
    /// relative to `baseDirectory`.
    func configuration(
        named name: String, document: YAMLDocument, path: [any CodingKey], baseDirectory: String, limits: BundleLimits
    ) throws(ConfigurationError) -> BundleConfiguration {
        func key(_ key: CodingKeys) -> [any CodingKey] { path + [key] }
        guard BundleConfiguration.isValidName(name) else {
            throw document.error(at: key(.name), "'\(name)' is not a bundle name (letters, digits, '.', '_' and '-')")
        }
        guard !directory.isEmpty else { throw document.error(at: key(.directory), "the directory is empty") }
        let absolute =
            directory.hasPrefix("/")
            ? directory : URL(fileURLWithPath: baseDirectory).appendingPathComponent(directory).standardizedFileURL.path
        let development: LocaleIdentifier
        do {
            development = try LocaleIdentifier(developmentLocale ?? "en")
        } catch {
            throw document.error(at: key(.developmentLocale), "\(error)")
        }
        var custom: [String: LocaleIdentifier] = [:]
        for (given, standard) in (customLocales ?? [:]).sorted(by: { $0.key < $1.key }) {
            let place = key(.customLocales) + [AnyKey(stringValue: given)]
            do {
                let tag = try LocaleIdentifier(given)
                let target = try LocaleIdentifier(standard)
                guard KnownLocales.isKnown(target) else {
                    throw document.error(at: place, "'\(standard)' is not a standard locale")
                }
                custom[tag.tag] = target
            } catch let problem as ConfigurationError {
                throw problem
            } catch {
                throw document.error(at: place, "\(error)")
            }
        }
        var bundle = BundleConfiguration(name: name, directory: absolute, developmentLocale: development, customLocales: custom)
        bundle.limits = limits
        if let catalogConflicts {
            guard let conflict = CatalogConflict(rawValue: catalogConflicts) else {
                throw document.error(
                    at: key(.catalogConflicts),
                    "'\(catalogConflicts)' is not one of \(CatalogConflict.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            bundle.catalogConflict = conflict
        }
        bundle.catalogAllStates = catalogAllStates ?? false
        bundle.pseudoLocales = pseudoLocales ?? false
        return bundle
    }
}
