import Foundation
import LprojEngine
import Testing
@testable import LprojConfiguration

#if canImport(Glibc)
    import Glibc
#endif

/// Which drop-ins lprojd serves (pure), whose files it takes (pure), and
/// the reader that checks both on disk.
@Suite struct DropInsTests {
    static let etc = "/etc/lprojd/bundles.d", share = "/usr/share/lprojd/bundles.d"

    static func bundle(_ name: String, _ directory: String) throws -> BundleConfiguration {
        BundleConfiguration(name: name, directory: directory, developmentLocale: try .init("en"))
    }

    static func record(_ directory: String, _ name: String, _ state: DropInRecord.State) -> DropInRecord {
        DropInRecord(path: "\(directory)/\(name).conf", state: state)
    }

    static func dropIns(etc: [String: DropInRecord.State] = [:], share: [String: DropInRecord.State] = [:]) -> DropIns {
        var dropIns = DropIns(directories: [Self.etc, Self.share])
        dropIns.files[0] = etc.reduce(into: [:]) { $0[$1.key] = record(Self.etc, $1.key, $1.value) }
        dropIns.files[1] = share.reduce(into: [:]) { $0[$1.key] = record(Self.share, $1.key, $1.value) }
        return dropIns
    }

    // MARK: Precedence

    @Test func theFirstDirectoryWinsAndOneWarningNamesBothFiles() throws {
        let mine = try Self.bundle("org.example.Editor", "/opt/mine"), packaged = try Self.bundle("org.example.Editor", "/usr/share/e")
        let other = try Self.bundle("org.example.Viewer", "/usr/share/v")
        let dropIns = Self.dropIns(
            etc: ["org.example.Editor": .read(.bundle(mine))],
            share: ["org.example.Editor": .read(.bundle(packaged)), "org.example.Viewer": .read(.bundle(other))])
        let (bundles, warnings) = dropIns.resolve(configured: [])
        #expect(
            bundles == [
                SourcedBundle(mine, source: "\(Self.etc)/org.example.Editor.conf"),
                SourcedBundle(other, source: "\(Self.share)/org.example.Viewer.conf"),
            ])
        #expect(warnings.count == 1)
        #expect(warnings.first?.file == "\(Self.share)/org.example.Editor.conf")
        #expect(warnings.first?.description.contains("\(Self.etc)/org.example.Editor.conf overrides it") == true)
    }

    @Test func lprojdConfWinsOverADropInOfItsName() throws {
        let configured = SourcedBundle(try Self.bundle("demo", "/srv/demo"), source: "/etc/lprojd/lprojd.conf")
        let dropIns = Self.dropIns(share: ["demo": .read(.bundle(try Self.bundle("demo", "/usr/share/demo")))])
        let (bundles, warnings) = dropIns.resolve(configured: [configured])
        #expect(bundles == [configured])
        #expect(
            warnings.map(\.description) == [
                "\(Self.share)/demo.conf: not used: /etc/lprojd/lprojd.conf defines the bundle 'demo', and wins over drop-ins"
            ])
    }

    @Test func anEmptyFileMasksAndARefusedOneCountsForNothing() throws {
        let packaged = try Self.bundle("org.example.Editor", "/usr/share/e")
        let masked = Self.dropIns(etc: ["org.example.Editor": .read(.masked)], share: ["org.example.Editor": .read(.bundle(packaged))])
        #expect(masked.resolve(configured: []).bundles.isEmpty)
        #expect(masked.resolve(configured: []).warnings.first?.message.contains("masks it") == true)
        let refused = Self.dropIns(
            etc: ["org.example.Editor": .refused("it is owned by uid 65534, not root")],
            share: ["org.example.Editor": .read(.bundle(packaged))])
        #expect(refused.resolve(configured: []).bundles.map(\.configuration) == [packaged])
        #expect(refused.resolve(configured: []).warnings.isEmpty)
        #expect(refused.problems.warnings.map(\.message) == ["refused: it is owned by uid 65534, not root"])
    }

    @Test func aFileInErrorKeepsItsLastGoodBundleOrNoneAndStillOverrides() throws {
        let good = try Self.bundle("org.example.Editor", "/opt/good"), packaged = try Self.bundle("org.example.Editor", "/usr/share/e")
        let error = ConfigurationError(file: "\(Self.etc)/org.example.Editor.conf", line: 2, column: 1, message: "x: unknown setting 'x'")
        let kept = Self.dropIns(
            etc: ["org.example.Editor": .invalid(error, lastGood: .bundle(good))], share: ["org.example.Editor": .read(.bundle(packaged))])
        #expect(kept.resolve(configured: []).bundles.map(\.configuration) == [good])
        #expect(kept.problems.errors == [error])
        let never = Self.dropIns(
            etc: ["org.example.Editor": .invalid(error, lastGood: nil)], share: ["org.example.Editor": .read(.bundle(packaged))])
        #expect(never.resolve(configured: []).bundles.isEmpty)
    }

    // MARK: Trust

    static let directory: UInt32 = 0o040000, regular: UInt32 = 0o100000, link: UInt32 = 0o120000

    @Test func theSystemTakesOnlyRootsFilesInRootsDirectoriesThatNoOneElseWrites() {
        let trust = DropInTrust(instance: .system)
        let rootDirectory = DropInTrust.Facts(uid: 0, mode: Self.directory | 0o755)
        #expect(trust.refusal(file: .init(uid: 0, mode: Self.regular | 0o644), directory: rootDirectory) == nil)
        #expect(trust.refusal(file: .init(uid: 0, mode: Self.regular | 0o600), directory: rootDirectory) == nil)
        #expect(trust.refusal(file: .init(uid: 65534, mode: Self.regular | 0o644), directory: rootDirectory)?.contains("uid 65534") == true)
        #expect(trust.refusal(file: .init(uid: 0, mode: Self.regular | 0o664), directory: rootDirectory)?.contains("0664") == true)
        #expect(trust.refusal(file: .init(uid: 0, mode: Self.regular | 0o646), directory: rootDirectory) != nil)
        #expect(trust.refusal(file: .init(uid: 0, mode: Self.link | 0o777), directory: rootDirectory) != nil)
        #expect(trust.refusal(file: .init(uid: 0, mode: 0o010644), directory: rootDirectory) != nil)  // a FIFO
        let file = DropInTrust.Facts(uid: 0, mode: Self.regular | 0o644)
        #expect(trust.refusal(file: file, directory: .init(uid: 0, mode: Self.directory | 0o775))?.contains("directory") == true)
        #expect(trust.refusal(file: file, directory: .init(uid: 0, mode: Self.directory | 0o1777)) != nil)
        #expect(trust.refusal(file: file, directory: .init(uid: 1000, mode: Self.directory | 0o755))?.contains("uid 1000") == true)
        #expect(!trust.followsLinks)
    }

    @Test func aUsersLprojdTakesItsUsersFilesAndRoots() {
        let trust = DropInTrust(instance: .user(uid: 1000))
        let mine = DropInTrust.Facts(uid: 1000, mode: Self.directory | 0o700)
        #expect(trust.refusal(file: .init(uid: 1000, mode: Self.regular | 0o644), directory: mine) == nil)
        #expect(
            trust.refusal(file: .init(uid: 0, mode: Self.regular | 0o644), directory: .init(uid: 0, mode: Self.directory | 0o755)) == nil)
        #expect(trust.refusal(file: .init(uid: 1001, mode: Self.regular | 0o644), directory: mine) != nil)
        #expect(trust.refusal(file: .init(uid: 1000, mode: Self.regular | 0o666), directory: mine) != nil)
        #expect(
            trust.refusal(file: .init(uid: 1000, mode: Self.regular | 0o644), directory: .init(uid: 1001, mode: Self.directory | 0o755))
                != nil)
        #expect(trust.followsLinks)
    }

    // MARK: Directories

    @Test func theSystemReadsEtcThenThePackagesDirectories() {
        #expect(
            DefaultPaths.dropInDirectories(environment: ["HOME": "/root", "XDG_DATA_DIRS": "/x"], instance: .system) == [
                "/etc/lprojd/bundles.d", "/usr/local/share/lprojd/bundles.d", "/usr/share/lprojd/bundles.d",
            ])
    }

    @Test func aUserReadsEtcThenItsOwnThenTheDataDirectories() {
        #expect(
            DefaultPaths.dropInDirectories(environment: ["HOME": "/home/a"], instance: .user(uid: 1000)) == [
                "/etc/lprojd/bundles.d", "/home/a/.local/share/lprojd/bundles.d", "/usr/local/share/lprojd/bundles.d",
                "/usr/share/lprojd/bundles.d",
            ])
        let flatpak = "/home/a/.local/share/flatpak/exports/share:/var/lib/flatpak/exports/share:/usr/share:relative"
        #expect(
            DefaultPaths.dropInDirectories(
                environment: ["HOME": "/home/a", "XDG_DATA_HOME": "/d", "XDG_DATA_DIRS": flatpak], instance: .user(uid: 1000)) == [
                    "/etc/lprojd/bundles.d", "/d/lprojd/bundles.d", "/home/a/.local/share/flatpak/exports/share/lprojd/bundles.d",
                    "/var/lib/flatpak/exports/share/lprojd/bundles.d", "/usr/share/lprojd/bundles.d", "/usr/local/share/lprojd/bundles.d",
                ])
        // A dynamic user's HOME=/ is no home.
        #expect(DefaultPaths.dropInDirectories(environment: ["HOME": "/"], instance: .user(uid: 61234)).count == 3)
    }

    @Test func theConfigurationMayNameTheDirectories() throws {
        let configuration = try ConfigurationFile.parse(
            "drop-in-directories: [bundles.d, /srv/b]\n", name: "x", baseDirectory: "/etc/lprojd")
        #expect(configuration.dropInDirectories == ["/etc/lprojd/bundles.d", "/srv/b"])
        #expect(try ConfigurationFile.parse("drop-in-directories: []\n", name: "x", baseDirectory: "/").dropInDirectories == [])
    }

    // MARK: On disk

    @Test func theReaderChecksWhatItReads() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dropins-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("bundles.d")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        chmod(directory.path, 0o755)
        func write(_ name: String, _ text: String, mode: mode_t = 0o644) throws {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
            chmod(directory.appendingPathComponent(name).path, mode)
        }
        try write("good.conf", "directory: good\n")
        try write("broken.conf", "directory: /x\nnope: 1\n")
        try write("writable.conf", "directory: /x\n", mode: 0o666)
        try write("ignored.conf.dpkg-new", "directory: /x\n")
        try write("mine.conf", "directory: /x\n")
        symlink(directory.appendingPathComponent("good.conf").path, directory.appendingPathComponent("link.conf").path)
        let owner = getuid()
        let system = DropInReader(
            trust: DropInTrust(instance: owner == 0 ? .system : .user(uid: owner)), bundleLimits: BundleLimits(fileSize: 1 << 20))
        if owner == 0 { chown(directory.appendingPathComponent("mine.conf").path, 65534, 65534) }

        let records = try #require(system.readDirectory(directory.path))
        #expect(records.keys.sorted() == ["broken", "good", "link", "mine", "writable"])
        guard case .read(.bundle(let good))? = records["good"]?.state else {
            Issue.record("\(records)")
            return
        }
        #expect(good.directory == directory.appendingPathComponent("good").path)
        guard case .invalid(let error, nil)? = records["broken"]?.state else {
            Issue.record("\(records)")
            return
        }
        #expect(error.description == "\(directory.path)/broken.conf:2:1: nope: unknown setting 'nope'")
        #expect(records["writable"]?.state == .refused("it is writable by others than its owner (mode 0666)"))
        if owner == 0 {
            #expect(records["link"]?.state == .refused("it is a symbolic link"))
            #expect(records["mine"]?.state == .refused("it is owned by uid 65534, not root"))
            // A user's lprojd follows a link to a file it may take.
            let user = DropInReader(trust: DropInTrust(instance: .user(uid: 1000)), bundleLimits: BundleLimits(fileSize: 1 << 20))
            guard case .read(.bundle)? = user.read("link.conf", in: directory.path)?.state else {
                Issue.record("not followed")
                return
            }
        }
        // A file in error keeps what it last said.
        let fixed = try #require(system.read("good.conf", in: directory.path))
        try write("good.conf", "directory: [\n")
        guard case .invalid(_, let lastGood)? = system.read("good.conf", in: directory.path, previous: fixed)?.state else {
            Issue.record("not invalid")
            return
        }
        #expect(lastGood == .bundle(good))
        #expect(system.read("gone.conf", in: directory.path) == nil)
        #expect(system.readDirectory(root.appendingPathComponent("missing").path) == nil)

        // A directory others may write: every file in it is refused.
        chmod(directory.path, 0o775)
        #expect(
            system.readDirectory(directory.path)?["good"]?.state
                == .refused("its directory is writable by others than its owner (mode 0775)"))
    }
}
