/// What an `.lproj` folder's name stands for.
package enum LprojName: Sendable, Hashable, CustomStringConvertible {
    /// `Base.lproj`: the development-language base internationalization.
    case base
    /// A locale's folder: `en.lproj`, `pt-BR.lproj`, `English.lproj`.
    case locale(LocaleIdentifier)

    /// Reads a folder name, with or without its `.lproj` extension.
    package init(folderName: String) throws(LocaleError) {
        var name = folderName
        if name.hasSuffix(".lproj") { name.removeLast(6) }
        if name == "Base" {
            self = .base
        } else {
            self = .locale(try LocaleIdentifier(name))
        }
    }

    package var description: String {
        switch self {
        case .base: "Base"
        case .locale(let locale): locale.tag
        }
    }
}
