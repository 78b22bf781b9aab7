import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// `make soak`: the release lprojd under every attack of the hardening
/// issue, and under the load and faults a machine can bring. Each scenario
/// gets a fresh daemon; attackers and the well-behaved client are distinct
/// unprivileged uids (setpriv), as on a shared machine. Prints one table.
enum Soak {
    static let probeUID = 4243
    static let attackerUID = 4242

    struct Row {
        var scenario: String
        var outcome: String
        var stall: String
        var otherStall = "—"
        var events = "—"
        var reloads = "—"
        var memory: String
        var state: String
    }

    /// `rounds` runs each attack that many times, each against a fresh
    /// daemon, to find what fails rarely (a crash of one run in 20 was
    /// found so); the table gives the last round's figures.
    static func run(seconds: Double, only: Set<String>?, rounds: Int = 1) throws {
        guard getuid() == 0 else { throw SoakFailure("the soak runs lprojd's clients as several uids (setpriv): run it as root") }
        guard FileManager.default.isExecutableFile(atPath: SoakPaths.lprojd) else {
            throw SoakFailure("\(SoakPaths.lprojd) is missing: build it first (swift build -c release --product lprojd)")
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lproj-soak-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        chmod(root.path, 0o755)
        defer { try? FileManager.default.removeItem(at: root) }
        // The tool itself, where the other uids can run it.
        let tool = root.appendingPathComponent("lproj-soak").path
        try FileManager.default.copyItem(atPath: SoakPaths.soak, toPath: tool)
        chmod(tool, 0o755)
        let context = Context(root: root, tool: tool, seconds: seconds)

        var rows: [Row] = []
        func wanted(_ name: String) -> Bool { only == nil || only!.contains(name) }
        for attack in Attack.allCases where wanted(attack.rawValue) {
            var row: Row?
            for round in 1...max(1, rounds) {
                log("attack \(attack.rawValue) for \(Int(seconds)) s" + (rounds > 1 ? ", round \(round) of \(rounds)" : ""))
                row = try context.attack(attack)
            }
            rows.append(row!)
        }
        let scenarios: [(String, () throws -> Row)] = [
            ("connections", context.manyConnections),
            ("subscribers", context.manySubscribers),
            ("kill", context.killsDuringWrites),
            ("overflow", context.inotifyOverflow),
            ("state-faults", context.stateFaults),
        ]
        for (name, scenario) in scenarios where wanted(name) {
            log("scenario \(name)")
            rows.append(try scenario())
        }
        print(table(rows, seconds: seconds))
    }

    static func log(_ text: String) {
        FileHandle.standardError.write(Data("lproj-soak: \(text)\n".utf8))
    }

    static func table(_ rows: [Row], seconds: Double) -> String {
        var text =
            "| scenario (\(Int(seconds)) s each) | what lprojd did | other uid's lookups: p50 / p99 / worst | its SelectLocale, SupportedLocales, Format: p99 / worst | its own events, late: p99 / worst | its own bundle's reloads: p50 / p99 / worst | lprojd's peak RSS (growth) | state |\n|---|---|---|---|---|---|---|---|\n"
        for row in rows {
            text +=
                "| \(row.scenario) | \(row.outcome) | \(row.stall) | \(row.otherStall) | \(row.events) | \(row.reloads) | \(row.memory) | \(row.state) |\n"
        }
        return text
    }

    static func mebibytes(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
    static func milliseconds(_ microseconds: Double) -> String { String(format: "%.2f ms", microseconds / 1000) }

    struct ProbeResult: Codable {
        var lookups: Int
        var errors: Int
        var p50Microseconds: Double
        var p99Microseconds: Double
        var maxMicroseconds: Double
        var otherCalls: Int
        var otherP99Microseconds: Double
        var otherMaxMicroseconds: Double
        var events: Int
        var eventsMissed: Int
        var eventP99Microseconds: Double
        var eventMaxMicroseconds: Double
        var reloads: Int
        var reloadsMissed: Int
        var reloadP50Microseconds: Double
        var reloadP99Microseconds: Double
        var reloadMaxMicroseconds: Double

        /// Its own events: how late, and any that never came.
        var eventSummary: String {
            events == 0 && eventsMissed == 0
                ? "—"
                : "\(milliseconds(eventP99Microseconds)) / **\(milliseconds(eventMaxMicroseconds))**"
                    + (eventsMissed > 0 ? " (\(eventsMissed) never came)" : "")
        }

        /// Its own bundle's reloads.
        var reloadSummary: String {
            reloads == 0 && reloadsMissed == 0
                ? "—"
                : "\(milliseconds(reloadP50Microseconds)) / \(milliseconds(reloadP99Microseconds)) / **\(milliseconds(reloadMaxMicroseconds))**"
                    + (reloadsMissed > 0 ? " (\(reloadsMissed) never announced)" : "")
        }

        var summary: String {
            "\(milliseconds(p50Microseconds)) / \(milliseconds(p99Microseconds)) / **\(milliseconds(maxMicroseconds))**"
                + (errors > 0 ? " (\(errors) errors)" : "")
        }

        /// The worker-served calls and formats, every 50 ms.
        var otherSummary: String {
            "\(milliseconds(otherP99Microseconds)) / **\(milliseconds(otherMaxMicroseconds))**"
        }
    }

    /// What every scenario shares: where it runs, the tool, the time.
    struct Context {
        let root: URL
        let tool: String
        let seconds: Double

        /// A fresh directory with the soak's bundle, and a bundle the
        /// probe owns (it renames tables into it) and one the attacker owns
        /// (the attacks through files write there), beside a private folder
        /// of the probe's that the attacker must never reach.
        func workspace(_ name: String) throws -> URL {
            let directory = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            chmod(directory.path, 0o755)
            for (folder, text) in [("en.lproj", "Welcome"), ("de.lproj", "Willkommen"), ("fr.lproj", "Bienvenue")] {
                let path = directory.appendingPathComponent("bundle/\(folder)")
                try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
                var table = "\"welcome.title\" = \"\(text)\";\n"
                for index in 0..<500 { table += "\"key.\(index)\" = \"\(text) \(index)\";\n" }
                try Data(table.utf8).write(to: path.appendingPathComponent("Localizable.strings"))
            }
            for (home, owner, text) in [
                ("probe", Soak.probeUID, "Probe"), ("hostile", Soak.attackerUID, "Hostile"), ("private", Soak.probeUID, "SECRET"),
            ] {
                let folder = directory.appendingPathComponent("\(home)-home/bundle/en.lproj")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let table = folder.appendingPathComponent("Localizable.strings")
                try Data("\"welcome.title\" = \"\(text)\";\n".utf8).write(to: table)
                for path in [
                    folder.deletingLastPathComponent().deletingLastPathComponent(), folder.deletingLastPathComponent(), folder, table,
                ] {
                    chown(path.path, uid_t(owner), gid_t(owner))
                }
            }
            chmod(directory.appendingPathComponent("private-home").path, 0o700)
            return directory
        }

        /// The bundles besides the demo: the probe's and the attacker's.
        static func ownBundles(_ directory: URL) -> [(name: String, directory: String)] {
            [
                ("probe", directory.appendingPathComponent("probe-home/bundle").path),
                ("hostile", directory.appendingPathComponent("hostile-home/bundle").path),
            ]
        }

        func asUID(_ uid: Int, _ arguments: [String]) -> [String] {
            ["setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", tool] + arguments
        }

        func probe(_ daemon: SoakDaemon, seconds: Double) throws -> Background {
            try Background(
                asUID(
                    Soak.probeUID,
                    ["probe", "--socket", daemon.socket, "--seconds", String(seconds)]
                        + (daemon.serves("probe")
                            ? [
                                "--reload-directory", daemon.directory.appendingPathComponent("probe-home/bundle").path, "--reload-bundle",
                                "probe",
                            ]
                            : [])))
        }

        func probeResult(_ probe: Background) throws -> ProbeResult {
            try JSONDecoder().decode(ProbeResult.self, from: Data(probe.finish().utf8))
        }

        // MARK: Attacks

        func attack(_ attack: Attack) throws -> Row {
            let directory = try workspace(attack.rawValue)
            let daemon = try SoakDaemon(directory: directory, bundles: Self.ownBundles(directory))
            let state = directory.appendingPathComponent("state").path
            let stateBefore = directorySize(state)
            let before = daemon.residentBytes
            let linesBefore = daemon.log.lineCount
            let memory = MemorySampler(daemon)
            let probe = try self.probe(daemon, seconds: seconds + 1)
            let (output, probed) = try daemon.checking("the attack \(attack.rawValue)") {
                let files =
                    attack.writesABundle
                    ? [
                        "--bundle-directory", directory.appendingPathComponent("hostile-home/bundle").path, "--bundle", "hostile",
                        "--swap-target", directory.appendingPathComponent("private-home/bundle").path,
                    ] : []
                let output = try runProgram(
                    asUID(Soak.attackerUID, ["attack", attack.rawValue, "--socket", daemon.socket, "--seconds", String(seconds)] + files))
                return (output, try probeResult(probe))
            }
            let peak = memory.stop()
            let report = try JSONDecoder().decode(Attack.Report.self, from: Data(output.utf8))
            let lines = daemon.log.lineCount - linesBefore
            daemon.kill()
            var said = report.limits.sorted { $0.key < $1.key }.map { "LimitExceeded(\($0.key)) ×\($0.value)" }
            said += report.errors.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
            let outcome =
                "\(report.calls) calls; " + (said.isEmpty ? "answered" : said.joined(separator: ", "))
                + (report.note.isEmpty ? "" : "; \(report.note)")
                + (attack == .logFlood || attack == .bundleRenames ? "; \(lines) log lines" : "")
            return Row(
                scenario: attack.hole, outcome: outcome, stall: probed.summary, otherStall: probed.otherSummary,
                events: probed.eventSummary, reloads: probed.reloadSummary,
                memory: "\(mebibytes(peak)) (+\(mebibytes(peak - before)))",
                state: "+\(mebibytes(directorySize(state) - stateBefore))")
        }

        // MARK: Load

        /// 4,096 connections held open across 16 uids; lookups of another
        /// uid before and during.
        func manyConnections() throws -> Row {
            let directory = try workspace("connections")
            let daemon = try SoakDaemon(directory: directory, limits: "{max-connections: 4200}")
            let quiet = try probeResult(try probe(daemon, seconds: 3))
            let memory = MemorySampler(daemon)
            var holders: [Background] = []
            for index in 0..<16 {
                let holder = try Background(
                    asUID(5000 + index, ["hold", "--socket", daemon.socket, "--connections", "256", "--seconds", String(seconds + 5)]))
                try holder.waitFor("holding")
                holders.append(holder)
            }
            let busy = try probeResult(try probe(daemon, seconds: seconds))
            let peak = memory.stop()
            let held = holders.map { (try? JSONDecoder().decode(Modes.Held.self, from: Data(lastLine($0.finish()).utf8)))?.accepted ?? 0 }
                .reduce(0, +)
            daemon.kill()
            return Row(
                scenario: "4,096 connections held by 16 uids",
                outcome: "\(held) held open; lookups p99 \(milliseconds(quiet.p99Microseconds)) before",
                stall: busy.summary, memory: "\(mebibytes(peak))", state: "")
        }

        /// 1,000 subscribers (8 uids) reading a burst of table changes, and
        /// 100 that never read.
        func manySubscribers() throws -> Row {
            let directory = try workspace("subscribers")
            let daemon = try SoakDaemon(directory: directory)
            let before = daemon.residentBytes
            let memory = MemorySampler(daemon)
            var readers: [Background] = []
            for index in 0..<8 {
                let reader = try Background(
                    asUID(6000 + index, ["subscribe", "--socket", daemon.socket, "--connections", "125", "--seconds", String(seconds)]))
                try reader.waitFor("subscribed")
                readers.append(reader)
            }
            let stuck = try Background(
                asUID(6100, ["subscribe", "--socket", daemon.socket, "--connections", "100", "--read", "no", "--seconds", String(seconds)]))
            try stuck.waitFor("subscribed")
            let probe = try self.probe(daemon, seconds: seconds - 1)
            // A burst: the German table rewritten (renamed into place) 2,000 times.
            let table = directory.appendingPathComponent("bundle/de.lproj/Localizable.strings")
            let temporary = directory.appendingPathComponent("bundle/de.lproj/.Localizable.strings.tmp")
            var body = ""
            for index in 0..<500 { body += "\"key.\(index)\" = \"Wert \(index) \(String(repeating: "x", count: 200))\";\n" }
            for round in 0..<2000 {
                try Data(("\"welcome.title\" = \"Willkommen \(round)\";\n" + body).utf8).write(to: temporary)
                rename(temporary.path, table.path)
            }
            let probed = try probeResult(probe)
            let results = readers.map {
                (try? JSONDecoder().decode(Modes.Subscribed.self, from: Data(lastLine($0.finish()).utf8))) ?? Modes.Subscribed()
            }
            let stuckResult =
                (try? JSONDecoder().decode(Modes.Subscribed.self, from: Data(lastLine(stuck.finish()).utf8))) ?? Modes.Subscribed()
            let peak = memory.stop()
            daemon.kill()
            let subscribed = results.reduce(0) { $0 + $1.subscribed }, events = results.reduce(0) { $0 + $1.events }
            return Row(
                scenario: "1,000 subscribers and 100 that never read; 2,000 table rewrites",
                outcome:
                    "\(subscribed) subscribed, \(events) events read (\(events / max(1, subscribed)) each); \(stuckResult.dropped) of \(stuckResult.subscribed) non-readers dropped",
                stall: probed.summary, memory: "\(mebibytes(peak)) (+\(mebibytes(peak - before)))", state: "")
        }

        // MARK: Faults

        /// `kill -9` at random moments of a stream of acknowledged writes,
        /// 200 times; then every acknowledged write must be there.
        func killsDuringWrites() throws -> Row {
            let directory = try workspace("kill")
            var acknowledged: [String: String] = [:], inFlight: [String: String] = [:]
            var preferenceAcks: [String: String] = [:], preferencesInFlight: [String: String] = [:]
            var writes = 0
            let locales = ["de", "fr", "en"], symbols = ["€", "$", "£", "¥"]
            for round in 0..<200 {
                let daemon = try SoakDaemon(directory: directory)
                let pid = daemon.pid
                let killer = Thread {
                    usleep(UInt32.random(in: 2_000...60_000))
                    Glibc.kill(pid, SIGKILL)
                }
                killer.start()
                let wire = try Wire(path: daemon.socket)
                var sequence = 0
                while true {
                    sequence += 1
                    let client = "k\((round * 7 + sequence) % 25)"
                    if sequence % 2 == 0 {
                        let locale = locales[(round + sequence) % 3]
                        inFlight[client] = locale
                        guard wire.call(callText("SelectLocale", #"{"client":"\#(client)","bundle":"demo","locale":"\#(locale)"}"#)),
                            let reply = wire.receive(timeout: 5), Wire.errorName(reply) == nil
                        else { break }
                        acknowledged[client] = locale
                        inFlight[client] = nil
                    } else {
                        let symbol = symbols[(round + sequence) % 4]
                        preferencesInFlight[client] = symbol
                        guard
                            wire.call(
                                callText(
                                    "SetPreferences",
                                    #"{"client":"\#(client)","bundle":"demo","preferences":{"currencySymbol":"\#(symbol)"}}"#)),
                            let reply = wire.receive(timeout: 5), Wire.errorName(reply) == nil
                        else { break }
                        preferenceAcks[client] = symbol
                        preferencesInFlight[client] = nil
                    }
                    writes += 1
                }
                daemon.process.waitUntilExit()
            }
            // What survived.
            let daemon = try SoakDaemon(directory: directory)
            let wire = try Wire(path: daemon.socket)
            var lost = 0
            for (client, locale) in acknowledged {
                wire.call(callText("GetSelection", #"{"client":"\#(client)","bundle":"demo"}"#))
                let reply = wire.receive() ?? ""
                let found =
                    reply.contains(#""locale":"\#(locale)""#) || inFlight[client].map { reply.contains(#""locale":"\#($0)""#) } ?? false
                if !found { lost += 1 }
            }
            for (client, symbol) in preferenceAcks {
                wire.call(callText("GetPreferences", #"{"client":"\#(client)","bundle":"demo"}"#))
                let reply = wire.receive() ?? ""
                let found = reply.contains(symbol) || preferencesInFlight[client].map { reply.contains($0) } ?? false
                if !found { lost += 1 }
            }
            daemon.kill()
            return Row(
                scenario: "kill -9 during SelectLocale and SetPreferences, 200 times",
                outcome: "\(writes) writes acknowledged; **\(lost) lost** after the last restart", stall: "", memory: "", state: "")
        }

        /// 20,000 tables created in a watched folder at once: more events
        /// than inotify's queue holds; then every key against the files.
        func inotifyOverflow() throws -> Row {
            let directory = try workspace("overflow")
            // lprojd's reader keeps up with one writer; for the kernel's queue
            // to overflow for certain, it is made small for this scenario.
            let setting = "/proc/sys/fs/inotify/max_queued_events"
            let saved = (try? String(contentsOfFile: setting, encoding: .utf8)) ?? "16384\n"
            try? Data("256\n".utf8).write(to: URL(fileURLWithPath: setting))
            defer { try? Data(saved.utf8).write(to: URL(fileURLWithPath: setting)) }
            let daemon = try SoakDaemon(directory: directory)
            let folder = directory.appendingPathComponent("bundle/de.lproj")
            let count = 20_000
            let started = Date()
            for index in 0..<count {
                try Data("\"k\" = \"v\(index)\";\n".utf8).write(to: folder.appendingPathComponent("T\(index).strings"))
            }
            // Every key, compared with the files, until they agree (or 2 minutes pass).
            let wire = try Wire(path: daemon.socket)
            var mismatches = count
            let deadline = Date().addingTimeInterval(120)
            while mismatches > 0, Date() < deadline {
                mismatches = 0
                for start in stride(from: 0, to: count, by: 500) {
                    var batch: [UInt8] = []
                    for index in start..<min(count, start + 500) {
                        batch += Array(callText("Lookup", #"{"bundle":"demo","table":"T\#(index)","key":"k","locale":"de"}"#).utf8) + [0]
                    }
                    wire.send(batch)
                    for index in start..<min(count, start + 500) where !(wire.receive() ?? "").contains(#""value":"v\#(index)""#) {
                        mismatches += 1
                    }
                }
            }
            let converged = Date().timeIntervalSince(started)
            let overflowed = daemon.log.text.contains("overflow")
            daemon.kill()
            return Row(
                scenario: "20,000 files created at once in a watched folder (fs.inotify.max_queued_events 256)",
                outcome: (overflowed ? "inotify overflowed; read everything again; " : "no overflow; ")
                    + "\(count - mismatches) of \(count) tables agree with the disk after \(String(format: "%.1f", converged)) s",
                stall: "", memory: "", state: "")
        }

        /// The state database full, read-only, damaged and truncated. The
        /// state directory is a small tmpfs in a mount namespace of its own,
        /// held by a sleeping process; lprojd enters it (nsenter), so that it
        /// can be restarted there and the faults made from outside.
        func stateFaults() throws -> Row {
            let directory = try workspace("faults")
            let state = directory.appendingPathComponent("state").path
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            let holder = try Background([
                "unshare", "--mount", "--propagation", "private", "sh", "-c",
                "mount -t tmpfs -o size=4m tmpfs \(state) && echo mounted && exec sleep 100000",
            ])
            try holder.waitFor("mounted")
            defer { holder.process.terminate() }
            let namespace = String(holder.process.processIdentifier)
            func inNamespace(_ command: String) throws { try runProgram(["nsenter", "-t", namespace, "-m", "sh", "-c", command]) }
            func start() throws -> (SoakDaemon, Wire) {
                let daemon = try SoakDaemon(directory: directory, wrapper: ["nsenter", "-t", namespace, "-m"])
                return (daemon, try Wire(path: daemon.socket))
            }
            func select(_ wire: Wire, _ locale: String) -> String {
                wire.call(callText("SelectLocale", #"{"client":"faults","bundle":"demo","locale":"\#(locale)"}"#))
                return wire.receive() ?? "no reply"
            }
            func lookupWorks(_ wire: Wire) -> Bool {
                wire.call(callText("Lookup", #"{"bundle":"demo","key":"welcome.title","locale":"de"}"#))
                return (wire.receive() ?? "").contains("Willkommen")
            }
            /// Breaks the state, tries a write and a lookup, repairs it,
            /// and waits for a write to work again (StateRecovery opens a
            /// closed store every 5 s; a full one works at the next write).
            func check(_ fault: String, whileRunning: Bool, _ break: String, _ fix: String) throws -> String {
                var (daemon, wire) = try start()
                _ = select(wire, "de")
                if whileRunning {
                    try inNamespace(`break`)
                } else {
                    daemon.kill()
                    try inNamespace(`break`)
                    (daemon, wire) = try start()
                }
                let failed = select(wire, "fr")
                let refused = failed.contains("StateUnavailable")
                let served = lookupWorks(wire)
                try inNamespace(fix)
                var recovered = false
                for _ in 0..<60 where !recovered {
                    recovered = Wire.errorName(select(wire, "de")) == nil
                    if !recovered { usleep(250_000) }
                }
                let logged = daemon.log.text.contains("cannot be saved") || daemon.log.text.contains("cannot save")
                daemon.kill()
                return "\(fault): "
                    + [
                        refused
                            ? "StateUnavailable"
                            : "write answered \(Wire.errorName(failed)?.split(separator: ".").last.map(String.init) ?? "normally")",
                        served ? "lookups served" : "LOOKUPS FAILED", logged ? "logged" : "not logged",
                        recovered ? "recovered" : "NOT RECOVERED",
                    ].joined(separator: ", ")
            }
            let database = "\(state)/lprojd.sqlite"
            let findings = [
                try check(
                    "full while running", whileRunning: true, "dd if=/dev/zero of=\(state)/filler bs=64k 2>/dev/null; true",
                    "rm -f \(state)/filler"),
                try check("read-only at start", whileRunning: false, "mount -o remount,ro \(state)", "mount -o remount,rw \(state)"),
                try check(
                    "damaged at start", whileRunning: false,
                    "printf 'this is not a database at all, not at all' | dd of=\(database) conv=notrunc 2>/dev/null; rm -f \(database)-wal \(database)-shm",
                    "mv \(database) \(state)/damaged.sqlite"),
                try check(
                    "damaged while running", whileRunning: true,
                    "printf 'this is not a database at all, not at all' | dd of=\(database) conv=notrunc 2>/dev/null",
                    "mv \(database) \(state)/damaged-2.sqlite; rm -f \(database)-wal \(database)-shm"),
                try check("truncated while running", whileRunning: true, "truncate -s 0 \(database)", "true"),
            ]
            return Row(
                scenario: "state database full, read-only, damaged, truncated", outcome: findings.joined(separator: "; "), stall: "",
                memory: "", state: "")
        }
    }
}
