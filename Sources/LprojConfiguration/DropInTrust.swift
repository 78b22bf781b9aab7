/// Whose drop-in files lprojd takes. A drop-in chooses a directory lprojd
/// reads and serves to every client, so writing one is a privilege: the
/// system's lprojd takes only files that root owns, in directories that
/// root owns, that no one else can write; a user's lprojd takes files of
/// its user or root in directories of its user or root, that no one else
/// can write. Every other file is refused, and named in a warning.
package struct DropInTrust: Sendable, Hashable {
    /// The owners a drop-in file and its directory may have.
    package let owners: Set<UInt32>
    /// Whether a drop-in that is a symbolic link is followed (the file it
    /// leads to is then checked). The system's lprojd refuses links: the
    /// file itself must be root's, not merely the link.
    package let followsLinks: Bool

    /// The trust of an instance of lprojd.
    package init(instance: DaemonInstance) {
        switch instance {
        case .system:
            owners = [0]
            followsLinks = false
        case .user(let uid):
            owners = [0, uid]
            followsLinks = true
        }
    }

    /// What `fstat` says of a file or directory.
    package struct Facts: Sendable, Hashable {
        /// The owner.
        package var uid: UInt32
        /// The type and permission bits (`st_mode`).
        package var mode: UInt32

        /// Facts as `stat` reports them.
        package init(uid: UInt32, mode: UInt32) {
            self.uid = uid
            self.mode = mode
        }
    }

    private static let typeMask: UInt32 = 0o170000
    private static let regular: UInt32 = 0o100000
    private static let directoryType: UInt32 = 0o040000
    /// Writable by the group or by others.
    private static let writableByOthers: UInt32 = 0o022

    /// Why a directory cannot hold drop-ins, or nil when it can.
    package func refusal(directory: Facts) -> String? {
        if directory.mode & Self.typeMask != Self.directoryType { return "its directory is not a directory" }
        if !owners.contains(directory.uid) { return "its directory is owned by uid \(directory.uid), \(ownersText)" }
        if directory.mode & Self.writableByOthers != 0 {
            return "its directory is writable by others than its owner (mode \(Self.octal(directory.mode)))"
        }
        return nil
    }

    /// Why a drop-in file in a directory is refused, or nil when it is taken.
    package func refusal(file: Facts, directory: Facts) -> String? {
        if let refusal = refusal(directory: directory) { return refusal }
        if file.mode & Self.typeMask != Self.regular { return "it is not a regular file" }
        if !owners.contains(file.uid) { return "it is owned by uid \(file.uid), \(ownersText)" }
        if file.mode & Self.writableByOthers != 0 {
            return "it is writable by others than its owner (mode \(Self.octal(file.mode)))"
        }
        return nil
    }

    private var ownersText: String {
        let others = owners.subtracting([0]).sorted()
        return others.isEmpty ? "not root" : "neither root nor uid \(others.map(String.init).joined(separator: ", "))"
    }

    private static func octal(_ mode: UInt32) -> String {
        let text = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
