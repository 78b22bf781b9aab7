package import LprojLocales

/// Why a selection applies.
package enum SelectionReason: String, Sendable {
    /// The client's saved choice.
    case saved
    /// Chosen from the client's preferred languages (and saved).
    case preferred
    /// The bundle's development locale.
    case `default`
}

/// SDLocalizationManager's choice of locale, for one bundle.
package enum SelectionPolicy {
    /// The bundle's locale that answers `locale`: the locale itself, else
    /// its language without region (`de-AT` → `de`), else `nil`. The
    /// development locale always counts as supported.
    package static func supportedLocale(matching locale: LocaleIdentifier, in bundle: LoadedBundle) -> LocaleIdentifier? {
        if let exact = bundle.selectableLocales[locale.matchKey] { return exact }
        return bundle.selectableLocales[locale.languageOnly.matchKey]
    }

    /// The outcome of choosing.
    package struct Choice: Sendable, Equatable {
        /// The locale chosen.
        package let locale: LocaleIdentifier
        /// Why.
        package let reason: SelectionReason
        /// Whether it is to be saved now (a preferred language's choice).
        package let save: Bool
        /// Whether a saved choice no longer applies and is to be forgotten.
        package let forgetSaved: Bool

        package init(locale: LocaleIdentifier, reason: SelectionReason, save: Bool, forgetSaved: Bool) {
            self.locale = locale
            self.reason = reason
            self.save = save
            self.forgetSaved = forgetSaved
        }
    }

    /// The locale that applies: the saved one if still supported; else the
    /// first preferred language supported, exactly or by its language
    /// (checked in that order for each preferred language before the next);
    /// else the development locale.
    ///
    /// A saved locale the bundle lacks now is kept, not replaced: its folder
    /// may be gone only for a moment (a package upgrade, a checkout), and the
    /// user's choice applies again once it is back. Only a preferred
    /// language chosen with nothing saved is saved.
    package static func current(in bundle: LoadedBundle, saved: String?, preferred: [LocaleIdentifier]) -> Choice {
        if let saved, let locale = try? LocaleIdentifier(saved), let supported = supportedLocale(matching: locale, in: bundle),
            supported.matchKey == locale.matchKey
        {
            return Choice(locale: supported, reason: .saved, save: false, forgetSaved: false)
        }
        for wanted in preferred {
            if let supported = supportedLocale(matching: wanted, in: bundle) {
                return Choice(locale: supported, reason: .preferred, save: saved == nil, forgetSaved: false)
            }
        }
        return Choice(locale: bundle.configuration.developmentLocale, reason: .default, save: false, forgetSaved: false)
    }

    /// What selecting `requested` chooses: it, else its language, else the
    /// development locale (which is not saved: the client's preferred
    /// languages may still apply later).
    package static func select(_ requested: LocaleIdentifier, in bundle: LoadedBundle) -> Choice {
        if let supported = supportedLocale(matching: requested, in: bundle) {
            return Choice(locale: supported, reason: .saved, save: true, forgetSaved: false)
        }
        return Choice(locale: bundle.configuration.developmentLocale, reason: .default, save: false, forgetSaved: true)
    }
}
