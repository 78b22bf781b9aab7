import ClientBudget
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

/// A subscriber that never reads: nothing it is sent is ever written.
final class StalledStream: VarlinkStream {
    let caller: VarlinkCaller
    let sent = Mutex(0)
    let termination = Mutex<(@Sendable (VarlinkStreamEnd) -> Void)?>(nil)
    let abandoned = Mutex(false)
    init(uid: UInt32) { caller = VarlinkCaller(uid: uid, gid: uid, pid: 1, connectionID: UInt64(uid)) }
    func yield(_ parameters: JSONObject) -> Bool { yield(VarlinkEncodedMessage(continuing: parameters)) }
    func yield(_ message: VarlinkEncodedMessage) -> Bool {
        sent.withLock { $0 += 1 }
        return true
    }
    func yield(_ message: VarlinkEncodedMessage, whenWritten written: @escaping @Sendable () -> Void) -> Bool { yield(message) }
    func finish(_ reply: VarlinkReply) {}
    func abandon() {
        let first = abandoned.withLock { abandoned in
            defer { abandoned = true }
            return !abandoned
        }
        guard first else { return }
        termination.withLock { $0 }?(.tooSlow)
    }
    func onTermination(_ handler: @escaping @Sendable (VarlinkStreamEnd) -> Void) { termination.withLock { $0 = handler } }
    var wasAbandoned: Bool { abandoned.withLock { $0 } }
}

/// Log lines, kept.
final class RecordingLog: LogHandler, @unchecked Sendable {
    let lines = Mutex<[String]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { lines.withLock { $0.append("\(event.message)") } }
}

@Suite struct SubscriptionHubTests {
    /// A uid's subscriber that never reads, and events of a new client id
    /// each time (which merge with nothing): what waits is charged to the
    /// uid, and past a limit the subscriber is dropped and its charge
    /// released. Before, each event was kept for it: 900 MiB.
    @Test func eventsWaitingForASubscriberAreChargedAndBounded() {
        let book = BudgetBook(limits: BudgetLimits())
        let hub = SubscriptionHub(maximumPendingEvents: 64, book: book, logger: Logger(label: "test"))
        let stalled = StalledStream(uid: 1000), other = RecordingStream(uid: 1001)
        hub.add(stalled, uid: 1000, client: nil, bundle: nil)
        hub.add(other, uid: 1001, client: nil, bundle: nil)
        func added(_ index: Int) -> ServiceEvent {
            .addedStringsChanged(owner: ClientKey(uid: 1000, client: "client.\(index)"), bundle: "demo", tables: ["T"], locales: ["de"])
        }
        // The first goes out (and is never taken); the next ones wait.
        hub.publish(added(0))
        hub.deliverPending()
        for index in 1...30 { hub.publish(added(index)) }
        hub.deliverPending()
        #expect(!stalled.wasAbandoned)
        #expect(book.usage(of: 1000)[.output] >= 30 * 192)
        for index in 31...100 { hub.publish(added(index)) }
        hub.deliverPending()
        #expect(stalled.wasAbandoned)
        #expect(book.usage(of: 1000)[.output] == 0)
        #expect(hub.subscriberCount == 1)
        #expect(other.types.isEmpty)
    }

    /// What everyone sees comes from the files, not from a client: a
    /// checkout that breaks 300 tables at once drops no subscriber, and
    /// charges no uid.
    @Test func aBurstOfReloadEventsDropsNoSubscriber() {
        let book = BudgetBook(limits: BudgetLimits())
        let hub = SubscriptionHub(maximumPendingEvents: 64, book: book, logger: Logger(label: "test"))
        let stalled = StalledStream(uid: 1000)
        hub.add(stalled, uid: 1000, client: nil, bundle: nil)
        hub.publish(.tablesChanged(bundle: "demo", tables: ["Localizable"], locales: ["de"], generation: 1))
        hub.deliverPending()
        for index in 0..<300 {
            hub.publish(
                .tableError(bundle: "demo", file: "de.lproj/T\(index).strings", line: 1, column: 1, message: "broken", generation: 2))
        }
        hub.deliverPending()
        #expect(!stalled.wasAbandoned)
        #expect(book.usage(of: 1000)[.output] == 0)
    }

    /// A uid may open and abandon subscribers as fast as it likes: saying
    /// so is limited per uid (20 lines at once, then 2 a second).
    @Test func droppingSubscribersIsLoggedAtALimitedRate() {
        let log = RecordingLog()
        let hub = SubscriptionHub(maximumPendingEvents: 1, logger: Logger(label: "test") { _ in log })
        for _ in 0..<100 {
            let stalled = StalledStream(uid: 1000)
            hub.add(stalled, uid: 1000, client: nil, bundle: nil)
            stalled.abandon()
        }
        let drops = log.lines.withLock { $0 }.filter { $0.contains("dropped a subscriber") }
        #expect(drops.count >= 20 && drops.count <= 22)
    }

    /// A burst of changes merges into one event listing every table and
    /// locale, sorted, with the latest generation; nil (all) absorbs a list.
    @Test func mergedEventsListEverythingTheirBurstChanged() {
        var coalescer = EventCoalescer()
        for index in stride(from: 999, through: 0, by: -1) {
            coalescer.add(.tablesChanged(bundle: "demo", tables: ["T\(index % 10)"], locales: ["l\(index)"], generation: 1000 - index))
        }
        let owner = ClientKey(uid: 1, client: "app")
        coalescer.add(.addedStringsChanged(owner: owner, bundle: "demo", tables: ["B"], locales: ["de"]))
        coalescer.add(.addedStringsChanged(owner: owner, bundle: "demo", tables: ["A"], locales: nil))
        let events = coalescer.drain()
        #expect(events.count == 2)
        guard case .tablesChanged(_, let tables, let locales, let generation) = events[0] else {
            Issue.record("a tables event")
            return
        }
        #expect(tables == (0..<10).map { "T\($0)" } && locales.count == 1000 && locales == locales.sorted() && generation == 1000)
        #expect(events[1] == .addedStringsChanged(owner: owner, bundle: "demo", tables: ["A", "B"], locales: nil))
        #expect(coalescer.drain().isEmpty)
    }

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
