import Logging
import LprojInterface
import LprojService
import LprojStore
import Synchronization
import Testing
import VarlinkProtocol
@testable import LprojVarlink

/// A stream that records what it is sent.
final class RecordingStream: VarlinkStream {
    let caller: VarlinkCaller
    let sent = Mutex<[[UInt8]]>([])
    init(uid: UInt32) { caller = VarlinkCaller(uid: uid, gid: uid, pid: 1, connectionID: UInt64(uid)) }
    func yield(_ parameters: JSONObject) -> Bool { yield(VarlinkEncodedMessage(continuing: parameters)) }
    func yield(_ message: VarlinkEncodedMessage) -> Bool {
        sent.withLock { $0.append(message.bytes) }
        return true
    }
    func yield(_ message: VarlinkEncodedMessage, whenWritten written: @escaping @Sendable () -> Void) -> Bool {
        defer { written() }
        return yield(message)
    }
    func finish(_ reply: VarlinkReply) {}
    func abandon() {}
    func onTermination(_ handler: @escaping @Sendable (VarlinkStreamEnd) -> Void) {}

    /// The events sent, read back as the interface's type.
    var events: [Localization.Event] {
        sent.withLock { $0 }.compactMap { bytes in
            guard case .object(let reply)? = try? JSONParser.parse(Array(bytes.dropLast())),
                case .object(let parameters)? = reply["parameters"]
            else { return nil }
            return try? Localization.Subscribe.Reply(varlink: parameters, unknownFields: .reject).event
        }
    }

    var types: [Localization.Event.Kind] { events.map(\.type) }
}

@Suite struct SubscriptionHubTests {
    @Test func clientEventsReachOnlyTheirUser() {
        let hub = SubscriptionHub(logger: Logger(label: "test"))
        let alice = RecordingStream(uid: 1000), bob = RecordingStream(uid: 1001), aliceOther = RecordingStream(uid: 1000)
        hub.add(alice, uid: 1000, client: "app", bundle: nil)
        hub.add(bob, uid: 1001, client: nil, bundle: nil)
        hub.add(aliceOther, uid: 1000, client: "other.app", bundle: "demo")
        hub.publish(.localeChanged(owner: ClientKey(uid: 1000, client: "app"), bundle: "demo", locale: "de", previous: "en"))
        hub.deliverPending()
        #expect(alice.types == [.localeChanged])
        #expect(bob.types.isEmpty)  // another user
        #expect(aliceOther.types.isEmpty)  // another client of the same user
        hub.publish(.tablesChanged(bundle: "other", tables: ["Localizable"], locales: ["de"], generation: 2))
        hub.deliverPending()
        #expect(alice.types == [.localeChanged, .tablesChanged] && bob.types == [.tablesChanged])
        #expect(aliceOther.types.isEmpty)  // filtered to bundle "demo"
    }

    /// What a subscriber reads is the interface's `Event`, written by the
    /// one encoder, and strict decoding accepts it.
    @Test func eventsAreWrittenAsTheInterfaceDeclaresThem() {
        let hub = SubscriptionHub(logger: Logger(label: "test"))
        let stream = RecordingStream(uid: 7)
        hub.add(stream, uid: 7, client: nil, bundle: nil)
        hub.publish(
            .tableError(bundle: "demo", file: "de.lproj/Localizable.strings", line: 3, column: 9, message: "expected ';'", generation: 4))
        hub.deliverPending()
        #expect(
            stream.events == [
                Localization.Event(
                    type: .tableError, bundle: "demo", generation: 4, file: "de.lproj/Localizable.strings", line: 3, column: 9,
                    message: "expected ';'")
            ])
    }
}
