/// A parsed `.strings` file: its table, what else it held, and what the
/// parser noticed.
public struct StringsFile: Sendable {
    /// The string entries; the last definition of a key wins, as in Foundation.
    public let table: StringTable
    /// Keys whose (winning) value is not a string: a dictionary, array or
    /// data, in file order. Foundation returns them; lookups treat such keys
    /// as absent. Keys are distinct by their exact bytes, as in the table.
    public let otherValues: [(key: String, value: PropertyListValue)]
    /// Warnings and recoverable errors (duplicate keys, ignored trailing content).
    public let diagnostics: [Diagnostic]
    /// Where each key's winning definition starts; present when requested.
    public let keyLocations: [String: SourceLocation]?
    /// The encoding the file was read in.
    public let encoding: TextEncoding
    /// Whether Foundation read the file (XML or binary property list).
    public let isPropertyList: Bool

    /// The whole file as Foundation would return it: strings and other values.
    public var propertyList: [String: PropertyListValue] {
        var result: [String: PropertyListValue] = [:]
        for (key, value) in otherValues { result[key] = value }
        for index in 0..<table.count { result[table.key(at: index)] = .string(table.value(at: index)) }
        return result
    }
}
