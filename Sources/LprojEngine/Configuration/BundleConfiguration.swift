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
    /// How much of the disk the bundle may make lprojd read and hold.
    package var limits: BundleLimits
    /// The largest table file lprojd will read.
    package var maximumFileSize: Int {
        get { limits.fileSize }
        set { limits.fileSize = newValue }
    }
    /// Which table to serve when a String Catalog and `.lproj` files both
    /// define it for a locale.
    package var catalogConflict: CatalogConflict = .catalog
    /// Serve String Catalog units in every state (`new` included), like
    /// `xcstringstool compile --force-build-all-strings`.
    package var catalogAllStates = false
    /// Offer the pseudo-locales `en-XA` and `ar-XB`: the development
    /// locale's values, transformed (``LprojFormatStrings/PseudoLocalization``).
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
        self.limits = BundleLimits(fileSize: maximumFileSize)
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

/// How much of the disk one bundle may make lprojd read and hold: whoever
/// can write a bundle's folder (a build tool, a user whose folder the
/// administrator registered) must not be able to fill lprojd's memory, or
/// take its time from every other bundle.
///
/// A bundle over a limit keeps its last good version and is reported; it
/// is not read again until its files change.
package struct BundleLimits: Sendable, Hashable {
    /// The largest table file (a file over it is refused on its own).
    package var fileSize = 64 << 20
    /// The bytes of all its table files together.
    package var bytes = 128 << 20
    /// Its table files (`.strings`, `.stringsdict`, String Catalogs).
    package var tables = 50_000
    /// Its `.lproj` folders.
    package var locales = 1_000
    /// Its entries, over every table and locale.
    package var entries = 4_000_000

    /// The defaults (a bundle of 100 locales of 20 tables of 1,000 keys,
    /// 104 MB, is well within them).
    package init(fileSize: Int = 64 << 20) {
        self.fileSize = fileSize
    }

    /// The most entries lprojd reads from one directory of a bundle: a
    /// folder of a million names is refused, not listed to its end.
    package var directoryEntries: Int { tables + locales + 64 }
}

/// A limit of ``BundleLimits`` that a bundle went over.
package struct BundleLimitExceeded: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which limit.
    package enum Limit: String, Sendable, Hashable {
        case bytes, tables, locales, entries, directoryEntries
    }

    package let limit: Limit
    package let maximum: Int
    /// What the bundle would have held, where it was counted to the end.
    package let found: Int?

    package init(_ limit: Limit, maximum: Int, found: Int? = nil) {
        self.limit = limit
        self.maximum = maximum
        self.found = found
    }

    package var description: String {
        let found = self.found.map { "\($0) " } ?? "more "
        switch limit {
        case .bytes: return "its table files hold \(found)bytes, over its limit of \(maximum) (max-bundle-bytes)"
        case .tables: return "it has \(found)table files, over its limit of \(maximum) (max-bundle-tables)"
        case .locales: return "it has \(found).lproj folders, over its limit of \(maximum) (max-bundle-locales)"
        case .entries: return "its tables hold \(found)entries, over its limit of \(maximum) (max-bundle-entries)"
        case .directoryEntries: return "a folder of it holds more than \(maximum) entries"
        }
    }
}
