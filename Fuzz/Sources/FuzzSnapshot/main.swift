import FuzzSupport
@testable import LprojSnapshot

/// The snapshot reader on anything: refused at opening, or it answers
/// lookups without reading outside the bytes (the address sanitizer checks
/// each read) and without a search longer than its index; what `verify()`
/// accepts reads back whole, and writes back to the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzInput(start, count) { bytes in
        guard let snapshot = timed(bytes.count, { try? Snapshot(bytes: bytes) }) else { return }
        let tables = snapshot.tableNames
        for table in tables.prefix(4) + ["Localizable"] {
            for key in ["welcome.title", "files.selected", "", "greeting"] { _ = timed(bytes.count) { snapshot.lookup(key, table: table) } }
        }
        guard (try? snapshot.verify()) != nil else { return }
        guard let content = try? snapshot.content() else { fatalError("verify() accepted a snapshot content() refuses") }
        for (table, entries) in content.tables {
            for (key, entry) in entries { precondition(snapshot.lookup(key, table: table) == entry, "the index lost \(table) \(key)") }
        }
        // A snapshot the writer wrote is read back the same; one written
        // elsewhere need not have the writer's order, but must say the same.
        guard let again = try? Snapshot(bytes: SnapshotWriter.bytes(of: content)) else { fatalError("its content does not write back") }
        precondition((try? again.content()) == content, "its content changed through writing and reading again")
    }
}
