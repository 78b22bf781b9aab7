import Foundation
import LprojClient
import LprojInterface
import Testing
import LprojTestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// The install step and the units it installs, checked with systemd's own
/// tools (no systemd as PID 1 needed): `systemd-analyze verify` and
/// `security --offline`, then the installed daemon run on the installed
/// configuration.
@Suite(.serialized) struct DeploymentTests {
    @Test func installPutsEverythingWhereAPackageWouldAndTheUnitsVerify() async throws {
        let scratch = try SystemdIntegrationTests.Scratch()
        let prefix = scratch.url.appendingPathComponent("usr").path
        let sysconf = scratch.url.appendingPathComponent("etc").path
        let make = try await run(
            "make",
            [
                "-s", "-C", DaemonProcess.packageRoot.path, "install",
                "PREFIX=\(prefix)", "SYSCONFDIR=\(sysconf)", "BUILD_DIR=\(DaemonProcess.binaries.path)",
            ])
        #expect(make.status == 0, "\(make.errors)")
        let manager = FileManager.default
        for file in ["bin/lprojd", "bin/lprojctl"] {
            #expect(manager.isExecutableFile(atPath: "\(prefix)/\(file)"), "\(file)")
        }
        // The language panel: its command, its package, its desktop file, icon and metainfo, where GNOME
        // looks, and its texts with the drop-in file that registers them.
        #expect(manager.isExecutableFile(atPath: "\(prefix)/bin/lprojd-panel"))
        for file in [
            "share/lprojd-panel/lprojd_panel/app.py", "share/lprojd-panel/lprojd_panel/window.py",
            "share/lprojd-panel/Localizations/fr.lproj/Localizable.strings",
            "share/icons/hicolor/scalable/apps/org.lprojd.Panel.svg", "share/metainfo/org.lprojd.Panel.metainfo.xml",
        ] {
            #expect(manager.fileExists(atPath: "\(prefix)/\(file)"), "\(file)")
        }
        let desktopFile = try String(contentsOfFile: "\(prefix)/share/applications/org.lprojd.Panel.desktop", encoding: .utf8)
        #expect(desktopFile.contains("\nExec=\(prefix)/bin/lprojd-panel\n") && desktopFile.contains("\nIcon=org.lprojd.Panel\n"))
        let panelDropIn = try String(contentsOfFile: "\(prefix)/share/lprojd/bundles.d/org.lprojd.Panel.conf", encoding: .utf8)
        #expect(panelDropIn.contains("\ndirectory: \(prefix)/share/lprojd-panel/Localizations\n"))
        let launcher = try String(contentsOfFile: "\(prefix)/bin/lprojd-panel", encoding: .utf8)
        #expect(launcher.contains("PACKAGE_DIRECTORY = \"\(prefix)/share/lprojd-panel\""))
        for unit in [
            "lib/systemd/system/lprojd.socket", "lib/systemd/system/lprojd.service", "lib/systemd/user/lprojd.socket",
            "lib/systemd/user/lprojd.service",
        ] {
            #expect(manager.fileExists(atPath: "\(prefix)/\(unit)"), "\(unit)")
        }
        // The installed configuration serves no bundle: apps register
        // theirs with drop-in files, and the demo's comes with the examples.
        let installed = try String(contentsOfFile: "\(sysconf)/lprojd/lprojd.conf", encoding: .utf8)
        #expect(installed.firstMatch(of: /(?m)^bundles:/) == nil && installed.contains("\n# bundles:\n"))
        #expect(!manager.fileExists(atPath: "\(prefix)/share/lprojd/demo"))
        #expect(manager.fileExists(atPath: "\(sysconf)/lprojd/bundles.d") && manager.fileExists(atPath: "\(prefix)/share/lprojd/bundles.d"))
        let examples = try await run(
            "make", ["-s", "-C", DaemonProcess.packageRoot.path, "install-examples", "PREFIX=\(prefix)", "SYSCONFDIR=\(sysconf)"])
        #expect(examples.status == 0, "\(examples.errors)")
        #expect(manager.fileExists(atPath: "\(prefix)/share/lprojd/demo/de.lproj/Localizable.stringsdict"))
        // The manual pages and completions (Tests/man checks what they say).
        for file in [
            "share/man/man8/lprojd.8", "share/man/man1/lprojctl.1", "share/man/man1/lproj-extract.1", "share/man/man5/lprojd.conf.5",
            "share/bash-completion/completions/lprojctl", "share/zsh/vendor-completions/_lprojd",
            "share/fish/vendor_completions.d/lprojctl.fish",
        ] {
            #expect(manager.fileExists(atPath: "\(prefix)/\(file)"), "\(file)")
        }
        let dropIn = try String(contentsOfFile: "\(prefix)/share/lprojd/bundles.d/org.lprojd.Demo.conf", encoding: .utf8)
        #expect(dropIn.contains("directory: \(prefix)/share/lprojd/demo\n"))
        let service = try String(contentsOfFile: "\(prefix)/lib/systemd/system/lprojd.service", encoding: .utf8)
        #expect(service.contains("ExecStart=\(prefix)/bin/lprojd --system --config \(sysconf)/lprojd/lprojd.conf\n"))
        // The process is bounded a little above its budgets: a ledger bug is
        // a restart, not the machine's OOM killer.
        let memoryMax = service.firstMatch(of: /\nMemoryMax=(\d+)M\n/).flatMap { Int($0.1) }
        let memoryHigh = service.firstMatch(of: /\nMemoryHigh=(\d+)M\n/).flatMap { Int($0.1) }
        #expect(memoryMax != nil && memoryHigh != nil && service.contains("\nTasksMax="), "\(service)")
        let sample = try String(
            contentsOf: DaemonProcess.packageRoot.appendingPathComponent("etc/lprojd/lprojd.conf"), encoding: .utf8)
        let budget = (sample.firstMatch(of: /\n  max-memory: (\d+) GiB\n/).flatMap { Int($0.1) } ?? 0) << 10
        #expect((memoryHigh ?? 0) > budget && (memoryMax ?? 0) > (memoryHigh ?? 0) && (memoryMax ?? 0) <= 2 * budget)

        // systemd 252 warns about unknown or misspelt settings on stderr
        // and still exits 0, so the check is that it says nothing.
        let system = try await run(
            "systemd-analyze",
            ["verify", "--man=no", "\(prefix)/lib/systemd/system/lprojd.socket", "\(prefix)/lib/systemd/system/lprojd.service"])
        #expect(system.status == 0 && system.errors.isEmpty, "\(system.errors)")
        let runtime = try scratch.url.appendingPathComponent("xdg-runtime", isDirectory: true).creatingDirectory()
        let user = try await run(
            "systemd-analyze",
            ["--user", "verify", "--man=no", "\(prefix)/lib/systemd/user/lprojd.socket", "\(prefix)/lib/systemd/user/lprojd.service"],
            environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(user.status == 0 && user.errors.isEmpty, "\(user.errors)")

        let security = try await run("systemd-analyze", ["security", "--offline=true", "\(prefix)/lib/systemd/system/lprojd.service"])
        let score = security.output.firstMatch(of: /Overall exposure level for lprojd\.service: (\d+\.\d)/).flatMap { Double($0.1) }
        #expect(score != nil && score! <= 2.0, "\(security.output)")

        // The installed binary, on the installed configuration, serves the
        // demo bundle its installed drop-in registers.
        let socket = scratch.url.appendingPathComponent("run/org.lprojd.Localization").path
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "\(prefix)/bin/lprojd")
        daemon.arguments = [
            "--config", "\(sysconf)/lprojd/lprojd.conf", "--socket", socket, "--state-directory",
            scratch.url.appendingPathComponent("state").path, "--drop-in-directory", "\(sysconf)/lprojd/bundles.d",
            "--drop-in-directory", "\(prefix)/share/lprojd/bundles.d",
        ]
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        let client = try await withTimeout(seconds: 30, "the installed lprojd did not start") {
            while true {
                if let client = try? await LprojClient.connect(path: socket) { return client }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        #expect(try await client.lookup(bundle: "org.lprojd.Demo", key: "welcome.title", locale: "de").value == "Willkommen bei Demo")
        await client.close()
        kill(daemon.processIdentifier, SIGTERM)
        try await withTimeout(seconds: 15, "the installed lprojd did not stop") {
            while daemon.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(daemon.terminationStatus == 0)

        // Installing again keeps an edited configuration.
        let configuration = "\(sysconf)/lprojd/lprojd.conf"
        try Data("# mine\n".utf8).write(to: URL(fileURLWithPath: configuration))
        let again = try await run(
            "make", ["-s", "-C", DaemonProcess.packageRoot.path, "install-data", "PREFIX=\(prefix)", "SYSCONFDIR=\(sysconf)"])
        #expect(again.status == 0, "\(again.errors)")
        #expect(try String(contentsOfFile: configuration, encoding: .utf8) == "# mine\n")
        #expect(manager.fileExists(atPath: "\(configuration).sample"))
    }

    @Test(.enabled(if: canTrace(), "needs strace (ptrace) to record lprojd's system calls"))
    func everySystemCallLprojdMakesIsAllowedByTheServiceUnit() async throws {
        let unit = try String(contentsOf: DaemonProcess.packageRoot.appendingPathComponent("systemd/lprojd.service"), encoding: .utf8)
        let allowed = try SystemCallFilter(unit: unit, groups: SystemCallFilter.groups())
        #expect(allowed.names.contains("epoll_wait") && !allowed.names.contains("setrlimit") && !allowed.names.contains("mount"))

        let scratch = try SystemdIntegrationTests.Scratch()
        let trace = scratch.url.appendingPathComponent("trace.txt").path
        let notify = try NotifyListener(directory: scratch.url)
        // As an unprivileged user, as under DynamicUser= (SQLite, for one,
        // only fchown()s its files when it runs as root).
        let daemon = try await DaemonProcess(
            dropIns: ["bundles.d"],
            launch: Launch(
                notify: notify, environment: ["WATCHDOG_USEC": "400000"],
                wrapper: ["strace", "-f", "-qq", "-u", "nobody", "-o", trace], wrapperForks: true, writableBy: 65534))
        try await workOut(daemon, notify: notify)
        #expect(try await daemon.stop() == 0)

        let calls = try TracedCalls(file: trace)
        #expect(calls.names.count > 30, "the trace looks empty: \(calls.names)")
        let denied = calls.names.subtracting(allowed.names)
        #expect(denied.isEmpty, "not allowed by SystemCallFilter=: \(denied.sorted())")
        // RestrictAddressFamilies=AF_UNIX
        #expect(calls.lines(of: "socket").allSatisfy { $0.contains("socket(AF_UNIX,") }, "\(calls.lines(of: "socket"))")
        // MemoryDenyWriteExecute=yes: no writable and executable mapping,
        // and nothing made executable afterwards.
        let writableExecutable = calls.lines(of: "mmap").filter { $0.contains("PROT_WRITE") && $0.contains("PROT_EXEC") }
        #expect(writableExecutable.isEmpty, "\(writableExecutable)")
        let madeExecutable = (calls.lines(of: "mprotect") + calls.lines(of: "pkey_mprotect")).filter { $0.contains("PROT_EXEC") }
        #expect(madeExecutable.isEmpty, "\(madeExecutable)")
        // ProtectProc=invisible, ProcSubset=pid: only the process's own /proc.
        // glibc's malloc reads /proc/sys/vm/overcommit_memory before it
        // shrinks a thread's heap, and does without when it is hidden.
        let procOpens = calls.openedPaths.filter { $0.hasPrefix("/proc/") && $0 != "/proc/sys/vm/overcommit_memory" }
        let foreign = procOpens.filter { $0.wholeMatch(of: /\/proc\/(self|thread-self|\d+)\/.*/) == nil }
        #expect(foreign.isEmpty, "\(foreign)")
        // RestrictNamespaces=yes: threads, never new namespaces.
        #expect(!calls.lines(of: "clone").contains { $0.contains("CLONE_NEW") } && !calls.names.contains("unshare"))
    }

    /// What lprojd does in a day: lookups, tables, a subscription, a
    /// selection (SQLite), added strings, a table edited on disk (inotify),
    /// a drop-in bundle file installed, a reload asked for, SIGHUP (which
    /// reads the drop-ins again), and the watchdog ticking.
    private func workOut(_ daemon: DaemonProcess, notify: NotifyListener) async throws {
        let lprojd = try await daemon.client()
        let events = EventRecorder(try await lprojd.events(client: "org.example.Trace"))
        _ = try await events.next()
        #expect(try await lprojd.lookup(bundle: "demo", key: "files.selected", locale: "ru", arguments: [.int(3)]).found)
        _ = try await lprojd.table(bundle: "demo", locale: "de")
        _ = try await lprojd.select(client: "org.example.Trace", bundle: "demo", locale: "fr")
        _ = try await lprojd.addStrings(["k": "v"], client: "org.example.Trace", bundle: "demo", locale: "fr")
        try daemon.replace("fr.lproj/Localizable.strings", "\"welcome.title\" = \"Bonjour\";\n")
        _ = try await events.next { $0.type == .tablesChanged }
        try daemon.installDropIn("org.example.Trace.conf", in: "bundles.d", "directory: $BUNDLE\n")
        _ = try await events.next { $0.type == .bundleChanged && $0.bundle == "org.example.Trace" }
        _ = try await lprojd.reload(bundle: "demo")
        let mark = notify.messages.count
        daemon.send(SIGHUP)
        _ = try await notify.next("READY", "1", after: mark)
        _ = try await notify.next("WATCHDOG", "1", after: mark)
        _ = try await lprojd.status()
        await lprojd.close()
    }
}

/// A unit's `SystemCallFilter=` lines, resolved to system call names the
/// way systemd does: the first allow-list sets the list, `~` lines remove.
struct SystemCallFilter {
    let names: Set<String>

    init(unit: String, groups: [String: [String]]) throws {
        var allowed: Set<String>?
        for line in unit.split(separator: "\n") where line.hasPrefix("SystemCallFilter=") {
            var value = line.dropFirst("SystemCallFilter=".count)
            let deny = value.hasPrefix("~")
            if deny { value = value.dropFirst() }
            let listed = Set(value.split(separator: " ").flatMap { Self.expand(String($0), groups: groups) })
            if deny { allowed = (allowed ?? []).subtracting(listed) } else { allowed = (allowed ?? []).union(listed) }
        }
        guard let allowed else { throw DaemonError(description: "the unit has no SystemCallFilter=") }
        names = allowed
    }

    static func expand(_ item: String, groups: [String: [String]]) -> [String] {
        guard item.hasPrefix("@") else { return [item] }
        return (groups[item] ?? []).flatMap { expand($0, groups: groups) }
    }

    /// systemd's groups, from `systemd-analyze syscall-filter`.
    static func groups() throws -> [String: [String]] {
        let listing = try runBlocking("systemd-analyze", ["syscall-filter", "--no-pager"])
        var groups: [String: [String]] = [:]
        var current: String?
        for line in listing.output.split(separator: "\n") {
            if line.hasPrefix("@") {
                current = String(line)
            } else if let current {
                let item = line.trimmingCharacters(in: .whitespaces)
                if item.isEmpty || item.hasPrefix("#") { continue }
                groups[current, default: []].append(item)
            }
        }
        return groups
    }
}

/// The system calls in an strace log (`strace -f -o FILE`).
struct TracedCalls {
    private var byName: [String: [String]] = [:]
    let openedPaths: [String]

    init(file: String) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var opened: [String] = []
        for line in text.split(separator: "\n") {
            // "1234  openat(AT_FDCWD, "/x", O_RDONLY) = 3", or a call's end
            // after a thread switch: "1234  <... read resumed>...".
            guard let match = line.firstMatch(of: /^\d+\s+([a-z0-9_]+)\(/) else { continue }
            let name = String(match.1)
            byName[name, default: []].append(String(line))
            if name == "openat" || name == "open", let path = line.firstMatch(of: /\("([^"]*)"|, "([^"]*)"/) {
                opened.append(String(path.1 ?? path.2 ?? ""))
            }
        }
        openedPaths = opened
    }

    var names: Set<String> { Set(byName.keys) }
    func lines(of name: String) -> [String] { byName[name] ?? [] }
}

/// Whether strace can trace here (ptrace may be forbidden in a container).
func canTrace() -> Bool {
    (try? runBlocking("strace", ["-f", "-qq", "-o", "/dev/null", "true"]).status) == 0
}
