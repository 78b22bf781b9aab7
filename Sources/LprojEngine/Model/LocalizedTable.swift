public import LprojFormat
public import LprojTables

/// One table (`Localizable`, `InfoPlist`, ...) in one `.lproj` folder: its
/// `.stringsdict` entries and its `.strings` entries.
public struct LocalizedTable: Sendable {
    /// Entries of `<table>.strings`; empty if there is no such file.
    public let strings: StringTable
    /// Entries of `<table>.stringsdict`; empty if there is no such file.
    public let plurals: [String: PluralFormat]

    /// Creates a table.
    public init(strings: StringTable = .empty, plurals: [String: PluralFormat] = [:]) {
        self.strings = strings
        self.plurals = plurals
    }

    /// The number of keys (a key in both files counts twice).
    public var entryCount: Int { strings.count + plurals.count }
}
