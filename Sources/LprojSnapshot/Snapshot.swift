#if canImport(Glibc)
    import Glibc
#endif

/// A snapshot, read where it lies: in memory, or mapped from its file and
/// shared with every process that maps it. Nothing is parsed before the
/// first lookup: opening checks the header and that each section lies in
/// the file (O(1)); a lookup hashes its key, probes the index and reads
/// the one entry it finds, checking each offset and length before use.
/// A corrupted or hostile snapshot is refused at opening, or gives no
/// answer for what it garbles; it never makes a read outside its bytes, and
/// no lookup takes more than one pass over the index. ``verify()`` checks
/// everything, its checksum included.
package final class Snapshot: @unchecked Sendable {
    // @unchecked: the bytes are immutable once opened (an owned array, or
    // a read-only mapping of a file lprojd never rewrites in place).
    private let storage: Storage
    private let bytes: UnsafeRawBufferPointer

    package let generation: UInt64
    package let bundle: String
    package let locale: String
    package let developmentLocale: String
    package let pluralRulesLocale: String
    package let entryCount: Int
    private let tableCount: Int, tablesOffset: Int
    private let sourceCount: Int, sourcesOffset: Int
    private let entriesOffset: Int
    private let bucketCount: Int, indexOffset: Int

    /// A snapshot of these bytes (copied once, kept in memory).
    package convenience init(bytes: [UInt8]) throws(SnapshotError) {
        try self.init(storage: .array(bytes))
    }

    /// The snapshot in a file. A file only its reader's user or root can
    /// write (as lprojd's and an installed package's are) is mapped, and
    /// shared with every process that maps it; any other is read into
    /// memory, since a mapped file someone truncates would end the process
    /// with SIGBUS. At most `maximumSize` bytes.
    package static func open(path: String, maximumSize: Int = 1 << 30) throws(SnapshotError) -> Snapshot {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { throw SnapshotError("\(path): cannot be opened (\(String(cString: strerror(errno))))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw SnapshotError("\(path): not a regular file")
        }
        let size = Int(status.st_size)
        guard size <= maximumSize else { throw SnapshotError("\(path): \(size) bytes, over the \(maximumSize) a snapshot may have") }
        guard size >= SnapshotLayout.headerSize else { throw SnapshotError("\(path): \(size) bytes, too short for a snapshot") }
        let trusted = (status.st_uid == 0 || status.st_uid == getuid()) && status.st_mode & (S_IWGRP | S_IWOTH) == 0
        if trusted {
            guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
                throw SnapshotError("\(path): cannot be mapped (\(String(cString: strerror(errno))))")
            }
            return try Snapshot(storage: .mapped(address: address, size: size))
        }
        var contents = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = contents.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, size - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw SnapshotError("\(path): ended after \(done) of \(size) bytes") }
            done += count
        }
        return try Snapshot(storage: .array(contents))
    }

    private init(storage: Storage) throws(SnapshotError) {
        self.storage = storage
        let bytes = storage.bytes
        self.bytes = bytes
        typealias Layout = SnapshotLayout
        guard bytes.count >= Layout.headerSize, Array(bytes[0..<8]) == Layout.magic else {
            throw SnapshotError("not a snapshot (no LPROJSNP header)")
        }
        let major = Self.u16(bytes, Layout.versionMajor)
        guard major == Layout.majorVersion else {
            throw SnapshotError("a snapshot of format \(major), where this reader reads format \(Layout.majorVersion)")
        }
        let headerSize = Int(Self.u32(bytes, Layout.headerSizeField))
        guard headerSize >= Layout.headerSize, headerSize <= bytes.count else {
            throw SnapshotError("its header size \(headerSize) is wrong")
        }
        let fileSize = Int(Self.u32(bytes, Layout.fileSize))
        guard fileSize == bytes.count else {
            throw SnapshotError("it says it has \(fileSize) bytes, and has \(bytes.count): truncated or extended")
        }
        generation = Self.u64(bytes, Layout.generation)
        tableCount = Int(Self.u32(bytes, Layout.tableCount))
        tablesOffset = Int(Self.u32(bytes, Layout.tablesOffset))
        sourceCount = Int(Self.u32(bytes, Layout.sourceCount))
        sourcesOffset = Int(Self.u32(bytes, Layout.sourcesOffset))
        entryCount = Int(Self.u32(bytes, Layout.entryCount))
        entriesOffset = Int(Self.u32(bytes, Layout.entriesOffset))
        bucketCount = Int(Self.u32(bytes, Layout.bucketCount))
        indexOffset = Int(Self.u32(bytes, Layout.indexOffset))
        guard tableCount <= Int(UInt16.max), sourceCount <= Int(UInt16.max) else {
            throw SnapshotError("more than 65,535 tables or sources")
        }
        guard bucketCount > entryCount, bucketCount & (bucketCount - 1) == 0 else {
            throw SnapshotError("its index of \(bucketCount) buckets cannot hold \(entryCount) entries")
        }
        for (name, offset, size) in [
            ("tables", tablesOffset, 8 * tableCount), ("sources", sourcesOffset, 8 * sourceCount),
            ("entries", entriesOffset, Layout.entrySize * entryCount), ("index", indexOffset, 4 * bucketCount),
        ] {
            guard offset >= headerSize, offset % 4 == 0, size <= bytes.count - offset else {
                throw SnapshotError("its \(name) lie outside the file")
            }
        }
        func headerText(_ field: Int, _ name: String) throws(SnapshotError) -> String {
            guard let text = Self.text(bytes, at: field, strict: true) else {
                throw SnapshotError("its \(name) is outside the file or not UTF-8")
            }
            return text
        }
        bundle = try headerText(Layout.bundle, "bundle")
        locale = try headerText(Layout.locale, "locale")
        developmentLocale = try headerText(Layout.developmentLocale, "development locale")
        pluralRulesLocale = try headerText(Layout.pluralRulesLocale, "plural rules' locale")
    }

    // MARK: Lookups

    /// The names of its tables.
    package var tableNames: [String] {
        (0..<tableCount).compactMap { Self.text(bytes, at: tablesOffset + 8 * $0, strict: false) }
    }

    /// A key's entry in a table; nil when the snapshot has none (or
    /// garbles it).
    package func lookup(_ key: String, table: String = "Localizable") -> SnapshotContent.Entry? {
        guard let position = find(key, table: table) else { return nil }
        return entry(at: position)
    }

    /// Just a key's value: the lookup of an app's every string.
    package func value(_ key: String, table: String = "Localizable") -> String? {
        guard let position = find(key, table: table) else { return nil }
        return Self.text(bytes, at: entriesOffset + SnapshotLayout.entrySize * position + SnapshotLayout.entryValue, strict: false)
    }

    private func find(_ key: String, table: String) -> Int? {
        guard let tableIndex = self.tableIndex(table) else { return nil }
        var key = key
        return key.withUTF8 { keyBytes -> Int? in
            let mask = bucketCount - 1
            var bucket = Int(SnapshotLayout.hash(table: table.utf8, key: keyBytes)) & mask
            for _ in 0..<bucketCount {
                let slot = Int(Self.u32(bytes, indexOffset + 4 * bucket))
                if slot == 0 { return nil }
                if slot <= entryCount {
                    let at = entriesOffset + SnapshotLayout.entrySize * (slot - 1)
                    if Int(Self.u16(bytes, at + SnapshotLayout.entryTable)) == tableIndex,
                        let stored = Self.region(bytes, at: at + SnapshotLayout.entryKey),
                        Self.same(stored, UnsafeRawBufferPointer(keyBytes))
                    {
                        return slot - 1
                    }
                }
                bucket = (bucket + 1) & mask
            }
            return nil
        }
    }

    private func tableIndex(_ name: String) -> Int? {
        var name = name
        return name.withUTF8 { wanted -> Int? in
            for index in 0..<tableCount {
                if let stored = Self.region(bytes, at: tablesOffset + 8 * index), Self.same(stored, UnsafeRawBufferPointer(wanted)) {
                    return index
                }
            }
            return nil
        }
    }

    /// The entry at a position of the entries, decoded; nil if garbled.
    private func entry(at position: Int, strict: Bool = false) -> SnapshotContent.Entry? {
        typealias Layout = SnapshotLayout
        let at = entriesOffset + Layout.entrySize * position
        let source = Int(Self.u16(bytes, at + Layout.entrySource))
        guard source < sourceCount,
            let value = Self.text(bytes, at: at + Layout.entryValue, strict: strict),
            let sourceName = Self.text(bytes, at: sourcesOffset + 8 * source, strict: strict),
            let signature = Self.text(bytes, at: at + Layout.entrySignature, strict: strict)
        else { return nil }
        let pluralOffset = Int(Self.u32(bytes, at + Layout.entryPlural))
        var plural: SnapshotContent.Plural?
        if pluralOffset != 0 {
            guard let decoded = self.plural(at: pluralOffset, strict: strict) else { return nil }
            plural = decoded
        }
        return SnapshotContent.Entry(value: value, source: sourceName, plural: plural, signature: signature)
    }

    private func plural(at offset: Int, strict: Bool) -> SnapshotContent.Plural? {
        typealias Layout = SnapshotLayout
        guard offset >= indexOffset + 4 * bucketCount, offset % 4 == 0, Layout.pluralHeaderSize <= bytes.count - offset else { return nil }
        let count = Int(Self.u32(bytes, offset + 16))
        guard count <= (bytes.count - offset - Layout.pluralHeaderSize) / Layout.variableSize,
            let format = Self.text(bytes, at: offset, strict: strict), let locale = Self.text(bytes, at: offset + 8, strict: strict)
        else { return nil }
        var variables: [String: SnapshotContent.Variable] = [:]
        for position in 0..<count {
            let at = offset + Layout.pluralHeaderSize + Layout.variableSize * position
            guard let name = Self.text(bytes, at: at, strict: strict) else { return nil }
            var valueType: String?
            if Self.u32(bytes, at + 12) != Layout.absent {
                guard let text = Self.text(bytes, at: at + 8, strict: strict) else { return nil }
                valueType = text
            }
            var forms: [String: String] = [:]
            for (slot, category) in Layout.categoryOrder.enumerated() where Self.u32(bytes, at + 20 + 8 * slot) != Layout.absent {
                guard let form = Self.text(bytes, at: at + 16 + 8 * slot, strict: strict) else { return nil }
                forms[category] = form
            }
            variables[name] = SnapshotContent.Variable(valueType: valueType, forms: forms)
        }
        return SnapshotContent.Plural(formatKey: format, locale: locale, variables: variables)
    }

    // MARK: Checking everything

    /// Checks everything: the checksum, every entry and text (UTF-8),
    /// every plural record, and that the index finds every entry.
    package func verify() throws(SnapshotError) {
        let stored = Self.u32(bytes, SnapshotLayout.checksumField)
        let computed = SnapshotLayout.checksum(bytes)
        guard stored == computed else { throw SnapshotError("its checksum is wrong: corrupted") }
        let tables = (0..<tableCount).map { Self.text(bytes, at: tablesOffset + 8 * $0, strict: true) }
        guard !tables.contains(where: { $0 == nil }),
            (0..<sourceCount).allSatisfy({ Self.text(bytes, at: sourcesOffset + 8 * $0, strict: true) != nil })
        else { throw SnapshotError("a table's or source's name is outside the file or not UTF-8") }
        for position in 0..<entryCount {
            let at = entriesOffset + SnapshotLayout.entrySize * position
            let table = Int(Self.u16(bytes, at + SnapshotLayout.entryTable))
            guard table < tableCount, let key = Self.text(bytes, at: at + SnapshotLayout.entryKey, strict: true),
                entry(at: position, strict: true) != nil
            else { throw SnapshotError("entry \(position) is garbled") }
            guard find(key, table: tables[table]!) == position else { throw SnapshotError("the index does not find entry \(position)") }
        }
    }

    /// Everything it holds, decoded (for tools and tests).
    package func content() throws(SnapshotError) -> SnapshotContent {
        try verify()
        let names = tableNames
        var tables: [String: [String: SnapshotContent.Entry]] = [:]
        for name in names { tables[name] = [:] }
        for position in 0..<entryCount {
            let at = entriesOffset + SnapshotLayout.entrySize * position
            let table = names[Int(Self.u16(bytes, at + SnapshotLayout.entryTable))]
            guard let key = Self.text(bytes, at: at + SnapshotLayout.entryKey, strict: true), let entry = entry(at: position, strict: true)
            else {
                throw SnapshotError("entry \(position) is garbled")
            }
            tables[table, default: [:]][key] = entry
        }
        return SnapshotContent(
            bundle: bundle, locale: locale, developmentLocale: developmentLocale, pluralRulesLocale: pluralRulesLocale,
            generation: generation, tables: tables)
    }

    // MARK: Reading bytes, every one checked

    private static func u16(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt16 {
        guard offset >= 0, offset <= bytes.count - 2 else { return 0 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func u32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        guard offset >= 0, offset <= bytes.count - 4 else { return 0 }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    private static func u64(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(u32(bytes, offset)) | UInt64(u32(bytes, offset + 4)) << 32
    }

    private static func same(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        guard let a = left.baseAddress, let b = right.baseAddress else { return true }
        return memcmp(a, b, left.count) == 0
    }

    /// The bytes a reference (offset, length) at `field` names, if they lie in the file.
    private static func region(_ bytes: UnsafeRawBufferPointer, at field: Int) -> UnsafeRawBufferPointer? {
        let offset = Int(u32(bytes, field)), length = Int(u32(bytes, field + 4))
        guard field >= 0, field <= bytes.count - 8, length != Int(SnapshotLayout.absent), offset <= bytes.count,
            length <= bytes.count - offset
        else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
    }

    /// The text a reference names: strict refuses bytes that are not
    /// UTF-8; otherwise they are repaired (U+FFFD), as a lookup may show.
    private static func text(_ bytes: UnsafeRawBufferPointer, at field: Int, strict: Bool) -> String? {
        guard let region = region(bytes, at: field) else { return nil }
        if strict { return String(validating: region, as: UTF8.self) }
        return String(decoding: region, as: UTF8.self)
    }

    // MARK: Storage

    /// The snapshot's bytes: a copy it owns, or a read-only mapping;
    /// released with the snapshot.
    private final class Storage {
        let bytes: UnsafeRawBufferPointer
        /// What to give back: the copy, or the mapping (and its size).
        private let copy: UnsafeMutableRawPointer?
        private let mapping: (address: UnsafeMutableRawPointer, size: Int)?

        static func array(_ array: [UInt8]) -> Storage {
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(array.count, 1), alignment: 8)
            copy.copyBytes(from: array)
            return Storage(UnsafeRawBufferPointer(start: copy.baseAddress, count: array.count), copy: copy.baseAddress, mapping: nil)
        }

        static func mapped(address: UnsafeMutableRawPointer, size: Int) -> Storage {
            Storage(UnsafeRawBufferPointer(start: address, count: size), copy: nil, mapping: (address, size))
        }

        private init(
            _ bytes: UnsafeRawBufferPointer, copy: UnsafeMutableRawPointer?, mapping: (address: UnsafeMutableRawPointer, size: Int)?
        ) {
            self.bytes = bytes
            self.copy = copy
            self.mapping = mapping
        }

        deinit {
            copy?.deallocate()
            if let mapping { munmap(mapping.address, mapping.size) }
        }
    }
}
