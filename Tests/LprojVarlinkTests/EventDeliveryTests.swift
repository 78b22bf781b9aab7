import ClientBudget
import Logging
import LprojInterface
import LprojService
import LprojStore
import LprojTestSupport
import Synchronization
import Testing
import VarlinkProtocol
@testable import LprojVarlink

/// A stream that records what it is sent, and takes each delivery at once
/// (or, with `reads: false`, never: a subscriber that stopped reading).
final class RecordingStream: VarlinkStream {
    let caller: VarlinkCaller
    private let reads: Bool
    private let state = Mutex<(sent: [[UInt8]], waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)])>(([], []))
    let termination = Mutex<(@Sendable (VarlinkStreamEnd) -> Void)?>(nil)
    let abandoned = Mutex(false)
    /// Runs when the stream is registered for its end (the moment, in the
    /// hub before, between a subscriber joining and its `ready`).
    let onRegistered: (@Sendable () -> Void)?

    init(uid: UInt32, reads: Bool = true, onRegistered: (@Sendable () -> Void)? = nil) {
        caller = VarlinkCaller(uid: uid, gid: uid, pid: 1, connectionID: UInt64(uid))
        self.reads = reads
        self.onRegistered = onRegistered
    }

    func yield(_ parameters: JSONObject) -> Bool { yield(VarlinkEncodedMessage(continuing: parameters)) }
    func yield(_ message: VarlinkEncodedMessage) -> Bool {
        let woken = state.withLock { state in
            state.sent.append(message.bytes)
            let count = state.sent.count
            let woken = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return woken
        }
        for continuation in woken { continuation.resume() }
        return true
    }
    func yield(_ message: VarlinkEncodedMessage, whenWritten written: @escaping @Sendable () -> Void) -> Bool {
        defer { if reads { written() } }
        return yield(message)
    }
    func finish(_ reply: VarlinkReply) {}
    func abandon() {
        let first = abandoned.withLock { abandoned in
            defer { abandoned = true }
            return !abandoned
        }
        guard first else { return }
        termination.withLock { $0 }?(.tooSlow)
    }
    func onTermination(_ handler: @escaping @Sendable (VarlinkStreamEnd) -> Void) {
        termination.withLock { $0 = handler }
        onRegistered?()
    }

    var wasAbandoned: Bool { abandoned.withLock { $0 } }
    var count: Int { state.withLock { $0.sent.count } }

    /// Returns once `count` messages have been sent (or fails the test
    /// after a few seconds).
    func waitFor(_ count: Int) async throws {
        try await withTimeout(seconds: 5, "\(count) messages; got \(self.count)") {
            await withCheckedContinuation { continuation in
                let now = self.state.withLock { state in
                    guard state.sent.count < count else { return true }
                    state.waiters.append((count, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// The events sent (with `ready`), read back as the interface's type.
    var events: [Localization.Event] {
        state.withLock { $0.sent }.compactMap { bytes in
            guard case .object(let reply)? = try? JSONParser.parse(Array(bytes.dropLast())),
                case .object(let parameters)? = reply["parameters"]
            else { return nil }
            return try? Localization.Subscribe.Reply(varlink: parameters, unknownFields: .reject).event
        }
    }

    var types: [Localization.Event.Kind] { events.map(\.type) }
}

/// The delivery service, running on a manual clock for the test's body.
func withDelivery(
    maximumPendingEvents: Int = 256, book: BudgetBook? = nil, logger: Logger = Logger(label: "test"),
    _ body: (EventDelivery<ManualClock>, ManualClock) async throws -> Void
) async throws {
    let clock = ManualClock()
    let delivery = EventDelivery(clock: clock, maximumPendingEvents: maximumPendingEvents, book: book, logger: logger)
    let running = Task { try await delivery.run() }
    defer { running.cancel() }
    try await body(delivery, clock)
}

let ready = ServiceEvent.ready(generation: 1, client: nil, bundle: nil)

@Suite struct EventDeliveryTests {
    /// A subscriber's `ready` comes before any event, whenever events are
    /// published. The hub before added the subscriber, then sent `ready`,
    /// while its own queue delivered: an event published and delivered at
    /// that moment (here, when the stream is registered) came first. This
    /// test, written against that hub (its `deliverPending()` in the hook),
    /// got the `tablesChanged` first.
    @Test func readyComesBeforeAnyEvent() async throws {
        try await withDelivery { delivery, _ in
            let reloaded = ServiceEvent.tablesChanged(bundle: "demo", tables: ["Localizable"], locales: ["de"], generation: 2)
            let stream = RecordingStream(uid: 1000, onRegistered: { delivery.publish(reloaded) })
            delivery.add(stream, uid: 1000, client: nil, bundle: nil, ready: ready)
            delivery.publish(reloaded)
            try await stream.waitFor(2)
            await delivery.settled()
            #expect(stream.types.first == .ready)
            #expect(stream.types.dropFirst().allSatisfy { $0 == .tablesChanged })

            // Many subscribers joining while events are published from
            // other threads: each hears `ready` first.
            let streams = (0..<64).map { RecordingStream(uid: 1000 + UInt32($0)) }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for _ in 0..<200 { delivery.publish(reloaded) } }
                for stream in streams {
                    group.addTask { delivery.add(stream, uid: stream.caller.uid, client: nil, bundle: nil, ready: ready) }
                }
            }
            await delivery.settled()
            for stream in streams { #expect(stream.types.first == .ready) }
        }
    }

    /// A user's events go at most once per tick, merged, and the wait is
    /// slept on the clock given: nothing goes until it moves.
    @Test func aUsersEventsWaitForTheTickOnTheClock() async throws {
        try await withDelivery { delivery, clock in
            let stream = RecordingStream(uid: 1000)
            delivery.add(stream, uid: 1000, client: nil, bundle: nil, ready: ready)
            let owner = ClientKey(uid: 1000, client: "app")
            delivery.publish(.localeChanged(owner: owner, bundle: "demo", locale: "de", previous: "en"))
            try await stream.waitFor(2)
            delivery.publish(.localeChanged(owner: owner, bundle: "demo", locale: "fr", previous: "de"))
            delivery.publish(.localeChanged(owner: owner, bundle: "demo", locale: "ja", previous: "fr"))
            await delivery.settled()
            #expect(stream.count == 2)
            await clock.sleepers(atLeast: 1)
            #expect(clock.sleepingUntil == [clock.now.advanced(by: delivery.tick)])
            clock.advance(by: delivery.tick - .nanoseconds(1))
            await delivery.settled()
            #expect(stream.count == 2)
            clock.advance(by: .nanoseconds(1))
            await delivery.settled()
            #expect(stream.events.map(\.locale) == [nil, "de", "ja"])
            #expect(stream.events.last?.previousLocale == "de")
        }
    }

    /// A uid's subscriber that never reads, and events of a new client id
    /// each time (which merge with nothing): what waits is charged to the
    /// uid, and past a limit the subscriber is dropped and its charge
    /// released. Before, each event was kept for it: 900 MiB.
    @Test func eventsWaitingForASubscriberAreChargedAndBounded() async throws {
        let book = BudgetBook(limits: BudgetLimits())
        try await withDelivery(maximumPendingEvents: 64, book: book) { delivery, clock in
            let stalled = RecordingStream(uid: 1000, reads: false), other = RecordingStream(uid: 1001)
            delivery.add(stalled, uid: 1000, client: nil, bundle: nil, ready: ready)
            delivery.add(other, uid: 1001, client: nil, bundle: nil, ready: ready)
            func added(_ index: Int) -> ServiceEvent {
                .addedStringsChanged(owner: ClientKey(uid: 1000, client: "client.\(index)"), bundle: "demo", tables: ["T"], locales: ["de"])
            }
            // The first goes out (and is never taken); the next ones wait.
            for index in 0...30 { delivery.publish(added(index)) }
            await delivery.settled()
            clock.advance(by: delivery.tick)
            await delivery.settled()
            #expect(stalled.count == 2)
            #expect(!stalled.wasAbandoned)
            #expect(book.usage(of: 1000)[.output] >= 30 * 192)
            for index in 31...100 { delivery.publish(added(index)) }
            await delivery.settled()
            clock.advance(by: delivery.tick)
            await delivery.settled()
            #expect(stalled.wasAbandoned)
            #expect(book.usage(of: 1000)[.output] == 0)
            #expect(delivery.subscriberCount == 1)
            #expect(other.types == [.ready])
        }
    }

    /// What everyone sees comes from the files, not from a client: a
    /// checkout that breaks 300 tables at once drops no subscriber, and
    /// charges no uid.
    @Test func aBurstOfReloadEventsDropsNoSubscriber() async throws {
        let book = BudgetBook(limits: BudgetLimits())
        try await withDelivery(maximumPendingEvents: 64, book: book) { delivery, _ in
            let stalled = RecordingStream(uid: 1000, reads: false)
            delivery.add(stalled, uid: 1000, client: nil, bundle: nil, ready: ready)
            delivery.publish(.tablesChanged(bundle: "demo", tables: ["Localizable"], locales: ["de"], generation: 1))
            for index in 0..<300 {
                delivery.publish(
                    .tableError(bundle: "demo", file: "de.lproj/T\(index).strings", line: 1, column: 1, message: "broken", generation: 2))
            }
            await delivery.settled()
            #expect(!stalled.wasAbandoned)
            #expect(book.usage(of: 1000)[.output] == 0)
        }
    }

    /// A uid may open and abandon subscribers as fast as it likes: saying
    /// so is limited per uid (20 lines at once, then 2 a second).
    @Test func droppingSubscribersIsLoggedAtALimitedRate() async throws {
        let log = RecordingLog()
        try await withDelivery(maximumPendingEvents: 1, logger: Logger(label: "test") { _ in log }) { delivery, _ in
            for _ in 0..<100 {
                let stalled = RecordingStream(uid: 1000, reads: false)
                delivery.add(stalled, uid: 1000, client: nil, bundle: nil, ready: ready)
                stalled.abandon()
            }
            await delivery.settled()
            #expect(delivery.subscriberCount == 0)
        }
        let drops = log.lines.filter { $0.contains("dropped a subscriber") }
        #expect(drops.count >= 20 && drops.count <= 22)
    }

    @Test func clientEventsReachOnlyTheirUser() async throws {
        try await withDelivery { delivery, clock in
            let alice = RecordingStream(uid: 1000), bob = RecordingStream(uid: 1001), aliceOther = RecordingStream(uid: 1000)
            delivery.add(alice, uid: 1000, client: "app", bundle: nil, ready: ready)
            delivery.add(bob, uid: 1001, client: nil, bundle: nil, ready: ready)
            delivery.add(aliceOther, uid: 1000, client: "other.app", bundle: "demo", ready: ready)
            delivery.publish(.localeChanged(owner: ClientKey(uid: 1000, client: "app"), bundle: "demo", locale: "de", previous: "en"))
            await delivery.settled()
            #expect(alice.types == [.ready, .localeChanged])
            #expect(bob.types == [.ready])  // another user
            #expect(aliceOther.types == [.ready])  // another client of the same user
            delivery.publish(.tablesChanged(bundle: "other", tables: ["Localizable"], locales: ["de"], generation: 2))
            await delivery.settled()
            clock.advance(by: delivery.tick)  // Alice had a delivery this tick
            await delivery.settled()
            #expect(alice.types == [.ready, .localeChanged, .tablesChanged] && bob.types == [.ready, .tablesChanged])
            #expect(aliceOther.types == [.ready])  // filtered to bundle "demo"
        }
    }

    /// What a subscriber reads is the interface's `Event`, written by the
    /// one encoder, and strict decoding accepts it.
    @Test func eventsAreWrittenAsTheInterfaceDeclaresThem() async throws {
        try await withDelivery { delivery, _ in
            let stream = RecordingStream(uid: 7)
            delivery.add(stream, uid: 7, client: nil, bundle: nil, ready: ready)
            delivery.publish(
                .tableError(
                    bundle: "demo", file: "de.lproj/Localizable.strings", line: 3, column: 9, message: "expected ';'", generation: 4))
            await delivery.settled()
            #expect(
                stream.events.last
                    == Localization.Event(
                        type: .tableError, bundle: "demo", generation: 4, file: "de.lproj/Localizable.strings", line: 3, column: 9,
                        message: "expected ';'"))
        }
    }

    /// When lprojd stops, what waits for a subscriber goes out before the
    /// server's last replies, whatever the ticks say.
    @Test func whatWaitsGoesOutWhenDeliveryStops() async throws {
        let clock = ManualClock()
        let delivery = EventDelivery(clock: clock, logger: Logger(label: "test"))
        let running = Task { try await delivery.run() }
        let slow = RecordingStream(uid: 1000, reads: false)
        delivery.add(slow, uid: 1000, client: nil, bundle: nil, ready: ready)
        delivery.publish(.tablesChanged(bundle: "demo", tables: ["A"], locales: ["de"], generation: 2))
        delivery.publish(.tablesChanged(bundle: "demo", tables: ["B"], locales: ["fr"], generation: 3))
        await delivery.settled()
        #expect(slow.count == 2)
        running.cancel()
        try await running.value
        #expect(slow.events.last?.tables == ["B"] && slow.count == 3)
    }
}

/// The schedule alone: given the time, what goes to whom.
@Suite struct EventScheduleTests {
    typealias Instant = ManualClock.Instant
    let t0 = Instant(offset: .seconds(100))
    let tick = Duration.milliseconds(10)

    func schedule(maximumPending: Int = 256, book: BudgetBook? = nil) -> EventSchedule<Instant> {
        EventSchedule(tick: tick, maximumStall: .seconds(5), maximumPendingEvents: maximumPending, book: book)
    }

    @Test func aUsersBurstGoesOncePerTickMerged() {
        var schedule = schedule()
        schedule.add(1, uid: 1000, client: nil, bundle: nil, now: t0)
        let owner = ClientKey(uid: 1000, client: "app")
        let first = ServiceEvent.localeChanged(owner: owner, bundle: "demo", locale: "de", previous: "en")
        #expect(schedule.publish(first, now: t0) == [.send(1, [first])])
        #expect(schedule.written(1, now: t0).isEmpty)
        for (offset, locale, previous) in [(1, "fr", "de"), (2, "ja", "fr"), (3, "ru", "ja")] {
            let event = ServiceEvent.localeChanged(owner: owner, bundle: "demo", locale: locale, previous: previous)
            #expect(schedule.publish(event, now: t0.advanced(by: .milliseconds(offset))).isEmpty)
        }
        #expect(schedule.nextDeadline == t0.advanced(by: tick))
        #expect(schedule.advance(to: t0.advanced(by: tick - .nanoseconds(1))).isEmpty)
        let merged = ServiceEvent.localeChanged(owner: owner, bundle: "demo", locale: "ru", previous: "de")
        #expect(schedule.advance(to: t0.advanced(by: tick)) == [.send(1, [merged])])
        #expect(schedule.nextDeadline == nil)
    }

    /// Reloads go at once, in order; to a subscriber whose delivery is in
    /// flight they wait, merged, until it is written, and then its tick.
    @Test func aSubscriberHasOneDeliveryInFlight() {
        var schedule = schedule()
        schedule.add(1, uid: 1000, client: nil, bundle: nil, now: t0)
        let a = ServiceEvent.tablesChanged(bundle: "demo", tables: ["A"], locales: ["de"], generation: 2)
        let b = ServiceEvent.tablesChanged(bundle: "demo", tables: ["B"], locales: ["fr"], generation: 3)
        #expect(schedule.publish(a, now: t0) == [.send(1, [a])])
        #expect(schedule.publish(b, now: t0.advanced(by: .milliseconds(1))).isEmpty)
        #expect(schedule.advance(to: t0.advanced(by: .seconds(1))).isEmpty)  // still in flight
        let merged = ServiceEvent.tablesChanged(bundle: "demo", tables: ["B"], locales: ["fr"], generation: 3)
        #expect(schedule.written(1, now: t0.advanced(by: .milliseconds(2))).isEmpty)
        #expect(schedule.nextDeadline == t0.advanced(by: tick))
        #expect(schedule.advance(to: t0.advanced(by: tick)) == [.send(1, [merged])])
    }

    /// A delivery not taken for longer than the stall: the subscriber is
    /// dropped at the next event, and leaves the schedule.
    @Test func aSubscriberThatStopsReadingIsDropped() {
        var schedule = schedule()
        schedule.add(1, uid: 1000, client: nil, bundle: nil, now: t0)
        let a = ServiceEvent.tablesChanged(bundle: "demo", tables: ["A"], locales: ["de"], generation: 2)
        #expect(schedule.publish(a, now: t0) == [.send(1, [a])])
        #expect(schedule.publish(a, now: t0.advanced(by: .seconds(5))).isEmpty)
        #expect(schedule.publish(a, now: t0.advanced(by: .seconds(5) + .nanoseconds(1))) == [.drop(1)])
        #expect(schedule.subscriberCount == 0)
    }

    @Test func clientEventsReachOnlyTheirUserAndBundle() {
        var schedule = schedule()
        schedule.add(1, uid: 1000, client: "app", bundle: nil, now: t0)
        schedule.add(2, uid: 1001, client: nil, bundle: nil, now: t0)
        schedule.add(3, uid: 1000, client: "other.app", bundle: "demo", now: t0)
        let changed = ServiceEvent.localeChanged(owner: ClientKey(uid: 1000, client: "app"), bundle: "demo", locale: "de", previous: "en")
        #expect(schedule.publish(changed, now: t0) == [.send(1, [changed])])
        let reloaded = ServiceEvent.tablesChanged(bundle: "other", tables: ["T"], locales: ["de"], generation: 2)
        let sent = schedule.publish(reloaded, now: t0.advanced(by: .seconds(1)))
        #expect(Set(sent.map { if case .send(let id, _) = $0 { id } else { UInt64(0) } }) == [UInt64(2)])  // 1 in flight, 3 filtered
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
}
