import LprojTables
import Testing

@Suite struct StringTableTests {
    /// A table built from a dictionary's entries, unsorted, answers every
    /// key with its value, and nothing else; whatever the order given.
    @Test func aTableOfUniqueEntriesAnswersAsTheDictionary() {
        var dictionary: [String: String] = ["": "empty key", "é": "accented", "long": String(repeating: "x", count: 300)]
        for index in 0..<5000 { dictionary["screen\(index % 40).label.\(index)"] = "Beschriftung Nummer \(index)" }
        let table = StringTable(uniqueEntries: dictionary)
        #expect(table.count == dictionary.count)
        for (key, value) in dictionary { #expect(table.value(forKey: key) == value) }
        #expect(table.value(forKey: "screen0.label.5000") == nil)
        #expect(table.dictionary == dictionary)
        #expect(StringTable(uniqueEntries: [String: String]()).isEmpty)
    }
}
