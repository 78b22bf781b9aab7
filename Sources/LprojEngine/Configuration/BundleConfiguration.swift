package import LprojLocales

/// What the administrator says about one bundle.
package struct BundleConfiguration: Sendable, Hashable {
    /// The name clients use; from the configuration, never from a client.
    package var name: String
    /// The directory holding the bundle's `.lproj` folders.
    package var directory: String
    /// The development locale: consulted after a locale's own chain.
    package var developmentLocale: LocaleIdentifier
    /// Locales ICU does not know that this bundle may still use, each
    /// mapped to the standard locale used for its plural rules and number
    /// formats (and consulted after it). Keyed by canonical tag.
    package var customLocales: [String: LocaleIdentifier]
    /// The largest table file lprojd will read.
    package var maximumFileSize: Int
    /// Which table to serve when a String Catalog and `.lproj` files both
    /// define it for a locale.
    package var catalogConflict: CatalogConflict = .catalog
    /// Serve String Catalog units in every state (`new` included), like
    /// `xcstringstool compile --force-build-all-strings`.
    package var catalogAllStates = false
    /// Offer the pseudo-locales `en-XA` and `ar-XB`: the development
    /// locale's values, transformed (``LprojFormat/PseudoLocalization``).
    package var pseudoLocales = false

    /// Creates a configuration.
    package init(
        name: String, directory: String, developmentLocale: LocaleIdentifier,
        customLocales: [String: LocaleIdentifier] = [:], maximumFileSize: Int = 64 << 20
    ) {
        self.name = name
        self.directory = directory
        self.developmentLocale = developmentLocale
        self.customLocales = customLocales
        self.maximumFileSize = maximumFileSize
    }

    /// Whether `name` can be a bundle name: letters, digits, `.`, `_`, `-`,
    /// at most 128 characters.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default:
                    false
                }
            }
    }
}
