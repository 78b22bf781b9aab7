public import ClientBudget
internal import Dispatch
public import Logging
internal import LprojInterface
public import LprojService
internal import Synchronization
public import VarlinkProtocol

/// The subscribers, and delivery of events to them.
///
/// Publishing never delivers: it adds the event to a pending batch and
/// returns, so the call that caused it (on its client's event loop) costs
/// the same whether one subscriber listens or a thousand. Deliveries run on
/// a queue of their own. Events everyone may see (reloads from disk, which
/// only whoever may write the bundles causes) go out at once and as they
/// are. Events that concern one user's clients, which that user causes as
/// often as it likes, go out at most once per ``tick`` per user, and a
/// burst of them merges (``EventCoalescer``): each subscriber gets one
/// event per client and bundle, whatever the burst held.
///
/// Each subscriber gets at most one delivery per ``tick``, and has at most
/// one in flight: events that come sooner merge into its next delivery, so
/// however fast tables change or a user's clients change things, the loops
/// write at most one event per subscriber per tick, and events apart in
/// time still reach a subscriber as they were.
/// Each event is encoded once for the subscribers that take it as it is; a
/// stream that cannot keep up drops itself (see `VarlinkStream`), so a
/// slow subscriber never delays the others.
///
/// What a uid's own clients cause, and waits for that uid's subscriber,
/// is held for the uid: each event of a new subject (a client and bundle)
/// waiting for its next delivery is charged to the uid's output budget
/// until it is sent, and a subscriber whose waiting events pass
/// ``maximumPendingEvents`` such subjects, or its uid's budget, is dropped
/// as one that stopped reading. (A uid that never reads, with events of a
/// new client id each time, once held 900 MiB this way.) Events everyone
/// sees (reloads) are not counted so: they come from the files, whose
/// number the administrator decides, and a checkout that breaks 300 tables
/// must not drop every subscriber of every uid.
public final class SubscriptionHub: EventSink {
    private final class Subscriber: Sendable {
        let uid: UInt32
        let client: String?
        let bundle: String?
        let stream: any VarlinkStream
        private let tick: Duration
        private let maximumStall: Duration
        private let queue: DispatchQueue
        private let book: BudgetBook?
        private let maximumPending: Int
        private let state = Mutex(Queue())

        private struct Queue {
            var inFlight = false
            var inFlightSince = ContinuousClock.Instant.now
            var flushScheduled = false
            var nextSend = ContinuousClock.Instant.now
            var pending = EventCoalescer()
            /// What the pending events are charged to the uid.
            var charged = 0
            /// Subjects of the uid's own events waiting.
            var ownSubjects = 0
            var dropped = false
        }

        init(
            uid: UInt32, client: String?, bundle: String?, stream: any VarlinkStream, tick: Duration, maximumStall: Duration,
            queue: DispatchQueue, book: BudgetBook?, maximumPending: Int
        ) {
            self.uid = uid
            self.client = client
            self.bundle = bundle
            self.stream = stream
            self.tick = tick
            self.maximumStall = maximumStall
            self.queue = queue
            self.book = book
            self.maximumPending = maximumPending
        }

        /// Lets go of what is charged for waiting events (they were sent,
        /// or the subscriber is gone).
        private func release(_ state: inout Queue) {
            if state.charged > 0 { book?.release(state.charged, of: .output, from: uid) }
            state.charged = 0
            state.ownSubjects = 0
        }

        /// The subscriber ended: nothing more waits for it.
        func ended() {
            state.withLock { state in
                state.dropped = true
                _ = state.pending.drain()
                release(&state)
            }
        }

        /// Sends an event now if nothing is in flight and the subscriber's
        /// tick has passed; else merges it into what waits for the next.
        func offer(_ event: ServiceEvent, encoded: () -> VarlinkEncodedMessage) {
            let now = ContinuousClock.now
            // A delivery the client has not taken for this long: it stopped
            // reading, and is dropped.
            if state.withLock({ $0.inFlight && now - $0.inFlightSince > maximumStall }) {
                stream.abandon()
                return
            }
            /// What becomes of an event offered.
            enum Decision {
                case send
                case wait
                case flush(at: ContinuousClock.Instant)
                case tooFarBehind
            }
            let decision: Decision = state.withLock { state in
                guard !state.dropped else { return .wait }
                if state.inFlight || now < state.nextSend {
                    let isNew = state.pending.add(event)
                    if isNew, case .owner = event.audience {
                        state.ownSubjects += 1
                        if state.ownSubjects > maximumPending { return .tooFarBehind }
                        let cost = event.estimatedBytes
                        if book?.charge(cost, of: .output, to: uid) != nil { return .tooFarBehind }
                        state.charged += cost
                    }
                    guard !state.inFlight, !state.flushScheduled else { return .wait }
                    state.flushScheduled = true
                    return .flush(at: state.nextSend)
                }
                state.inFlight = true
                state.inFlightSince = now
                state.nextSend = now + tick
                return .send
            }
            switch decision {
            case .send: stream.yield(encoded(), whenWritten: { self.written() })
            case .wait: break
            case .flush(let instant): scheduleFlush(at: instant)
            case .tooFarBehind:
                ended()
                stream.abandon()
            }
        }

        /// The last delivery is written: what waits goes at the next tick.
        private func written() {
            let flushAt: ContinuousClock.Instant? = state.withLock { state in
                state.inFlight = false
                guard !state.pending.isEmpty, !state.flushScheduled else { return nil }
                state.flushScheduled = true
                return state.nextSend
            }
            if let flushAt { scheduleFlush(at: flushAt) }
        }

        private func scheduleFlush(at instant: ContinuousClock.Instant) {
            let delay = max(.zero, instant - .now)
            let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
            queue.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { self.flush() }
        }

        /// Sends what waited, merged, as one delivery (`now`: whatever the tick).
        func flush(now: Bool = false) {
            let next: [ServiceEvent] = state.withLock { state in
                if !now { state.flushScheduled = false }
                guard !state.inFlight else { return [] }  // written() reschedules
                let next = state.pending.drain()
                release(&state)
                if !next.isEmpty {
                    state.inFlight = true
                    state.inFlightSince = .now
                    state.nextSend = .now + tick
                }
                return next
            }
            for (index, event) in next.enumerated() {
                let message = event.message
                if index == next.count - 1 {
                    stream.yield(message, whenWritten: { self.written() })
                } else {
                    stream.yield(message)
                }
            }
        }
    }

    /// The batches waiting: one for events everyone may see, one per user.
    private enum Lane: Hashable {
        case everyone
        case user(UInt32)
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var pending: [Lane: EventCoalescer] = [:]
        var scheduled: Set<Lane> = []
        var lastDelivery: [UInt32: ContinuousClock.Instant] = [:]
        var nextID: UInt64 = 1
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "lprojd.events")
    private let logger: Logger
    private let book: BudgetBook?
    /// "Dropped a subscriber" is logged at most this often per uid: a
    /// client may open and abandon subscribers as fast as it likes.
    private let dropLogLimit = PerUIDRateLimit(burst: 20, perSecond: 2)
    /// The most subjects (clients, tables, files) whose events may wait
    /// for one subscriber before it is dropped as too far behind.
    public let maximumPendingEvents: Int
    /// The least time between two deliveries of one user's events, and
    /// between two deliveries to one subscriber.
    public let tick: Duration
    /// How long a delivery may wait for its subscriber to take it before the
    /// subscriber is dropped.
    public let maximumStall: Duration

    /// An empty hub; events waiting for a subscriber are charged to its
    /// uid in `book`.
    public init(
        tick: Duration = .milliseconds(10), maximumStall: Duration = .seconds(5), maximumPendingEvents: Int = 256,
        book: BudgetBook? = nil, logger: Logger
    ) {
        self.tick = tick
        self.maximumStall = maximumStall
        self.maximumPendingEvents = maximumPendingEvents
        self.book = book
        self.logger = logger
    }

    /// Registers a stream; it leaves the hub when it ends.
    public func add(_ stream: any VarlinkStream, uid: UInt32, client: String?, bundle: String?) {
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = Subscriber(
                uid: uid, client: client, bundle: bundle, stream: stream, tick: tick, maximumStall: maximumStall, queue: queue,
                book: book, maximumPending: maximumPendingEvents)
            return id
        }
        stream.onTermination { [weak self] end in
            guard let self else { return }
            let subscriber = state.withLock { $0.subscribers.removeValue(forKey: id) }
            subscriber?.ended()
            guard end == .tooSlow else { return }
            let (allowed, suppressed) = dropLogLimit.allow(uid)
            guard allowed else { return }
            var metadata: Logger.Metadata = ["client.uid": "\(uid)", "client.id": "\(client ?? "-")"]
            if suppressed > 0 { metadata["suppressed"] = "\(suppressed)" }
            logger.notice("dropped a subscriber that stopped reading", metadata: metadata)
        }
    }

    /// Current subscribers.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Current subscribers of one uid.
    public func subscriberCount(uid: UInt32) -> Int { state.withLock { $0.subscribers.values.count { $0.uid == uid } } }

    /// Queues an event for every subscriber it concerns, and returns.
    public func publish(_ event: ServiceEvent) {
        let lane: Lane
        switch event.audience {
        case .everyone: lane = .everyone
        case .owner(let owner): lane = .user(owner.uid)
        }
        let delay: Duration? = state.withLock { state in
            state.pending[lane, default: EventCoalescer(merging: lane != .everyone)].add(event)
            guard state.scheduled.insert(lane).inserted else { return nil }
            guard case .user(let uid) = lane, let last = state.lastDelivery[uid] else { return .zero }
            return max(.zero, last + tick - .now)
        }
        guard let delay else { return }
        if delay == .zero {
            queue.async { self.deliver(lane) }
        } else {
            let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
            queue.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { self.deliver(lane) }
        }
    }

    /// Delivers everything pending now, and returns once it is handed to
    /// the streams (for tests, and for a last delivery before stopping).
    public func deliverPending() {
        queue.sync {
            let lanes = state.withLock { Array($0.pending.keys) }
            for lane in lanes { deliver(lane) }
            for subscriber in state.withLock({ Array($0.subscribers.values) }) { subscriber.flush(now: true) }
        }
    }

    private func deliver(_ lane: Lane) {
        let now = ContinuousClock.now
        let (events, subscribers): ([ServiceEvent], [Subscriber]) = state.withLock { state in
            state.scheduled.remove(lane)
            var batch = state.pending.removeValue(forKey: lane) ?? EventCoalescer()
            if case .user(let uid) = lane {
                state.lastDelivery[uid] = now
                // Forget users whose last delivery no longer holds anything back.
                if state.lastDelivery.count > 1024 { state.lastDelivery = state.lastDelivery.filter { now - $0.value < tick } }
            }
            return (batch.drain(), Array(state.subscribers.values))
        }
        for event in events {
            var message: VarlinkEncodedMessage?
            let encoded = {
                if let message { return message }
                let made = event.message
                message = made
                return made
            }
            for subscriber in subscribers where Self.concerns(event, subscriber) {
                subscriber.offer(event, encoded: encoded)
            }
        }
    }

    private static func concerns(_ event: ServiceEvent, _ subscriber: Subscriber) -> Bool {
        if let bundle = subscriber.bundle, let eventBundle = event.bundle, bundle != eventBundle { return false }
        switch event.audience {
        case .everyone:
            return true
        case .owner(let owner):
            // A client's own business reaches only its user's subscribers.
            guard owner.uid == subscriber.uid else { return false }
            return subscriber.client == nil || subscriber.client == owner.client
        }
    }
}

extension ServiceEvent {
    /// About what the event takes while it waits, and once encoded: its
    /// texts and a fixed share for the rest.
    var estimatedBytes: Int {
        func bytes(_ texts: [String]?) -> Int { texts?.reduce(0) { $0 + $1.utf8.count + 3 } ?? 0 }
        switch self {
        case .ready, .shutdown: return 128
        case .localeChanged(let owner, let bundle, let locale, let previous):
            return 192 + owner.client.utf8.count + bytes([bundle, locale, previous])
        case .preferencesChanged(let owner, let bundle, _, let changed):
            return 512 + owner.client.utf8.count + bundle.utf8.count + bytes(changed)
        case .addedStringsChanged(let owner, let bundle, let tables, let locales):
            return 192 + owner.client.utf8.count + bundle.utf8.count + bytes(tables) + bytes(locales)
        case .tablesChanged(let bundle, let tables, let locales, _):
            return 192 + bundle.utf8.count + bytes(tables) + bytes(locales)
        case .localesChanged(let bundle, let added, let removed, _):
            return 192 + bundle.utf8.count + bytes(added) + bytes(removed)
        case .tableError(let bundle, let file, _, _, let message, _):
            return 192 + bytes([bundle, file, message])
        case .bundleChanged(let bundle, _, let message):
            return 192 + bytes([bundle, message])
        }
    }

    /// The event as a `Subscribe` reply, encoded.
    var message: VarlinkEncodedMessage {
        VarlinkEncodedMessage(continuing: Localization.Subscribe.Reply(event: interfaceEvent).varlinkObject)
    }
}
