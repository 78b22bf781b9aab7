package import LprojFormatStrings
package import LprojTables

/// One table (`Localizable`, `InfoPlist`, ...) in one `.lproj` folder: its
/// `.stringsdict` entries and its `.strings` entries.
package struct LocalizedTable: Sendable {
    /// Entries of `<table>.strings`; empty if there is no such file.
    package let strings: StringTable
    /// Entries of `<table>.stringsdict`; empty if there is no such file.
    package let plurals: [String: PluralFormat]
    /// The UTF-8 bytes of its keys and values (a plural entry's format key
    /// and forms included), counted once, as the table is made: what
    /// sending it costs, known before a `GetTable` decides where to build it.
    package let byteCount: Int

    /// Creates a table.
    package init(strings: StringTable = .empty, plurals: [String: PluralFormat] = [:]) {
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
    package var entryCount: Int { strings.count + plurals.count }
}
