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
        #expect(throws: FileTreeError.unreadable(reason: "not a regular file")) { try DiskFileTree().read(directory.path, maximumSize: 10) }
        #expect(DiskFileTree().entry(at: missing) == nil)
    }
}
