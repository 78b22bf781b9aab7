#if canImport(Glibc)
    import Glibc
#endif
import CSystemd

/// One field of a journal entry: `NAME=value`.
package struct JournalField: Sendable, Equatable, CustomStringConvertible {
    package let name: String
    package let value: String

    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    package var description: String { "\(name)=\(value)" }
}

/// Where journal entries go: the journal itself, or a test's recorder.
package protocol JournalSink: Sendable {
    /// Sends one entry; returns whether the journal took it.
    func send(_ fields: [JournalField]) -> Bool
}

/// systemd-journald, through `sd_journal_sendv` (its native socket,
/// `/run/systemd/journal/socket`).
package struct SystemJournal: JournalSink {
    package init() {}

    package func send(_ fields: [JournalField]) -> Bool {
        let copies = fields.prefix(256).map { field -> UnsafeMutableBufferPointer<CChar> in
            let bytes = Array("\(field.name)=\(field.value)".utf8)
            let copy = UnsafeMutableBufferPointer<CChar>.allocate(capacity: bytes.count)
            _ = copy.initialize(from: bytes.lazy.map { CChar(bitPattern: $0) })
            return copy
        }
        defer { copies.forEach { $0.deallocate() } }
        let pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0.baseAddress) }
        let lengths = copies.map(\.count)
        return lprojd_journal_send_fields(pointers, lengths, CInt(copies.count)) >= 0
    }
}

/// Whether standard error is connected to the journal: systemd sets
/// `JOURNAL_STREAM=device:inode` for a service whose stderr is a journal
/// stream, and the daemon checks that its own stderr is still that stream
/// (a shell redirect in between would make it something else).
package enum JournalStream {
    package static func isStandardErrorConnected(environment: [String: String]) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        return matches(value, descriptor: STDERR_FILENO)
    }

    /// Whether `value` (`device:inode`, in decimal) names the file open on
    /// `descriptor`.
    package static func matches(_ value: String, descriptor: CInt) -> Bool {
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }
}
