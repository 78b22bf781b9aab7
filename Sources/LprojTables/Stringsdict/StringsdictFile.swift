public import LprojFormatStrings

/// A parsed `.stringsdict` file: the entries that validated, and what was
/// wrong with the others.
public struct StringsdictFile: Sendable {
    /// Valid entries by key.
    public let entries: [String: PluralFormat]
    /// The whole property list as Foundation read it (for `lprojctl dump`).
    public let propertyList: [String: PropertyListValue]
    /// Problems, each naming its key path (`files_count/files/other`).
    public let diagnostics: [Diagnostic]
    /// Where each top-level key is written (XML files only).
    public let keyLocations: [String: SourceLocation]
}
