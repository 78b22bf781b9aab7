internal import LprojTables

/// Puts extracted keys into a development-language `.strings` table without
/// losing anything: the file's bytes are kept as they are, and only the
/// keys it lacks are appended (in the file's own encoding), each with its
/// comment. Keys the code no longer uses are reported, never deleted: a
/// person decides. Merging again with the same keys changes nothing.
public enum StringsMerge {
    /// What merging one table gives.
    public struct Outcome: Sendable {
        /// The keys appended, in the order written (sorted).
        public var added: [ExtractedString]
        /// Keys of the file that the code no longer uses, sorted.
        public var unused: [String]
        /// The new file; nil when nothing changed.
        public var bytes: [UInt8]?
    }

    public struct Unreadable: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Merges the keys of one table into its file's bytes (nil: no file yet).
    public static func merge(_ strings: [ExtractedString], into existing: [UInt8]?) throws(Unreadable) -> Outcome {
        var present: Set<String> = []
        var encoding = TextEncoding.utf8
        if let existing, !existing.isEmpty {
            do {
                let file = try StringsParser().parse(existing)
                guard !file.isPropertyList else {
                    throw Unreadable(description: "the table is a property list, not a .strings text file; convert it first")
                }
                present = Set(file.table.keys).union(file.otherValues.map(\.key))
                encoding = file.encoding
            } catch let error as Unreadable {
                throw error
            } catch {
                throw Unreadable(description: "the table does not parse: \(error)")
            }
        }
        var seen: Set<String> = []
        let unique = strings.filter { seen.insert($0.key).inserted }
        let added = unique.filter { !present.contains($0.key) }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        let unused = present.subtracting(seen).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        guard !added.isEmpty else { return Outcome(added: [], unused: unused, bytes: nil) }

        var text = ""
        if let existing, !existing.isEmpty, !Self.endsWithNewline(existing, encoding: encoding) { text += "\n" }
        for (index, string) in added.enumerated() {
            if index > 0 || !(existing?.isEmpty ?? true) { text += "\n" }
            text += entry(string)
        }
        return Outcome(added: added, unused: unused, bytes: (existing ?? []) + encode(text, as: encoding))
    }

    /// One entry: its comment (`/* … */`, never closed early by the text),
    /// then `"key" = "value";`.
    public static func entry(_ string: ExtractedString) -> String {
        var text = ""
        if let comment = string.comment, !comment.isEmpty {
            text += "/* \(comment.replacingOccurrences(of: "*/", with: "* /")) */\n"
        }
        text += "\"\(escape(string.key))\" = \"\(escape(string.defaultValue ?? string.key))\";\n"
        return text
    }

    /// A string as a `.strings` literal's body.
    public static func escape(_ text: String) -> String {
        StringsLiteral.escaped(text)
    }

    static func endsWithNewline(_ bytes: [UInt8], encoding: TextEncoding) -> Bool {
        switch encoding {
        case .utf16LittleEndian, .utf16WithoutBOM: bytes.count >= 2 && bytes[bytes.count - 2] == 0x0A && bytes[bytes.count - 1] == 0
        case .utf16BigEndian: bytes.count >= 2 && bytes[bytes.count - 2] == 0 && bytes[bytes.count - 1] == 0x0A
        case .utf32LittleEndian, .utf32BigEndian: false
        case .utf8, .utf8WithBOM: bytes.last == 0x0A
        }
    }

    /// Text in the file's own encoding, so that the appended entries read
    /// as the rest of it (a new file is UTF-8).
    static func encode(_ text: String, as encoding: TextEncoding) -> [UInt8] {
        switch encoding {
        case .utf8, .utf8WithBOM:
            return Array(text.utf8)
        case .utf16LittleEndian, .utf16WithoutBOM:
            return text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        case .utf16BigEndian:
            return text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }
        case .utf32LittleEndian:
            return text.unicodeScalars.flatMap { scalar in (0..<4).map { UInt8(truncatingIfNeeded: scalar.value >> (8 * $0)) } }
        case .utf32BigEndian:
            return text.unicodeScalars.flatMap { scalar in (0..<4).reversed().map { UInt8(truncatingIfNeeded: scalar.value >> (8 * $0)) } }
        }
    }
}
