import LprojLocales

/// How a lookup's answer relates to what was asked: whether a translator
/// for the requested locale still has something to add.
package enum LookupCoverage: Sendable, Equatable {
    /// The locale's own chain had the key (or the client added it).
    case own
    /// Another folder answered (the development locale's, or Base), or
    /// nothing did but some table of the bundle has the key.
    case missed
    /// No table of the bundle has the key at all.
    case unknownKey
}

extension LoadedBundle {
    /// Keys longer than this are not looked for in every folder.
    package static let longestCheckedKey = 4096

    /// Whether a lookup's answer came from the requested locale's own
    /// chain. Base counts as the locale's own when the locale is the
    /// development locale's language (Base then holds its strings).
    package func coverage(of result: LookupResult, key: String, table: String, locale: ResolvedLocale) -> LookupCoverage {
        if locale.isOwn(chainPosition: result.chainPosition) { return .own }
        if let added = result.addedLocale {
            // A string the client added for one of the locale's own steps.
            guard let addedFor = try? LocaleIdentifier(added) else { return .missed }
            return locale.steps.prefix(locale.ownStepCount).contains { $0.key == addedFor.matchKey } ? .own : .missed
        }
        if result.localization != nil { return .missed }
        // Whether the key is anywhere: hashed against every folder's table,
        // so only for keys of a plausible length (a longer one is counted
        // as unknown, without that cost on the event loop).
        guard key.utf8.count <= Self.longestCheckedKey else { return .unknownKey }
        let somewhere = localizations.contains { folder in
            guard let entries = folder.table(named: table) else { return false }
            return entries.plurals[key] != nil || entries.strings.contains(key)
        }
        return somewhere ? .missed : .unknownKey
    }
}
