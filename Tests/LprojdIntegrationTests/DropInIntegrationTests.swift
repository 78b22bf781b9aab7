import Foundation
import LprojClient
import LprojInterface
import LprojTestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// Bundles registered by dropping a file, through the real daemon: served
/// at once, reconfigured alone, withdrawn, overridden, kept when broken,
/// refused when someone else could have written them.
@Suite(.serialized) struct DropInIntegrationTests {
    static let editor = "org.example.Editor", viewer = "org.example.Viewer"

    /// Polls lookups from `since` until the bundle answers; how long it took.
    static func served(_ bundle: String, by lprojd: LprojClient, since: ContinuousClock.Instant) async throws -> Duration {
        try await withTimeout(seconds: 10, "\(bundle) was never served") {
            while (try? await lprojd.lookup(bundle: bundle, key: "welcome.title", locale: "de")) == nil {}
            return ContinuousClock.now - since
        }
    }

    /// Waits until lprojd's log has `text`.
    static func logged(_ text: String, by daemon: DaemonProcess) async throws {
        try await withTimeout(seconds: 10, "lprojd never logged \(text):\n\(daemon.output)") {
            while !daemon.output.contains(text) { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test func aFileDroppedInIsServedAtOnceAndItsSubscribersAreTold() async throws {
        let daemon = try await DaemonProcess(dropIns: ["etc", "share"])
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let events = EventRecorder(try await lprojd.events())
        _ = try await events.next()

        // dpkg's staged file is no drop-in: nothing is served from it,
        // which the next file, renamed into place, shows.
        try Data("directory: \(daemon.bundleDirectory.path)\n".utf8).write(
            to: daemon.dropIns("share").appendingPathComponent("x.conf.dpkg-new"))
        var servedTimes: [Duration] = [], announcedTimes: [Duration] = []
        for round in 0..<10 {
            let name = "\(Self.editor)\(round)"
            let renamed = try daemon.installDropIn("\(name).conf", in: "share", "directory: $BUNDLE\n")
            servedTimes.append(try await Self.served(name, by: lprojd, since: renamed))
            let changed = try await events.next { $0.type == .bundleChanged && $0.bundle == name }
            announcedTimes.append(ContinuousClock.now - renamed)
            #expect(changed.message?.contains("served from \(daemon.bundleDirectory.path)") == true)
        }
        #expect(try await lprojd.lookup(bundle: "\(Self.editor)0", key: "welcome.title", locale: "de").value == "Willkommen bei Demo")
        #expect(!events.events.contains { $0.bundle == "x" || $0.bundle == "x.conf" })
        await expectError("org.lprojd.Localization.BundleNotFound") { _ = try await lprojd.lookup(bundle: "x", key: "welcome.title") }
        try await Self.logged("bundle \(Self.editor)0 from \(daemon.dropIns("share").path)/\(Self.editor)0.conf", by: daemon)
        // Generous: a debug build on two shared cores. The figures go to the report.
        #expect(servedTimes.max()! < .seconds(2) && announcedTimes.max()! < .seconds(2))
        print(
            "drop-in latency over \(servedTimes.count) installs: rename to served median \(servedTimes.sorted()[servedTimes.count / 2]), max \(servedTimes.max()!); rename to bundleChanged median \(announcedTimes.sorted()[announcedTimes.count / 2]), max \(announcedTimes.max()!)"
        )
    }

    @Test func aChangedFileReconfiguresItsBundleAndNoOther() async throws {
        let daemon = try await DaemonProcess(
            dropIns: ["share"],
            dropInFiles: ["share/\(Self.editor).conf": "directory: $BUNDLE\n", "share/\(Self.viewer).conf": "directory: $BUNDLE\n"])
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let events = EventRecorder(try await lprojd.events())
        _ = try await events.next()
        let before = Dictionary(uniqueKeysWithValues: try await lprojd.bundles().map { ($0.name, $0.generation) })
        #expect(try await lprojd.lookup(bundle: Self.editor, key: "welcome.title").value == "Welcome to Demo")

        try daemon.installDropIn("\(Self.editor).conf", in: "share", "directory: $BUNDLE\ndevelopment-locale: de\n")
        let changed = try await events.next { $0.type == .bundleChanged }
        #expect(changed.bundle == Self.editor)
        #expect(try await lprojd.lookup(bundle: Self.editor, key: "welcome.title").value == "Willkommen bei Demo")
        let after = Dictionary(uniqueKeysWithValues: try await lprojd.bundles().map { ($0.name, $0.generation) })
        #expect(after[Self.viewer] == before[Self.viewer] && after["demo"] == before["demo"], "\(before) → \(after)")
        #expect((after[Self.editor] ?? 0) > (before[Self.editor] ?? 0))
        #expect(!events.events.contains { $0.bundle == Self.viewer || $0.bundle == "demo" })

        // A SIGHUP reads every drop-in again and changes nothing that did not change.
        daemon.send(SIGHUP)
        try await Self.logged("SIGHUP", by: daemon)
        try daemon.installDropIn("marker.conf", in: "share", "directory: $BUNDLE\n")
        _ = try await events.next { $0.type == .bundleChanged && $0.bundle == "marker" }
        #expect(events.events.filter { $0.type == .bundleChanged }.map(\.bundle) == [Self.editor, "marker"])
        #expect(try await lprojd.bundles().first { $0.name == Self.viewer }?.generation == before[Self.viewer])
    }

    @Test func aRemovedFileWithdrawsItsBundle() async throws {
        let daemon = try await DaemonProcess(dropIns: ["share"], dropInFiles: ["share/\(Self.editor).conf": "directory: $BUNDLE\n"])
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let events = EventRecorder(try await lprojd.events())
        _ = try await events.next()
        #expect(try await lprojd.lookup(bundle: Self.editor, key: "welcome.title", locale: "de").value == "Willkommen bei Demo")

        try FileManager.default.removeItem(at: daemon.dropIns("share").appendingPathComponent("\(Self.editor).conf"))
        let gone = try await events.next { $0.type == .bundleChanged }
        #expect(gone.bundle == Self.editor && gone.message == "the bundle is no longer served")
        await expectError("org.lprojd.Localization.BundleNotFound") {
            _ = try await lprojd.lookup(bundle: Self.editor, key: "welcome.title")
        }
        #expect(try await lprojd.bundles().map(\.name) == ["demo"])
    }

    @Test func etcOverridesThePackagesFileAndLprojdsOwnBundlesWin() async throws {
        let other = "directory: $BUNDLE\n"
        let daemon = try await DaemonProcess(
            dropIns: ["etc", "share"], dropInFiles: ["share/\(Self.editor).conf": other, "share/demo.conf": "directory: /elsewhere\n"])
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let share = daemon.dropIns("share").path, etc = daemon.dropIns("etc").path
        // --bundle demo wins over the drop-in demo.conf.
        try await Self.logged("\(share)/demo.conf: not used: --bundle defines the bundle 'demo', and wins over drop-ins", by: daemon)
        #expect(try await lprojd.bundles().first { $0.name == "demo" }?.directory == daemon.bundleDirectory.path)
        let events = EventRecorder(try await lprojd.events())
        _ = try await events.next()

        try daemon.installDropIn("\(Self.editor).conf", in: "etc", "directory: $BUNDLE\ndevelopment-locale: de\n")
        _ = try await events.next { $0.type == .bundleChanged && $0.bundle == Self.editor }
        #expect(try await lprojd.lookup(bundle: Self.editor, key: "welcome.title").value == "Willkommen bei Demo")
        let warning = "\(share)/\(Self.editor).conf: not used: \(etc)/\(Self.editor).conf overrides it"
        #expect(daemon.output.components(separatedBy: warning).count == 2, "one warning naming both files:\n\(daemon.output)")

        // Without the administrator's file, the package's is served again.
        try FileManager.default.removeItem(atPath: "\(etc)/\(Self.editor).conf")
        _ = try await events.next { $0.type == .bundleChanged && $0.bundle == Self.editor }
        #expect(try await lprojd.lookup(bundle: Self.editor, key: "welcome.title").value == "Welcome to Demo")
        try await Self.logged("bundle \(Self.editor) from \(share)/\(Self.editor).conf", by: daemon)

        // An empty file in etc masks the package's.
        try daemon.installDropIn("\(Self.editor).conf", in: "etc", "# not on this machine\n")
        let masked = try await events.next { $0.type == .bundleChanged && $0.bundle == Self.editor }
        #expect(masked.message == "the bundle is no longer served")
    }

    @Test func aFileInErrorKeepsItsLastGoodConfigurationAndTouchesNoOther() async throws {
        let daemon = try await DaemonProcess(
            dropIns: ["share"],
            dropInFiles: [
                "share/\(Self.editor).conf": "directory: $BUNDLE\ndevelopment-locale: de\n",
                "share/\(Self.viewer).conf": "directory: $BUNDLE\n",
            ]
        )
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let events = EventRecorder(try await lprojd.events())
        _ = try await events.next()
        let before = try await lprojd.bundles()
        let path = daemon.dropIns("share").appendingPathComponent("\(Self.editor).conf").path

        // Written in place, broken on its second line.
        try Data("directory: \(daemon.bundleDirectory.path)\ndevelopment-locale: [de\n".utf8).write(to: URL(fileURLWithPath: path))
        try await Self.logged("\(path):3:1: ", by: daemon)
        let messages = daemon.output.split(separator: "\n").filter { $0.contains(" error ") && $0.contains(path) }
        #expect(messages.count == 1 && messages[0].contains("\(path):3:1: "), "one message:\n\(daemon.output)")
        try await Self.logged("its bundle keeps the configuration it last had", by: daemon)
        #expect(try await lprojd.lookup(bundle: Self.editor, key: "welcome.title").value == "Willkommen bei Demo")

        // One that never parsed is not served.
        let broken = daemon.dropIns("share").appendingPathComponent("broken.conf").path
        try daemon.installDropIn("broken.conf", in: "share", "directory: $BUNDLE\ndirectry: x\n")
        try await Self.logged("\(broken):2:1: directry: unknown setting 'directry'; its bundle is not served from it", by: daemon)
        await expectError("org.lprojd.Localization.BundleNotFound") { _ = try await lprojd.lookup(bundle: "broken", key: "welcome.title") }

        // Fixed, it is read again; the other bundles never changed.
        try daemon.installDropIn("\(Self.editor).conf", in: "share", "directory: $BUNDLE\n")
        _ = try await events.next { $0.type == .bundleChanged && $0.bundle == Self.editor }
        #expect(try await lprojd.lookup(bundle: Self.editor, key: "welcome.title").value == "Welcome to Demo")
        let after = try await lprojd.bundles()
        #expect(after.filter { $0.name != Self.editor } == before.filter { $0.name != Self.editor })
        #expect(!events.events.contains { $0.type == .bundleChanged && $0.bundle != Self.editor })
    }

    @Test(.enabled(if: getuid() == 0, "as root, lprojd is the system's, and the test can give files to another uid"))
    func theSystemRefusesFilesSomeoneElseCouldHaveWritten() async throws {
        let daemon = try await DaemonProcess(
            dropIns: ["share", "open"],
            dropInFiles: [
                "share/\(Self.editor).conf": "directory: $BUNDLE\n", "share/\(Self.viewer).conf": "directory: $BUNDLE\n",
                "open/org.example.Open.conf": "directory: $BUNDLE\n",
            ],
            // Before lprojd starts: a directory its group may write.
            beforeStart: { chmod($0.dropIns("open").path, 0o775) })
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let open = daemon.dropIns("open").appendingPathComponent("org.example.Open.conf").path
        try await Self.logged("\(open): refused: its directory is writable by others than its owner (mode 0775)", by: daemon)
        await expectError("org.lprojd.Localization.BundleNotFound") {
            _ = try await lprojd.lookup(bundle: "org.example.Open", key: "welcome.title")
        }
        let events = EventRecorder(try await lprojd.events())
        _ = try await events.next()

        // A file given away is withdrawn at once (IN_ATTRIB), and named.
        let viewer = daemon.dropIns("share").appendingPathComponent("\(Self.viewer).conf").path
        chown(viewer, 65534, 65534)
        let withdrawn = try await events.next { $0.type == .bundleChanged }
        #expect(withdrawn.bundle == Self.viewer && withdrawn.message == "the bundle is no longer served")
        try await Self.logged("\(viewer): refused: it is owned by uid 65534, not root", by: daemon)
        // A link, even to root's own file, is refused: the link is not the file.
        symlink(
            viewer.replacingOccurrences(of: Self.viewer, with: Self.editor),
            daemon.dropIns("share").appendingPathComponent("link.conf").path)
        try await Self.logged("link.conf: refused: it is a symbolic link", by: daemon)
        #expect(try await lprojd.bundles().map(\.name) == ["demo", Self.editor])
    }

    @Test func aDirectoryMadeLaterIsRead() async throws {
        // lprojd watches the parent of a directory that is not there.
        let daemon = try await DaemonProcess(dropIns: ["etc"], beforeStart: { try FileManager.default.removeItem(at: $0.dropIns("etc")) })
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let events = EventRecorder(try await lprojd.events())
        _ = try await events.next()
        try FileManager.default.createDirectory(at: daemon.dropIns("etc"), withIntermediateDirectories: false)
        try daemon.installDropIn("\(Self.editor).conf", in: "etc", "directory: $BUNDLE\n")
        _ = try await events.next { $0.type == .bundleChanged && $0.bundle == Self.editor }
        #expect(try await lprojd.lookup(bundle: Self.editor, key: "welcome.title", locale: "de").value == "Willkommen bei Demo")
    }

    @Test func checkConfigSaysEachProblemAndFailsOnAnError() async throws {
        let scratch = try SystemdIntegrationTests.Scratch()
        let dropIns = scratch.url.appendingPathComponent("bundles.d")
        try FileManager.default.createDirectory(at: dropIns, withIntermediateDirectories: true)
        chmod(dropIns.path, 0o755)
        let demo = DaemonProcess.packageRoot.appendingPathComponent("Examples/DemoApp").path
        try Data("directory: \(demo)\n".utf8).write(to: dropIns.appendingPathComponent("\(Self.editor).conf"))
        let check = ["--check-config", "--drop-in-directory", dropIns.path]
        let fine = try await run(DaemonProcess.lprojdPath, check)
        #expect(fine.status == 0, "\(fine.errors)")
        #expect(fine.output.contains("\(Self.editor) from \(dropIns.path)/\(Self.editor).conf"), "\(fine.output)")

        try Data("directory: \(demo)\ndevelopment-locale: de\nnope: 1\n".utf8).write(to: dropIns.appendingPathComponent("bad.conf"))
        let bad = try await run(DaemonProcess.lprojdPath, check)
        #expect(bad.status != 0)
        #expect(bad.errors.contains("\(dropIns.path)/bad.conf:3:1: nope: unknown setting 'nope'"), "\(bad.errors)")

        let configuration = scratch.url.appendingPathComponent("typo.conf")
        try Data("bundles:\n  - name: demo\n    directry: x\n".utf8).write(to: configuration)
        let typo = try await run(DaemonProcess.lprojdPath, ["--check-config", configuration.path, "--drop-in-directory", dropIns.path])
        #expect(typo.status != 0)
        #expect(typo.errors.hasPrefix("\(configuration.path):3:5: bundles[0].directry: unknown setting 'directry'"), "\(typo.errors)")
    }
}
