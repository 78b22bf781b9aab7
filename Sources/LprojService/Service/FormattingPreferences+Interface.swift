internal import LprojFormatting
internal import LprojInterface

extension FormattingPreferences {
    /// The interface's `Preferences`: field by field, by name. Nil only if
    /// the two lists of fields parted, which a test rules out.
    var interfacePreferences: Localization.Preferences? {
        try? Localization.Preferences(fields: setFields.map { ($0.rawValue, $1) })
    }
}
