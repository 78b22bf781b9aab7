package import LprojFormatStrings
package import LprojLocales

extension PseudoLocalization {
    /// The locale a client selects for it, as CLDR and Android name it.
    package var locale: LocaleIdentifier {
        switch self {
        case .accented: Self.accentedLocale
        case .bidirectional: Self.bidirectionalLocale
        }
    }

    /// The locale whose numbers, dates and plural rules it uses.
    package var baseLocale: LocaleIdentifier {
        switch self {
        case .accented: Self.english
        case .bidirectional: Self.arabic
        }
    }

    /// The pseudo-locale a locale names (`en-XA`, `ar-XB`, in any spelling).
    package init?(_ locale: LocaleIdentifier) {
        switch locale.matchKey {
        case Self.accentedLocale.matchKey: self = .accented
        case Self.bidirectionalLocale.matchKey: self = .bidirectional
        default: return nil
        }
    }

    // Constant, well-formed tags.
    private static let accentedLocale = try! LocaleIdentifier("en-XA")
    private static let bidirectionalLocale = try! LocaleIdentifier("ar-XB")
    private static let english = try! LocaleIdentifier("en")
    private static let arabic = try! LocaleIdentifier("ar")
}
