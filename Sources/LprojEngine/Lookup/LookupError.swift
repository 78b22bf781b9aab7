package import LprojFormatStrings
package import LprojLocales

/// Why a lookup could not be answered.
package enum LookupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The requested locale is malformed, or unknown and not allowed by the bundle.
    case invalidLocale(LocaleError)
    /// The table name is not a plain name.
    case invalidTableName(String)
    /// The value could not be formatted with the arguments given.
    case invalidArguments(FormatError)

    package var description: String {
        switch self {
        case .invalidLocale(let error): error.description
        case .invalidTableName(let name): "'\(name)' is not a table name (a plain file name without extension, such as Localizable)"
        case .invalidArguments(let error): error.description
        }
    }
}
