public import LprojFormat
public import LprojTables

/// One table (`Localizable`, `InfoPlist`, ...) in one `.lproj` folder: its
/// `.stringsdict` entries and its `.strings` entries.
public struct LocalizedTable: Sendable {
    /// Entries of `<table>.strings`; empty if there is no such file.
    public let strings: StringTable
    /// Entries of `<table>.stringsdict`; empty if there is no such file.
    public let plurals: [String: PluralFormat]
    /// The UTF-8 bytes of its keys and values (a plural entry's format key
    /// and forms included), counted once, as the table is made: what
    /// sending it costs, known before a `GetTable` decides where to build it.
    public let byteCount: Int

    /// Creates a table.
    public init(strings: StringTable = .empty, plurals: [String: PluralFormat] = [:]) {
        self.strings = strings
        self.plurals = plurals
        var bytes = strings.byteCount
        for (key, plural) in plurals {
            bytes += key.utf8.count + plural.formatKey.utf8.count
            for variable in plural.variables.values {
                for form in variable.forms.values { bytes += form.utf8.count }
            }
        }
        self.byteCount = bytes
    }

    /// The number of keys (a key in both files counts twice).
    public var entryCount: Int { strings.count + plurals.count }
}
