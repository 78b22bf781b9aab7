import Foundation
import LprojEngine
import LprojFiles
import Testing

struct DiskFileTreeTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("lprojd-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("b.lproj"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("a.lproj"), withIntermediateDirectories: true)
        try Data("12345".utf8).write(to: directory.appendingPathComponent("a.lproj/five.strings"))
        try Data().write(to: directory.appendingPathComponent("c.lproj"))
    }

    @Test func listsTheLprojFoldersOfABundleSorted() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // c.lproj is a file, not a folder.
        #expect(try DiskFileTree().lprojFolders(in: directory.path) == ["a.lproj", "b.lproj"])
        #expect(try DiskFileTree().names(in: directory.path) == ["a.lproj", "b.lproj", "c.lproj"])
    }

    @Test func readsUpToTheLimitAndRefusesPastIt() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("a.lproj/five.strings").path
        #expect(try DiskFileTree().read(path, maximumSize: 5) == Array("12345".utf8))
        #expect(throws: FileTreeError.tooLarge(size: 5, limit: 4)) { try DiskFileTree().read(path, maximumSize: 4) }
        #expect(DiskFileTree().entry(at: path) == .file(size: 5))
        #expect(DiskFileTree().entry(at: directory.path) == .directory)
    }

    @Test func saysWhyAFileCannotBeRead() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("none.strings").path
        #expect(throws: FileTreeError.unreadable(reason: "No such file or directory")) { try DiskFileTree().read(missing, maximumSize: 10) }
        #expect(throws: FileTreeError.notRegular(kind: "a directory")) { try DiskFileTree().read(directory.path, maximumSize: 10) }
        #expect(DiskFileTree().entry(at: missing) == nil)
    }

    /// Opening a FIFO for reading waits for a writer: a FIFO named like a
    /// table once hung lprojd at start-up. It is refused at once.
    @Test func refusesAFIFOAndADeviceWithoutWaitingOnThem() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("a.lproj/X.strings").path
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: FileTreeError.notRegular(kind: "a FIFO")) {
            try DiskFileTree().read(fifo, maximumSize: 10, within: directory.path)
        }
        #expect(throws: FileTreeError.notRegular(kind: "a FIFO")) { try DiskFileTree().read(fifo, maximumSize: 10) }
        #expect(throws: FileTreeError.notRegular(kind: "a device")) { try DiskFileTree().read("/dev/zero", maximumSize: 10) }
    }

    /// A link is followed while it stays in the bundle's directory (the
    /// directory itself may be reached through a link), never out of it:
    /// neither a file's link nor a folder's.
    @Test func followsSymbolicLinksOnlyInsideTheRoot() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("lprojd-outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        try Data("secret".utf8).write(to: outside.appendingPathComponent("secret.strings"))
        let files = FileManager.default
        try files.createSymbolicLink(
            atPath: directory.appendingPathComponent("a.lproj/inside.strings").path, withDestinationPath: "five.strings")
        try files.createSymbolicLink(
            atPath: directory.appendingPathComponent("a.lproj/Shadow.strings").path,
            withDestinationPath: outside.appendingPathComponent("secret.strings").path)
        try files.createSymbolicLink(atPath: directory.appendingPathComponent("d.lproj").path, withDestinationPath: outside.path)
        let linkToRoot = outside.appendingPathComponent("bundle-link").path
        try files.createSymbolicLink(atPath: linkToRoot, withDestinationPath: directory.path)

        let tree = DiskFileTree()
        #expect(
            try tree.read(directory.appendingPathComponent("a.lproj/inside.strings").path, maximumSize: 10, within: directory.path)
                == Array("12345".utf8))
        #expect(try tree.read(linkToRoot + "/a.lproj/five.strings", maximumSize: 10, within: linkToRoot) == Array("12345".utf8))
        #expect(throws: FileTreeError.outsideRoot) {
            try tree.read(directory.appendingPathComponent("a.lproj/Shadow.strings").path, maximumSize: 10, within: directory.path)
        }
        #expect(throws: FileTreeError.outsideRoot) {
            try tree.read(directory.appendingPathComponent("d.lproj/secret.strings").path, maximumSize: 10, within: directory.path)
        }
        // The message says nothing of where the link leads.
        #expect(!FileTreeError.outsideRoot.description.contains(outside.path))
        // Without a root (the linter, reading the user's own files), links are followed.
        #expect(try tree.read(directory.appendingPathComponent("a.lproj/Shadow.strings").path, maximumSize: 10) == Array("secret".utf8))
    }
}
