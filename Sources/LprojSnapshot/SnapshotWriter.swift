/// Writes a ``SnapshotContent`` in the snapshot format
/// (`docs/snapshot-format.md`). The same content always gives the same
/// bytes: tables, keys and texts are written in code-point order, each
/// text once, so that a package's snapshots build reproducibly.
package enum SnapshotWriter {
    /// A snapshot that would not fit the format (4 GiB, 65,535 tables or sources).
    package struct TooLarge: Error, CustomStringConvertible {
        package let description: String
    }

    package static func bytes(of content: SnapshotContent) throws(TooLarge) -> [UInt8] {
        typealias Layout = SnapshotLayout
        let tableNames = content.tables.keys.sorted(by: codePointOrder)
        var sourceNames = Set<String>()
        var entries: [(table: Int, key: String, entry: SnapshotContent.Entry)] = []
        for (tableIndex, table) in tableNames.enumerated() {
            let keys = content.tables[table]!
            for key in keys.keys.sorted(by: codePointOrder) {
                entries.append((tableIndex, key, keys[key]!))
                sourceNames.insert(keys[key]!.source)
            }
        }
        let sources = sourceNames.sorted(by: codePointOrder)
        guard tableNames.count <= Int(UInt16.max), sources.count <= Int(UInt16.max) else {
            throw TooLarge(description: "a snapshot holds at most 65,535 tables and 65,535 sources")
        }
        let sourceIndex = Dictionary(uniqueKeysWithValues: sources.enumerated().map { ($1, $0) })
        var buckets = 4
        while buckets < entries.count * 2 { buckets *= 2 }

        // Sizes first: the texts go last, after everything of fixed place.
        let tablesOffset = Layout.headerSize
        let sourcesOffset = tablesOffset + 8 * tableNames.count
        let entriesOffset = sourcesOffset + 8 * sources.count
        let indexOffset = entriesOffset + Layout.entrySize * entries.count
        let pluralsOffset = indexOffset + 4 * buckets
        var pluralOffsets: [Int: Int] = [:]
        var pluralsSize = 0
        for (index, item) in entries.enumerated() {
            guard let plural = item.entry.plural else { continue }
            pluralOffsets[index] = pluralsOffset + pluralsSize
            pluralsSize += Layout.pluralHeaderSize + Layout.variableSize * plural.variables.count
        }
        var texts = TextBlob(base: pluralsOffset + pluralsSize)
        let bundle = texts.intern(content.bundle), locale = texts.intern(content.locale)
        let rules = texts.intern(content.pluralRulesLocale), development = texts.intern(content.developmentLocale)
        let tableRefs = tableNames.map { texts.intern($0) }
        let sourceRefs = sources.map { texts.intern($0) }
        var entryRefs: [(key: Reference, value: Reference, signature: Reference)] = []
        entryRefs.reserveCapacity(entries.count)
        for item in entries {
            entryRefs.append((texts.intern(item.key), texts.intern(item.entry.value), texts.intern(item.entry.signature)))
        }
        var pluralRefs:
            [Int: (format: Reference, locale: Reference, variables: [(name: Reference, valueType: Reference, forms: [Reference])])] =
                [:]
        for (index, item) in entries.enumerated() {
            guard let plural = item.entry.plural else { continue }
            let variables = plural.variables.keys.sorted(by: codePointOrder).map { name in
                let variable = plural.variables[name]!
                return (
                    name: texts.intern(name), valueType: variable.valueType.map { texts.intern($0) } ?? .absent,
                    forms: Layout.categoryOrder.map { variable.forms[$0].map { texts.intern($0) } ?? .absent }
                )
            }
            pluralRefs[index] = (texts.intern(plural.formatKey), texts.intern(plural.locale), variables)
        }
        let total = texts.base + texts.bytes.count
        guard total <= Int(UInt32.max) else { throw TooLarge(description: "a snapshot is at most 4 GiB; this one would be \(total) bytes") }

        var out = Bytes(count: total)
        out.bytes.replaceSubrange(0..<8, with: Layout.magic)
        out.put16(Layout.majorVersion, at: Layout.versionMajor)
        out.put16(Layout.minorVersion, at: Layout.versionMinor)
        out.put32(Layout.headerSize, at: Layout.headerSizeField)
        out.put64(content.generation, at: Layout.generation)
        out.put32(total, at: Layout.fileSize)
        out.put(bundle, at: Layout.bundle)
        out.put(locale, at: Layout.locale)
        out.put(rules, at: Layout.pluralRulesLocale)
        out.put(development, at: Layout.developmentLocale)
        out.put32(tableNames.count, at: Layout.tableCount)
        out.put32(tablesOffset, at: Layout.tablesOffset)
        out.put32(sources.count, at: Layout.sourceCount)
        out.put32(sourcesOffset, at: Layout.sourcesOffset)
        out.put32(entries.count, at: Layout.entryCount)
        out.put32(entriesOffset, at: Layout.entriesOffset)
        out.put32(buckets, at: Layout.bucketCount)
        out.put32(indexOffset, at: Layout.indexOffset)
        for (index, reference) in tableRefs.enumerated() { out.put(reference, at: tablesOffset + 8 * index) }
        for (index, reference) in sourceRefs.enumerated() { out.put(reference, at: sourcesOffset + 8 * index) }
        for (index, item) in entries.enumerated() {
            let at = entriesOffset + Layout.entrySize * index
            let references = entryRefs[index]
            out.put(references.key, at: at + Layout.entryKey)
            out.put(references.value, at: at + Layout.entryValue)
            out.put16(UInt16(item.table), at: at + Layout.entryTable)
            out.put16(UInt16(sourceIndex[item.entry.source]!), at: at + Layout.entrySource)
            out.put32(pluralOffsets[index] ?? 0, at: at + Layout.entryPlural)
            out.put(references.signature, at: at + Layout.entrySignature)
            // Open addressing, probing linearly: the first empty bucket
            // from the hash holds the entry's index + 1.
            let mask = buckets - 1
            var bucket = Int(Layout.hash(table: tableNames[item.table].utf8, key: item.key.utf8)) & mask
            while out.get32(at: indexOffset + 4 * bucket) != 0 { bucket = (bucket + 1) & mask }
            out.put32(index + 1, at: indexOffset + 4 * bucket)
            if let plural = pluralRefs[index], let start = pluralOffsets[index] {
                out.put(plural.format, at: start)
                out.put(plural.locale, at: start + 8)
                out.put32(plural.variables.count, at: start + 16)
                for (position, variable) in plural.variables.enumerated() {
                    let at = start + Layout.pluralHeaderSize + Layout.variableSize * position
                    out.put(variable.name, at: at)
                    out.put(variable.valueType, at: at + 8)
                    for (slot, form) in variable.forms.enumerated() { out.put(form, at: at + 16 + 8 * slot) }
                }
            }
        }
        precondition(texts.base + texts.bytes.count == total, "every text is interned before the size is known")
        out.bytes.replaceSubrange(texts.base..<total, with: texts.bytes)
        let checksum = out.bytes.withUnsafeBytes { Layout.checksum($0) }
        out.put32(Int(checksum), at: Layout.checksumField)
        return out.bytes
    }

    private static func codePointOrder(_ left: String, _ right: String) -> Bool {
        left.unicodeScalars.lexicographicallyPrecedes(right.unicodeScalars)
    }

    /// A text's place: offset from the start of the file, and length in bytes.
    struct Reference {
        let offset: Int
        let length: UInt32
        static let absent = Reference(offset: 0, length: SnapshotLayout.absent)
    }

    /// Every text of the snapshot, each once.
    private struct TextBlob {
        let base: Int
        var bytes: [UInt8] = []
        var places: [String: Reference] = [:]

        init(base: Int) { self.base = base }

        mutating func intern(_ text: String) -> Reference {
            if let known = places[text] { return known }
            let reference = Reference(offset: base + bytes.count, length: UInt32(text.utf8.count))
            bytes.append(contentsOf: text.utf8)
            places[text] = reference
            return reference
        }
    }

    private struct Bytes {
        var bytes: [UInt8]

        init(count: Int) { bytes = [UInt8](repeating: 0, count: count) }

        mutating func put16(_ value: UInt16, at offset: Int) {
            bytes[offset] = UInt8(truncatingIfNeeded: value)
            bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
        }

        mutating func put32(_ value: Int, at offset: Int) {
            for byte in 0..<4 { bytes[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
        }

        mutating func put64(_ value: UInt64, at offset: Int) {
            for byte in 0..<8 { bytes[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte))) }
        }

        mutating func put(_ reference: Reference, at offset: Int) {
            put32(reference.offset, at: offset)
            put32(Int(reference.length), at: offset + 4)
        }

        func get32(at offset: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
        }
    }
}
