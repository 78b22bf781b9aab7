import Foundation
import LprojEngine
import Testing
@testable import LprojConfiguration

@Suite struct ConfigurationTests {
    static var sample: String {
        var url = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { url.deleteLastPathComponent() }
        return url.appendingPathComponent("etc/lprojd/lprojd.conf").path
    }

    @Test func theSampleConfigurationReads() throws {
        let configuration = try ConfigurationFile.read(path: Self.sample)
        // The socket and the state directory are left to their defaults
        // (and to systemd), the bundles to drop-ins; but the commented-out
        // examples are valid.
        #expect(configuration.socketPath == nil && configuration.stateDirectory == nil)
        #expect(configuration.bundles.isEmpty && configuration.dropInDirectories == nil)
        let uncommented = try ConfigurationFile.parse(Self.uncommented(), name: "sample", baseDirectory: "/etc/lprojd")
        #expect(uncommented.socketPath == "/run/lprojd/org.lprojd.Localization")
        #expect(uncommented.stateDirectory == "/var/lib/lprojd")
        #expect(uncommented.dropInDirectories == ["/etc/lprojd/bundles.d", "/usr/share/lprojd/bundles.d"])
        #expect(configuration.logLevel == "info")
        #expect(uncommented.bundles.map(\.name) == ["demo", "org.example.Editor"])
        let demo = try #require(uncommented.bundles.first)
        #expect(demo.name == "demo" && demo.directory == "/usr/share/lprojd/demo" && demo.developmentLocale.tag == "en")
        #expect(demo.customLocales["und-x-pirate"]?.tag == "en")
        #expect(demo.customLocales["tlh"]?.tag == "en")
        #expect(configuration.limits == DaemonConfiguration.Limits())
    }

    /// The sample with its examples put in: the settings after `# `, and
    /// the commented `bundles:` block.
    static func uncommented() throws -> String {
        var inBundles = false
        return try String(contentsOfFile: sample, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line == "# bundles:" { inBundles = true }
            if line.isEmpty { inBundles = false }
            if inBundles { return String(line.dropFirst(2)) }
            for setting in ["socket", "state-directory", "drop-in-directories"] where line.hasPrefix("# \(setting): ") {
                return String(line.dropFirst(2))
            }
            return String(line)
        }.joined(separator: "\n")
    }

    @Test func emptyAndCommentOnlyFilesAreFine() throws {
        #expect(try ConfigurationFile.parse("", name: "x", baseDirectory: "/") == DaemonConfiguration())
        #expect(try ConfigurationFile.parse("# nothing here\n", name: "x", baseDirectory: "/") == DaemonConfiguration())
    }

    @Test func relativeDirectoriesAreRelativeToTheFile() throws {
        let configuration = try ConfigurationFile.parse(
            "bundles:\n  - name: b\n    directory: ../bundles/b\n", name: "x", baseDirectory: "/etc/lprojd")
        #expect(configuration.bundles.first?.directory == "/etc/bundles/b")
    }

    @Test func pseudoLocalesAreOfferedOnlyWhenABundleSaysSo() throws {
        let text = "bundles:\n  - name: a\n    directory: /a\n    pseudo-locales: true\n  - name: b\n    directory: /b\n"
        let configuration = try ConfigurationFile.parse(text, name: "x", baseDirectory: "/")
        #expect(configuration.bundles.map(\.pseudoLocales) == [true, false])
        #expect(try ConfigurationFile.parse(Self.uncommented(), name: "sample", baseDirectory: "/").bundles.first?.pseudoLocales == false)
    }

    @Test func missesAreCountedUnlessTurnedOff() throws {
        #expect(try ConfigurationFile.read(path: Self.sample).countMisses)
        #expect(try ConfigurationFile.parse("count-misses: false\n", name: "x", baseDirectory: "/").countMisses == false)
    }

    @Test(arguments: [
        ("sokcet: /x\n", "unknown setting 'sokcet'"),
        ("bundles:\n  - name: bad/name\n    directory: /x\n", "is not a bundle name"),
        ("bundles:\n  - name: a\n    directory: /x\n  - name: a\n    directory: /y\n", "defined twice"),
        ("bundles:\n  - name: a\n", "'directory' is missing"),
        ("bundles:\n  - name: a\n    directory: /x\n    development-locale: '../x'\n", "development-locale"),
        ("bundles:\n  - name: a\n    directory: /x\n    custom-locales:\n      tlh: xx-nonsense\n", "custom-locales.tlh"),
        ("limits:\n  max-connections: -1\n", "must be a positive number"),
        ("limits:\n  max-conections: 5\n", "unknown setting 'max-conections'"),
        ("socket: [1, 2]\n", "socket"),
        ("bundles:\n  - name: a\n    directory: /x\n    pseudo-locales: maybe\n", "pseudo-locales"),
        ("bundles: [\n", "x:"),
    ])
    func mistakesAreExplained(_ text: String, _ expected: String) {
        do {
            _ = try ConfigurationFile.parse(text, name: "x", baseDirectory: "/")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
            #expect(error.description.hasPrefix("x:"))
        }
    }

    @Test func defaultPaths() {
        #expect(DefaultPaths.socket(environment: [:], instance: .system) == "/run/lprojd/org.lprojd.Localization")
        #expect(
            DefaultPaths.socket(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], instance: .user(uid: 1000))
                == "/run/user/1000/lprojd/org.lprojd.Localization")
        #expect(DefaultPaths.socket(environment: [:], instance: .user(uid: 1000)) == nil)
        // The system unit runs lprojd as a dynamic user, with --system.
        #expect(DaemonInstance.of(uid: 61234, system: true) == .system)
        #expect(DaemonInstance.of(uid: 0, system: false) == .system)
        #expect(DaemonInstance.of(uid: 1000, system: false) == .user(uid: 1000))
        #expect(
            DefaultPaths.stateDirectory(environment: ["STATE_DIRECTORY": "/var/lib/lprojd:/var/lib/other", "HOME": "/h"])
                == "/var/lib/lprojd")
        #expect(DefaultPaths.stateDirectory(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/lprojd")
        #expect(DefaultPaths.stateDirectory(environment: ["HOME": "/h"]) == "/h/.local/state/lprojd")
    }

    @Test func aUsersOwnConfigurationComesBeforeTheSystems() {
        let system = "/etc/lprojd/lprojd.conf"
        #expect(DefaultPaths.configurationFiles(environment: ["HOME": "/home/a"], instance: .system) == [system])
        #expect(
            DefaultPaths.configurationFiles(environment: ["HOME": "/home/a"], instance: .user(uid: 1000)) == [
                "/home/a/.config/lprojd/lprojd.conf", system,
            ])
        #expect(
            DefaultPaths.configurationFiles(environment: ["HOME": "/home/a", "XDG_CONFIG_HOME": "/c"], instance: .user(uid: 1000)) == [
                "/c/lprojd/lprojd.conf", system,
            ])
        // systemd's dynamic users have HOME=/ (or none): only the system's.
        #expect(DefaultPaths.configurationFiles(environment: ["HOME": "/"], instance: .user(uid: 1000)) == [system])
        #expect(DefaultPaths.configurationFiles(environment: [:], instance: .user(uid: 1000)) == [system])
    }

    @Test func commandLineBundlesOverrideTheFile() throws {
        var configuration = try ConfigurationFile.parse(Self.uncommented(), name: "sample", baseDirectory: "/")
        configuration.setBundle(BundleConfiguration(name: "demo", directory: "/elsewhere", developmentLocale: try .init("de")))
        #expect(configuration.bundles.count == 2 && configuration.bundles.last?.directory == "/elsewhere")
    }
}
