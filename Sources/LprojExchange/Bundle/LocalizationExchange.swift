package import LprojFormatStrings
internal import LprojLocales
import LprojTables

/// A bundle's texts for one target language, as translation units: what
/// `export-localizations` writes and what `import-localizations` checks
/// a translator's file against.
///
/// Units are those Xcode exports: one per key of every development-language
/// `.strings` table; for `.stringsdict` entries the format and every plural
/// form (`/KEY:dict/VAR:dict/one:dict/:string`); for String Catalogs each
/// key, plural form, device and substitution form (`KEY|==|plural.one`).
/// Unlike Xcode, which exports the development language's plural
/// categories, the forms are the target language's own CLDR categories,
/// with those its table already has (and `zero` where the development
/// language writes one, as Apple uses it for 0 in every language).
package struct LocalizationExchange: Sendable {
    package let bundle: ExchangeBundle
    /// The target language, as given.
    package let language: String
    /// The target's `.lproj` folder name: the bundle's own folder for the
    /// language, else the language.
    package let targetFolder: String
    /// The categories CLDR gives the target language.
    package let languageCategories: Set<PluralCategory>

    /// Prepares an exchange; fails on a language that is not a BCP 47 tag
    /// of a language this system knows (or one the bundle has a folder
    /// for), and, unless `intoDevelopmentLanguage`, on `Base` and the
    /// development language, whose text every other language falls back to.
    /// A translator's file names its language: only such a tag, mapped to
    /// the bundle's own folder for it (or written as the bundle writes its
    /// folders' names), ever becomes a folder.
    package init(bundle: ExchangeBundle, language: String, intoDevelopmentLanguage: Bool = false) throws(ExchangeError) {
        let developmentOnly = "holds the text every language falls back to: write into it only with --into-development-language"
        if language == "Base" {
            guard intoDevelopmentLanguage else { throw ExchangeError("Base.lproj \(developmentOnly)") }
            self.init(bundle: bundle, language: language, targetFolder: "Base", categories: nil)
            return
        }
        // As written: no space around it, nothing but letters, digits and separators.
        guard !language.isEmpty, language.utf8.count <= LocaleIdentifier.maximumLength, language.utf8.allSatisfy(Self.isTagByte) else {
            throw ExchangeError("'\(language)' is not a BCP 47 language tag")
        }
        let identifier: LocaleIdentifier
        do {
            identifier = try LocaleIdentifier(language)
        } catch {
            throw ExchangeError("'\(language)' is not a BCP 47 language tag")
        }
        let existing = bundle.folders.first { $0 != "Base" && (try? LocaleIdentifier($0)) == identifier }
        guard existing != nil || identifier.extensions.isEmpty && KnownLocales.isKnown(identifier) else {
            throw ExchangeError("'\(language)' is not a language this system knows, and the bundle has no folder for it")
        }
        if let development = try? LocaleIdentifier(bundle.developmentFolder), development == identifier, !intoDevelopmentLanguage {
            throw ExchangeError("\(language) is the development language, whose folder \(developmentOnly)")
        }
        self.init(
            bundle: bundle, language: language, targetFolder: existing ?? Self.folderName(identifier, besides: bundle.folders),
            categories: PluralRules.forLocale(identifier)?.categories)
    }

    private init(bundle: ExchangeBundle, language: String, targetFolder: String, categories: Set<PluralCategory>?) {
        self.bundle = bundle
        self.language = language
        self.targetFolder = targetFolder
        self.languageCategories = categories ?? [.other]
    }

    /// A new folder's name for a locale: its canonical tag, with `_` where
    /// the bundle writes its folders so (`pt_BR.lproj`), as Xcode keeps a
    /// project's convention.
    static func folderName(_ locale: LocaleIdentifier, besides folders: [String]) -> String {
        let compound = folders.filter { $0 != "Base" && ($0.contains("-") || $0.contains("_")) }
        let underscored = compound.filter { $0.contains("_") }.count
        return underscored * 2 > compound.count ? locale.tag.split(separator: "-").joined(separator: "_") : locale.tag
    }

    /// ASCII letters, digits, `-` and `_`.
    private static func isTagByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    /// Every table file's units, sorted by file, then by id: the
    /// development folder's tables, those only `Base.lproj` has, and the
    /// String Catalogs.
    package func tables() -> [ExchangeTable] {
        var tables: [ExchangeTable] = []
        var paths = bundle.tables(inFolder: bundle.developmentFolder)
        // A table only Base.lproj has (base internationalization) is the development language's too.
        if bundle.developmentFolder != "Base" {
            let names = Set(paths.map { $0.split(separator: "/").last! })
            paths += bundle.tables(inFolder: "Base").filter { !names.contains($0.split(separator: "/").last!) }
        }
        for path in paths {
            if path.hasSuffix(".strings") {
                tables.append(stringsTable(developmentPath: path))
            } else if path.hasSuffix(".stringsdict") {
                tables.append(stringsdictTable(developmentPath: path))
            }
        }
        for path in bundle.catalogs { tables.append(catalogTable(path: path)) }
        return tables.sorted { $0.original.utf8.lexicographicallyPrecedes($1.original.utf8) }
    }

    /// The target file beside a development-language file.
    func targetPath(for developmentPath: String) -> String {
        targetFolder + ".lproj/" + developmentPath.split(separator: "/").last!
    }

    /// The forms a plural gets in the target language: CLDR's, those the
    /// target already has, and `zero` where the source writes one. In the
    /// order Xcode sorts unit ids (alphabetical).
    func categories(existing: some Sequence<PluralCategory>, source: some Sequence<PluralCategory>) -> [PluralCategory] {
        var set = languageCategories.union(existing)
        if source.contains(.zero) { set.insert(.zero) }
        return set.sorted { $0.rawValue < $1.rawValue }
    }
}

/// One table file's units.
package struct ExchangeTable: Sendable {
    package enum Kind: Sendable, Hashable {
        case strings, stringsdict, catalog
    }

    package var kind: Kind
    /// XLIFF's `original`: the development-language file, or the catalog.
    package var original: String
    /// The file translations are written to.
    package var targetPath: String
    /// The language of the sources.
    package var sourceLanguage: String
    /// The units, sorted by id.
    package var units: [ExchangeUnit]
    /// Why the table, or some of its units, could not be exported.
    package var problems: [String]

    init(kind: Kind, original: String, targetPath: String, sourceLanguage: String, units: [ExchangeUnit], problems: [String]) {
        self.kind = kind
        self.original = original
        self.targetPath = targetPath
        self.sourceLanguage = sourceLanguage
        self.units = units.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        self.problems = problems
    }
}

/// An exchange that cannot be made at all.
package struct ExchangeError: Error, Sendable, Hashable, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
