import Foundation
import Testing
import LprojTestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// Two real unprivileged users of one system lprojd (run as root, as the
/// system service is): what one does for an app id never reaches the
/// other's use of the same app id, and one exhausting its budgets changes
/// nothing for the other.
@Suite(.serialized, .enabled(if: getuid() == 0, "acts as two unprivileged uids (setpriv); runs as root, as CI does"))
struct IsolationTests {
    static let alice: uid_t = 4301
    static let bob: uid_t = 4302

    struct Users {
        let daemon: DaemonProcess
        let tool: String

        init(_ daemon: DaemonProcess) throws {
            self.daemon = daemon
            tool = daemon.directory.appendingPathComponent("lproj-soak").path
            if !FileManager.default.fileExists(atPath: tool) {
                try FileManager.default.copyItem(at: Hostile.toolPath, to: URL(fileURLWithPath: tool))
                chmod(tool, 0o755)
            }
        }

        /// Sends calls as `uid`; returns each reply.
        func call(_ uid: uid_t, _ calls: String...) async throws -> [String] {
            let finished = try await run(
                "setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", tool, "call", "--socket", daemon.socket] + calls)
            guard finished.status == 0 else { throw DaemonError(description: finished.errors) }
            return finished.output.split(separator: "\n").map(String.init)
        }

        /// Listens as `uid` in the background, once subscribed.
        func listen(_ uid: uid_t, seconds: Double) async throws -> Listener {
            let listener = try Listener([
                "setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", tool, "listen", "--socket", daemon.socket, "--client",
                "shared.app", "--seconds", String(seconds),
            ])
            try await listener.wait { $0.contains("\"ready\"") }
            return listener
        }
    }

    static func call(_ method: String, _ parameters: String) -> String {
        #"{"method":"org.lprojd.Localization.\#(method)","parameters":\#(parameters)}"#
    }

    @Test func usersNeverSeeOrChangeEachOthersState() async throws {
        let daemon = try await DaemonProcess()
        let users = try Users(daemon)
        let bobsEvents = try await users.listen(Self.bob, seconds: 4)
        let alicesEvents = try await users.listen(Self.alice, seconds: 4)

        // Alice's app: a locale, a preference, an added string.
        let alice = try await users.call(
            Self.alice,
            Self.call("SelectLocale", #"{"client":"shared.app","bundle":"demo","locale":"de"}"#),
            Self.call("SetPreferences", #"{"client":"shared.app","bundle":"demo","preferences":{"currencySymbol":"A$"}}"#),
            Self.call("AddStrings", #"{"client":"shared.app","bundle":"demo","locale":"en","strings":{"alice.only":"Alice's"}}"#))
        #expect(alice.allSatisfy { !$0.contains("\"error\"") }, "\(alice)")

        // Bob's same app id sees none of it, and cannot reload.
        let bob = try await users.call(
            Self.bob,
            Self.call("GetSelection", #"{"client":"shared.app","bundle":"demo"}"#),
            Self.call("GetPreferences", #"{"client":"shared.app","bundle":"demo"}"#),
            Self.call("Lookup", #"{"client":"shared.app","bundle":"demo","key":"alice.only","locale":"en"}"#),
            Self.call("Reload", "{}"),
            Self.call("SelectLocale", #"{"client":"shared.app","bundle":"demo","locale":"fr"}"#),
            Self.call("RemoveAddedStrings", #"{"client":"shared.app","bundle":"demo"}"#))
        #expect(bob[0].contains(#""locale":"en""#) && bob[0].contains(#""reason":"default""#), "\(bob[0])")
        #expect(bob[1].contains(#""preferences":{}"#), "\(bob[1])")
        #expect(bob[2].contains(#""found":false"#), "\(bob[2])")
        #expect(bob[3].contains("PermissionDenied"), "\(bob[3])")
        #expect(bob[5].contains(#""removed":0"#), "\(bob[5])")

        // What Bob did changed nothing of Alice's.
        let after = try await users.call(
            Self.alice,
            Self.call("GetSelection", #"{"client":"shared.app","bundle":"demo"}"#),
            Self.call("Lookup", #"{"client":"shared.app","bundle":"demo","key":"alice.only","locale":"en"}"#))
        #expect(after[0].contains(#""locale":"de""#), "\(after[0])")
        #expect(after[1].contains("Alice's"), "\(after[1])")

        // Each heard only of its own changes.
        let heardByBob = try await bobsEvents.finish(), heardByAlice = try await alicesEvents.finish()
        #expect(heardByBob.contains { $0.contains("localeChanged") && $0.contains(#""locale":"fr""#) }, "\(heardByBob)")
        #expect(
            !heardByBob.contains { $0.contains(#""locale":"de""#) || $0.contains("preferencesChanged") || $0.contains("A$") },
            "\(heardByBob)")
        #expect(heardByAlice.contains { $0.contains("localeChanged") && $0.contains(#""locale":"de""#) }, "\(heardByAlice)")
        #expect(!heardByAlice.contains { $0.contains(#""locale":"fr""#) }, "\(heardByAlice)")
    }

    /// How many connections, subscriptions and saved choices other users
    /// have is theirs: a user's status counts its own, and only root (or
    /// lprojd's own user) sees the totals. So are the misses other users'
    /// lookups met, and how many of theirs were dropped.
    @Test func aUserSeesOnlyItsOwnCountsInStatusAndMisses() async throws {
        let daemon = try await DaemonProcess()
        let users = try Users(daemon)
        let alicesEvents = try await users.listen(Self.alice, seconds: 4)
        let alice = try await users.call(
            Self.alice,
            Self.call("SelectLocale", #"{"client":"alice.one","bundle":"demo","locale":"de"}"#),
            Self.call("SelectLocale", #"{"client":"alice.two","bundle":"demo","locale":"fr"}"#),
            Self.call("Lookup", #"{"client":"alice.one","bundle":"demo","key":"alice.missing.key","locale":"de"}"#))
        #expect(alice.allSatisfy { !$0.contains("\"error\"") }, "\(alice)")

        let bob = try await users.call(Self.bob, Self.call("GetStatus", "{}"), Self.call("GetMisses", "{}"))
        #expect(bob[0].contains(#""selections":0"#) && bob[0].contains(#""subscribers":0"#), "\(bob[0])")
        #expect(bob[0].contains(#""connections":1"#), "\(bob[0])")
        #expect(!bob[0].contains("\"uid\":\(Self.alice)"), "\(bob[0])")
        #expect(!bob[1].contains("alice.missing.key") && bob[1].contains(#""dropped":0"#), "\(bob[1])")

        let everyone = try await daemon.call("GetStatus")
        #expect(everyone["selections"] == .number(2) && everyone["subscribers"] == .number(1), "\(everyone)")
        _ = try await alicesEvents.finish()
    }

    @Test func oneUserExhaustingItsBudgetsChangesNothingForAnother() async throws {
        let daemon = try await DaemonProcess(
            configuration: """
                bundles: [{name: demo, directory: $BUNDLE}]
                limits: {max-saved-state-bytes-per-uid: 16 KiB, max-added-string-bytes-per-uid: 256 KiB}
                """)
        let users = try Users(daemon)
        // Alice spends every budget she has: saved rows, added strings,
        // unfinished input, connections.
        for attack in ["saved-rows", "added-strings", "unfinished-messages", "log-flood"] {
            let finished = try await run(
                "setpriv",
                [
                    "--reuid=\(Self.alice)", "--regid=\(Self.alice)", "--clear-groups", users.tool, "attack", attack, "--socket",
                    daemon.socket, "--seconds", "60", "--until-limit", "--scale", "0.5",
                ])
            #expect(finished.status == 0, "\(attack): \(finished.errors)")
            #expect(finished.output.contains("PerUID"), "\(attack) reached no per-uid limit: \(finished.output)")
        }
        // Bob does all of it as if she did not exist.
        let bob = try await users.call(
            Self.bob,
            Self.call("SelectLocale", #"{"client":"bob.app","bundle":"demo","locale":"ja"}"#),
            Self.call("SetPreferences", #"{"client":"bob.app","bundle":"demo","preferences":{"timeZone":"Asia/Tokyo"}}"#),
            Self.call("AddStrings", #"{"client":"bob.app","bundle":"demo","locale":"ja","strings":{"bob":"ボブ"}}"#),
            Self.call("Lookup", #"{"client":"bob.app","bundle":"demo","key":"bob"}"#))
        #expect(bob.allSatisfy { !$0.contains("\"error\"") }, "\(bob)")
        #expect(bob[3].contains("ボブ"), "\(bob[3])")
    }
}

/// A process whose output lines a test waits for as they come.
final class Listener: @unchecked Sendable {
    private let process = Process()
    private let lines = LogBuffer()
    private let arrivals: AsyncStream<Void>
    private let done = AsyncStream<Void>.makeStream()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        let (arrivals, arrived) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.arrivals = arrivals
        let lines = self.lines, done = self.done.continuation
        let reading = pipe.fileHandleForReading
        let reader = Thread {
            while true {
                let data = reading.availableData
                if data.isEmpty { break }
                lines.append(String(decoding: data, as: UTF8.self))
                arrived.yield()
            }
            arrived.finish()
            done.finish()
        }
        try process.run()
        reader.start()
    }

    /// Waits (10 s at most) for a line matching `predicate`.
    func wait(for predicate: @escaping @Sendable (String) -> Bool) async throws {
        let lines = self.lines, arrivals = self.arrivals
        try await withTimeout(seconds: 10, "never printed the line awaited: \(lines.text)") {
            if lines.text.split(separator: "\n").contains(where: { predicate(String($0)) }) { return }
            for await _ in arrivals where lines.text.split(separator: "\n").contains(where: { predicate(String($0)) }) { return }
            throw DaemonError(description: "the listener ended: \(lines.text)")
        }
    }

    /// Waits for the process to end; returns every line it printed.
    func finish() async throws -> [String] {
        let stream = done.stream
        try await withTimeout(seconds: 30, "the listener did not end") { for await _ in stream {} }
        let process = self.process
        try await offload { process.waitUntilExit() }
        return lines.text.split(separator: "\n").map(String.init)
    }
}
