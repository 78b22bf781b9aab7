package import ClientBudget
package import Logging
internal import LprojInterface
package import LprojService
import ServiceLifecycle
internal import Synchronization
package import VarlinkProtocol

/// Registers subscriptions' streams: what the Varlink interface needs of
/// the delivery.
package protocol EventSubscriptions: Sendable {
    /// Sends `ready` on the stream, then every event published after it
    /// that concerns the subscriber; the stream leaves when it ends.
    func add(_ stream: any VarlinkStream, uid: UInt32, client: String?, bundle: String?, ready: ServiceEvent)
}

/// Delivers events to subscribers: a service of its own in the daemon's
/// service group, and the one concurrency domain events go through.
///
/// Publishing, subscribing, a stream's end and a delivery written all post
/// a message to one inbox and return at once, from whatever thread they
/// are on (a client's event loop, the watcher). One task takes the
/// messages and runs the ``EventSchedule``, which decides what goes to whom
/// and when; the times it waits for are slept on the injected clock, so
/// tests drive it with a manual one. The inbox (``FairInbox``) keeps each
/// uid's messages in a lane of its own and takes them in rotation: one
/// user's clients, however many messages they cause, delay another user's
/// events by one message at most, and the events everyone sees (reloads)
/// have a lane of their own. Because a subscriber's `ready` is sent by that
/// task when it takes the subscription, and events only by that task after,
/// no event can reach a subscriber before its `ready`; and because an event
/// everyone sees may be taken before a subscription posted earlier, the
/// last of them are kept (``RecentEvents``) and those newer than the
/// subscriber's `ready` are offered to it as it joins, so none is lost.
///
/// Each event is encoded once for the subscribers that take it as it is; a
/// stream that cannot keep up drops itself (see `VarlinkStream`), so a slow
/// subscriber never delays the others.
package final class EventDelivery<C: Clock>: Service, EventSink, EventSubscriptions where C.Duration == Duration {
    private enum Message: Sendable {
        case publish(ServiceEvent)
        case add(
            EventSchedule<C.Instant>.SubscriberID, any VarlinkStream, uid: UInt32, client: String?, bundle: String?, ready: ServiceEvent)
        case remove(EventSchedule<C.Instant>.SubscriberID)
        case written(EventSchedule<C.Instant>.SubscriberID)
        case timer
        case barrier(CheckedContinuation<Void, Never>)
    }

    private let clock: C
    private let logger: Logger
    private let book: BudgetBook?
    private let inbox = FairInbox<Message>()
    /// Subscribers per uid, counted as they subscribe and as their streams
    /// end (for the status; the schedule's own count lags by a message).
    private let registry = Mutex<(nextID: UInt64, perUID: [UInt32: Int])>((1, [:]))
    /// "Dropped a subscriber" is logged at most this often per uid: a
    /// client may open and abandon subscribers as fast as it likes.
    private let dropLogLimit = PerUIDRateLimit(burst: 20, perSecond: 2)
    /// The most subjects (clients, tables, files) whose events may wait
    /// for one subscriber before it is dropped as too far behind.
    package let maximumPendingEvents: Int
    /// The least time between two deliveries of one user's events, and
    /// between two deliveries to one subscriber.
    package let tick: Duration
    /// How long a delivery may wait for its subscriber to take it before the
    /// subscriber is dropped.
    package let maximumStall: Duration

    /// Events waiting for a subscriber are charged to its uid in `book`.
    package init(
        clock: C, tick: Duration = .milliseconds(10), maximumStall: Duration = .seconds(5), maximumPendingEvents: Int = 256,
        book: BudgetBook? = nil, logger: Logger
    ) {
        self.clock = clock
        self.tick = tick
        self.maximumStall = maximumStall
        self.maximumPendingEvents = maximumPendingEvents
        self.book = book
        self.logger = logger
    }

    // MARK: From any thread

    package func publish(_ event: ServiceEvent) {
        switch event.audience {
        case .everyone: inbox.post(.publish(event), lane: .everyone)
        case .owner(let owner): inbox.post(.publish(event), lane: .uid(owner.uid))
        }
    }

    package func add(_ stream: any VarlinkStream, uid: UInt32, client: String?, bundle: String?, ready: ServiceEvent) {
        let id = registry.withLock { registry in
            defer { registry.nextID += 1 }
            registry.perUID[uid, default: 0] += 1
            return registry.nextID
        }
        inbox.post(.add(id, stream, uid: uid, client: client, bundle: bundle, ready: ready), lane: .uid(uid))
        // After `add`, so that a stream that has ended already leaves after it joined.
        stream.onTermination { [weak self] end in
            guard let self else { return }
            registry.withLock { registry in
                registry.perUID[uid, default: 1] -= 1
                if registry.perUID[uid] == 0 { registry.perUID[uid] = nil }
            }
            inbox.post(.remove(id), lane: .uid(uid))
            if end == .tooSlow { logDrop(uid: uid, client: client) }
        }
    }

    package var subscriberCount: Int { registry.withLock { $0.perUID.values.reduce(0, +) } }

    package func subscriberCount(uid: UInt32) -> Int { registry.withLock { $0.perUID[uid] ?? 0 } }

    /// Returns once every message posted before it has been taken: for
    /// tests, which then see what was sent without waiting on time.
    package func settled() async {
        await withCheckedContinuation { inbox.post(.barrier($0), lane: .ordered) }
    }

    // MARK: The delivery task

    package func run() async throws {
        var schedule = EventSchedule<C.Instant>(
            tick: tick, maximumStall: maximumStall, maximumPendingEvents: maximumPendingEvents, book: book)
        var streams: [EventSchedule<C.Instant>.SubscriberID: Subscription] = [:]
        var recent = RecentEvents()
        /// The time the one timer task sleeps until, if any.
        var timerSetFor: C.Instant?
        let inbox = self.inbox
        await withDiscardingTaskGroup { timers in
            await withTaskCancellationOrGracefulShutdownHandler {
                while let message = await inbox.next() {
                    let now = clock.now
                    var actions: [EventSchedule<C.Instant>.Action] = []
                    // What is due goes first, whether or not its timer has
                    // woken the loop yet: what a message sees follows the clock.
                    if let set = timerSetFor, set <= now {
                        timerSetFor = nil
                        actions = schedule.advance(to: now)
                    }
                    switch message {
                    case .publish(let event):
                        if case .everyone = event.audience { recent.append(event) }
                        actions += schedule.publish(event, now: now)
                    case .add(let id, let stream, let uid, let client, let bundle, let ready):
                        let generation = ready.generation ?? 0
                        guard let missed = recent.events(after: generation) else {
                            // More happened meanwhile than is kept: start again.
                            stream.abandon()
                            continue
                        }
                        stream.yield(ready.message)
                        streams[id] = Subscription(stream: stream, uid: uid)
                        schedule.add(id, uid: uid, client: client, bundle: bundle, generation: generation, now: now)
                        actions += schedule.replay(missed, to: id, now: now)
                    case .remove(let id):
                        streams[id] = nil
                        schedule.remove(id)
                    case .written(let id):
                        actions += schedule.written(id, now: now)
                    case .timer:
                        break  // only wakes the loop
                    case .barrier(let continuation):
                        perform(actions, streams: streams)
                        actions = []
                        continuation.resume()
                    }
                    perform(actions, streams: streams)
                    // One timer, for the earliest deadline; a later one it
                    // replaces still wakes the loop once, harmlessly.
                    if let next = schedule.nextDeadline, timerSetFor.map({ next < $0 }) ?? true {
                        timerSetFor = next
                        timers.addTask { [clock] in
                            guard (try? await clock.sleep(until: next, tolerance: nil)) != nil else { return }
                            inbox.wake(with: .timer)
                        }
                    }
                }
            } onCancelOrGracefulShutdown: {
                // What was posted before is still taken; then the loop ends.
                inbox.finish()
            }
            // Stopping: what waits goes now, before the server's last replies.
            perform(schedule.flushAll(now: clock.now), streams: streams)
            timers.cancelAll()
        }
    }

    /// A subscriber's stream, and whose it is.
    private struct Subscription {
        let stream: any VarlinkStream
        let uid: UInt32
    }

    private func perform(_ actions: [EventSchedule<C.Instant>.Action], streams: [EventSchedule<C.Instant>.SubscriberID: Subscription]) {
        // An event sent to many subscribers is encoded once.
        var lastEncoded: (event: ServiceEvent, message: VarlinkEncodedMessage)?
        func encoded(_ event: ServiceEvent) -> VarlinkEncodedMessage {
            if let lastEncoded, lastEncoded.event == event { return lastEncoded.message }
            let message = event.message
            lastEncoded = (event, message)
            return message
        }
        let inbox = self.inbox
        for action in actions {
            switch action {
            case .send(let id, let events):
                guard let subscription = streams[id] else { continue }
                let stream = subscription.stream, uid = subscription.uid
                for event in events.dropLast() { stream.yield(encoded(event)) }
                if let last = events.last { stream.yield(encoded(last), whenWritten: { inbox.post(.written(id), lane: .uid(uid)) }) }
            case .drop(let id):
                streams[id]?.stream.abandon()
            }
        }
    }

    private func logDrop(uid: UInt32, client: String?) {
        let (allowed, suppressed) = dropLogLimit.allow(uid)
        guard allowed else { return }
        var metadata: Logger.Metadata = ["client.uid": "\(uid)", "client.id": "\(client ?? "-")"]
        if suppressed > 0 { metadata["suppressed"] = "\(suppressed)" }
        logger.notice("dropped a subscriber that stopped reading", metadata: metadata)
    }
}

extension ServiceEvent {
    /// The event as a `Subscribe` reply, encoded.
    var message: VarlinkEncodedMessage {
        VarlinkEncodedMessage(continuing: Localization.Subscribe.Reply(event: interfaceEvent).varlinkObject)
    }
}

/// The last events everyone sees, as the delivery took them: what a
/// subscription taken later, but made earlier, is owed.
struct RecentEvents {
    /// How many are kept.
    static let capacity = 1024
    private var events: [ServiceEvent] = []
    /// The newest generation dropped to keep within the capacity.
    private var dropped = 0

    mutating func append(_ event: ServiceEvent) {
        if events.count == Self.capacity {
            dropped = max(dropped, events.removeFirst().generation ?? 0)
        }
        events.append(event)
    }

    /// Those newer than `generation`; nil when some of them were dropped.
    func events(after generation: Int) -> [ServiceEvent]? {
        guard dropped <= generation else { return nil }
        return events.filter { ($0.generation ?? 0) > generation }
    }
}
