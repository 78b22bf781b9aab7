package import LprojFormatStrings

/// One translatable text of one table file, in one target language: what
/// an XLIFF trans-unit or a PO message carries, and where its translation
/// goes back.
package struct ExchangeUnit: Sendable, Hashable {
    /// The id Xcode gives it.
    package var id: String
    /// The development language's text, as exported.
    package var source: String
    /// The target language's text, as exported; nil when it has none.
    package var target: String?
    /// XLIFF's state of the target.
    package var state: String?
    package var stateQualifier: String?
    /// The developer's comment.
    package var note: String?
    package var noteFrom: String?
    /// Where the translation goes.
    package var address: Address
    /// The key of the table this unit belongs to.
    package var key: String

    /// Where a unit's translation is written.
    package enum Address: Sendable, Hashable {
        /// A `.strings` value.
        case strings(key: String)
        /// A `.stringsdict` entry's format, or one form of one of its variables.
        case stringsdictFormat(key: String)
        case stringsdictForm(key: String, variable: String, targetVariable: String, category: PluralCategory)
        /// A unit of a String Catalog.
        case catalog(key: String, path: CatalogUnitPath)
    }

    /// The plural category the unit is a form of, if any.
    package var category: PluralCategory? {
        switch address {
        case .stringsdictForm(_, _, _, let category): category
        case .catalog(_, let path): path.category
        case .strings, .stringsdictFormat: nil
        }
    }
}

/// Which unit of a catalog's localization.
package enum CatalogUnitPath: Sendable, Hashable {
    case plain
    case plural(PluralCategory)
    case device(String)
    case devicePlural(String, PluralCategory)
    case substitution(String, PluralCategory)

    /// The plural category, if it is a form.
    package var category: PluralCategory? {
        switch self {
        case .plain, .device: nil
        case .plural(let category), .devicePlural(_, let category), .substitution(_, let category): category
        }
    }

    /// The part of Xcode's unit id after `|==|` (nil for the plain unit).
    package var idSuffix: String? {
        switch self {
        case .plain: nil
        case .plural(let category): "plural.\(category)"
        case .device(let device): "device.\(device)"
        case .devicePlural(let device, let category): "device.\(device).plural.\(category)"
        case .substitution(let name, let category): "substitutions.\(name.contains(".") ? "@\(name)@" : name).plural.\(category)"
        }
    }
}
