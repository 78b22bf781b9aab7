import Foundation
import LprojClient
import LprojInterface
import LprojTestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// What a misbehaving client can do, and that it never hurts the daemon or
/// other clients.
@Suite(.serialized) struct ProtocolIntegrationTests {
    @Test func oversizedMessagesAreRefusedAndTheDaemonGoesOn() async throws {
        let daemon = try await DaemonProcess()
        let raw = try RawClient(path: daemon.socket, timeout: 20)
        let huge =
            Array("{\"method\":\"org.lprojd.Localization.Lookup\",\"parameters\":{\"bundle\":\"demo\",\"key\":\"".utf8)
            + [UInt8](repeating: UInt8(ascii: "x"), count: (16 << 20) + 10)
        try? raw.sendBytes(huge)  // the daemon may close before all of it is written
        let reply = try #require(try await raw.receiveJSON())
        #expect(reply["error"] as? String == "org.lprojd.Localization.LimitExceeded")
        #expect((reply["parameters"] as? [String: Any])?["limit"] as? String == "messageSize")
        #expect(try await raw.receive() == nil)
        let lprojd = try await daemon.client()
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de").found)
        await lprojd.close()
    }

    @Test func malformedCallsGetVarlinkErrors() async throws {
        let daemon = try await DaemonProcess()
        let raw = try RawClient(path: daemon.socket)
        try raw.send("this is not json")
        #expect(try await raw.receiveJSON()?["error"] as? String == "org.varlink.service.InvalidParameter")
        try raw.send(#"{"method":"org.lprojd.Nope.Lookup"}"#)
        #expect(try await raw.receiveJSON()?["error"] as? String == "org.varlink.service.InterfaceNotFound")
        try raw.send(#"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo"}}"#)
        let missing = try await raw.receiveJSON()
        #expect(missing?["error"] as? String == "org.varlink.service.InvalidParameter")
        #expect((missing?["parameters"] as? [String: Any])?["parameter"] as? String == "key")
        try raw.sendBytes([0xFF, 0xFE, 0x00])
        #expect(try await raw.receiveJSON()?["error"] as? String == "org.varlink.service.InvalidParameter")
        // The connection still works.
        try raw.send(#"{"method":"org.varlink.service.GetInfo"}"#)
        #expect((try await raw.receiveJSON()?["parameters"] as? [String: Any])?["product"] as? String == "lprojd")
    }

    @Test func pipelinedCallsAreAnsweredInOrder() async throws {
        let daemon = try await DaemonProcess()
        let raw = try RawClient(path: daemon.socket)
        let keys = ["welcome.title", "settings.title", "greeting", "nope"]
        var batch: [UInt8] = []
        for index in 0..<200 {
            let method = index == 50 ? "SelectLocale" : "Lookup"
            let parameters =
                index == 50
                ? #"{"client":"p","bundle":"demo","locale":"ja"}"# : #"{"bundle":"demo","key":"\#(keys[index % 4])","client":"p"}"#
            batch += Array(#"{"method":"org.lprojd.Localization.\#(method)","parameters":\#(parameters)}"#.utf8) + [0]
        }
        try raw.sendBytes(batch)
        for index in 0..<200 {
            let reply = try #require(try await raw.receiveJSON())
            let parameters = reply["parameters"] as? [String: Any]
            if index == 50 {
                #expect((parameters?["selection"] as? [String: Any])?["locale"] as? String == "ja")
            } else if index % 4 == 3 {
                #expect(parameters?["found"] as? Bool == false)
            } else {
                // Calls after the selection see it; those before do not.
                let locale = parameters?["locale"] as? String
                if index > 50 && index % 4 != 2 { #expect(locale == "ja", "call \(index)") }
                if index < 50 && index % 4 != 2 { #expect(locale == "en", "call \(index)") }
            }
        }
    }

    @Test func aSubscriberThatStopsReadingIsDropped() async throws {
        let daemon = try await DaemonProcess(
            configuration: """
                bundles:
                  - name: demo
                    directory: $BUNDLE
                limits:
                  max-subscriber-queue: 65536
                  max-added-strings: 100000
                """)
        let stalled = try RawClient(path: daemon.socket, timeout: 20)
        try stalled.send(#"{"method":"org.lprojd.Localization.Subscribe","parameters":{"client":"flood"},"more":true}"#)
        // Read the ready reply, then never read again.
        #expect(try await stalled.receive()?.contains("\"ready\"") == true)
        let lprojd = try await daemon.client()
        #expect(try await lprojd.status().subscribers == 1)
        defer { Task { await lprojd.close() } }
        try await withTimeout(seconds: 60, "the subscriber was never dropped") {
            var index = 0
            while try await lprojd.status().subscribers > 0 {
                for _ in 0..<500 {
                    // Past its rate of changes the uid is refused (which
                    // changes nothing for its stalled subscriber).
                    do {
                        _ = try await lprojd.addStrings(["k\(index)": "v"], client: "flood", bundle: "demo", locale: "de")
                    } catch let refusal as LprojError where refusal.name.hasSuffix(".LimitExceeded") {}
                    index += 1
                }
            }
        }
        #expect(daemon.output.contains("dropped a subscriber that stopped reading"))
        // Everyone else is served as before.
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de").found)
        withExtendedLifetime(stalled) {}
    }

    @Test func connectionsPerUserAreLimited() async throws {
        let daemon = try await DaemonProcess(
            configuration: """
                bundles:
                  - name: demo
                    directory: $BUNDLE
                limits:
                  max-connections-per-uid: 3
                """)
        var clients: [RawClient] = []
        for _ in 0..<3 {
            let client = try RawClient(path: daemon.socket)
            try client.send(#"{"method":"org.varlink.service.GetInfo"}"#)
            _ = try await client.receive()
            clients.append(client)
        }
        let refused = try RawClient(path: daemon.socket)
        let reply = try await refused.receiveJSON()
        #expect(reply?["error"] as? String == "org.lprojd.Localization.LimitExceeded")
        #expect((reply?["parameters"] as? [String: Any])?["limit"] as? String == "connectionsPerUID")
        #expect(try await refused.receive() == nil)
        clients.removeAll()
        // Once they are gone, new connections are welcome again.
        try await withTimeout(seconds: 10, "connections were not released") {
            while true {
                let client = try RawClient(path: daemon.socket)
                try client.send(#"{"method":"org.varlink.service.GetInfo"}"#)
                if try await client.receiveJSON()?["error"] == nil { return }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    @Test func aSecondDaemonOnALiveSocketRefusesToStart() async throws {
        let daemon = try await DaemonProcess()
        let (status, output) = try await runLprojd(
            [
                "--socket", daemon.socket, "--state-directory", daemon.directory.appendingPathComponent("other").path, "--bundle",
                "demo=\(daemon.bundleDirectory.path)",
            ], environment: [:])
        #expect(status != 0)
        #expect(output.contains("another server is already answering on \(daemon.socket)"))
        // The first daemon is unharmed.
        let lprojd = try await daemon.client()
        #expect(try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de").found)
        await lprojd.close()
    }

    @Test func badConfigurationIsOneClearLine() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lprojd-conf-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("lprojd.conf")
        try Data("bundles:\n  - name: x\n    directory: /x\n    devlopment-locale: en\n".utf8).write(to: config)
        let (status, output) = try await runLprojd(
            ["--config", config.path, "--socket", directory.appendingPathComponent("s").path, "--state-directory", directory.path],
            environment: [:])
        #expect(status == 2)
        #expect(output == "lprojd: \(config.path):4:5: bundles[0].devlopment-locale: unknown setting 'devlopment-locale'\n")
    }
}
