import Foundation
import LprojEngine
import LprojFiles
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A bundle's directory opened once: what is served is read beneath it,
/// whatever happens to its path, and lprojd knows who could change it.
struct BundleRootTests {
    let scratch: URL

    init() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lprojd-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    func write(_ text: String, _ path: String) throws {
        let url = scratch.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func text(_ tree: DiskFileTree, _ path: String) throws -> String {
        String(decoding: try tree.read(scratch.appendingPathComponent(path).path, maximumSize: 1 << 20, within: nil), as: UTF8.self)
    }

    /// The attack of the fourth hardening round: the bundle's directory
    /// renamed away and a link to another folder put in its place. What is
    /// read is still the directory opened, not the folder the link names.
    @Test func aDirectorySwappedForALinkChangesNothingThatIsRead() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        try write("\"k\" = \"mine\";\n", "bundle/en.lproj/Localizable.strings")
        try write("\"k\" = \"private\";\n", "private/en.lproj/Localizable.strings")
        let root = try BundleRoot.open(scratch.appendingPathComponent("bundle").path)
        let tree = DiskFileTree(root: root)
        #expect(try text(tree, "bundle/en.lproj/Localizable.strings") == "\"k\" = \"mine\";\n")
        try FileManager.default.moveItem(at: scratch.appendingPathComponent("bundle"), to: scratch.appendingPathComponent("moved"))
        try FileManager.default.createSymbolicLink(
            at: scratch.appendingPathComponent("bundle"), withDestinationURL: scratch.appendingPathComponent("private"))
        #expect(try text(tree, "bundle/en.lproj/Localizable.strings") == "\"k\" = \"mine\";\n")
        #expect(try tree.lprojFolders(in: scratch.appendingPathComponent("bundle").path) == ["en.lproj"])
        // A folder inside swapped for a link out: refused, not followed.
        let moved = scratch.appendingPathComponent("moved")
        try FileManager.default.moveItem(at: moved.appendingPathComponent("en.lproj"), to: moved.appendingPathComponent("old.lproj"))
        try FileManager.default.createSymbolicLink(
            at: moved.appendingPathComponent("en.lproj"), withDestinationURL: scratch.appendingPathComponent("private/en.lproj"))
        #expect(throws: FileTreeError.outsideRoot) { try text(tree, "bundle/en.lproj/Localizable.strings") }
        #expect(tree.entry(at: scratch.appendingPathComponent("bundle/en.lproj").path) == nil)
        // Paths that are not the bundle's are not this tree's to read.
        #expect(throws: FileTreeError.outsideRoot) { try text(tree, "private/en.lproj/Localizable.strings") }
    }

    /// A link that stays inside is followed, as before: `en-GB.lproj`
    /// pointing at `en.lproj`, a table pointing at another.
    @Test func aLinkThatStaysInsideIsFollowed() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        try write("\"k\" = \"v\";\n", "bundle/en.lproj/Localizable.strings")
        let bundle = scratch.appendingPathComponent("bundle")
        try FileManager.default.createSymbolicLink(
            atPath: bundle.appendingPathComponent("en-GB.lproj").path, withDestinationPath: "en.lproj")
        try FileManager.default.createSymbolicLink(
            atPath: bundle.appendingPathComponent("en.lproj/Menu.strings").path, withDestinationPath: "../en.lproj/Localizable.strings")
        let tree = DiskFileTree(root: try BundleRoot.open(bundle.path))
        #expect(try tree.lprojFolders(in: bundle.path) == ["en-GB.lproj", "en.lproj"])
        #expect(try text(tree, "bundle/en-GB.lproj/Menu.strings") == "\"k\" = \"v\";\n")
    }

    @Test func aMissingDirectoryIsSaidSo() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        #expect(throws: FileTreeError.unreadable(reason: "No such file or directory")) {
            try BundleRoot.open(scratch.appendingPathComponent("none").path)
        }
    }

    /// Who could change what the path leads to: for the system's lprojd,
    /// which reads as root, a bundle one user controls is that user's; one
    /// that two users' folders lead through is no one's to serve.
    @Test(.enabled(if: getuid() == 0, "gives folders to other uids (chown)"))
    func whoCanChangeTheWayToTheDirectoryIsKnown() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Under a sticky, world-writable folder like /tmp: each entry is its owner's.
        let rootOwned = scratch.appendingPathComponent("system")
        try FileManager.default.createDirectory(at: rootOwned, withIntermediateDirectories: true)
        chmod(scratch.path, 0o755)
        #expect(try BundleRoot.open(rootOwned.path).access == .rootOnly)
        // A user's folder.
        let home = scratch.appendingPathComponent("home-4242")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("build"), withIntermediateDirectories: true)
        chown(home.path, 4242, 4242)
        chown(home.appendingPathComponent("build").path, 4242, 4242)
        #expect(try BundleRoot.open(home.appendingPathComponent("build").path).access == .user(4242))
        // That user swaps the bundle for a link to another user's private folder.
        let other = scratch.appendingPathComponent("home-4243/private")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        chown(other.deletingLastPathComponent().path, 4243, 4243)
        chown(other.path, 4243, 4243)
        chmod(other.path, 0o700)
        try FileManager.default.removeItem(at: home.appendingPathComponent("build"))
        try FileManager.default.createSymbolicLink(at: home.appendingPathComponent("build"), withDestinationURL: other)
        lchown(home.appendingPathComponent("build").path, 4242, 4242)
        guard case .shared(let reason) = try BundleRoot.open(home.appendingPathComponent("build").path).access else {
            Issue.record("a way through two users' folders was taken for one user's")
            return
        }
        #expect(reason == "the way to it passes through folders of uids 4242, 4243")
        // A folder anyone may write, on the way: anyone could swap it.
        let open = scratch.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: open.appendingPathComponent("bundle"), withIntermediateDirectories: true)
        chmod(open.path, 0o777)
        guard case .shared = try BundleRoot.open(open.appendingPathComponent("bundle").path).access else {
            Issue.record("a world-writable folder on the way was not seen")
            return
        }
    }
}
