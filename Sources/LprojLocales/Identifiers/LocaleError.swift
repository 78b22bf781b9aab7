/// Why a locale identifier was not accepted.
package enum LocaleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not a well-formed identifier ("en_", "../x", "zz-ZZZZZ-").
    case malformed(String)
    /// Well-formed, but ICU knows no such language or region, and the
    /// bundle's configuration does not allow it.
    case unknown(String)

    package var description: String {
        switch self {
        case .malformed(let text):
            "'\(text)' is not a locale identifier (expected a BCP 47 tag such as en, en-GB or zh-Hant-TW)"
        case .unknown(let text):
            "'\(text)' is not a locale this system knows; a bundle can allow it by mapping it to a standard locale"
        }
    }
}
