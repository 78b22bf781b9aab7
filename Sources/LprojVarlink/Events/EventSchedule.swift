package import ClientBudget
package import LprojService

/// When each event goes to each subscriber: the one owner of coalescing
/// and throttling, without clocks, threads or sockets. It is given the
/// time with every event and returns what to send; ``EventDelivery`` runs
/// it in one task and carries its actions out.
///
/// Events everyone may see (reloads from disk, which only whoever may
/// write the bundles causes) are offered to subscribers at once and as
/// they are. Events that concern one user's clients, which that user
/// causes as often as it likes, are offered at most once per ``tick`` per
/// user, and a burst of them merges (``EventCoalescer``): each subscriber
/// gets one event per client and bundle, whatever the burst held.
///
/// Each subscriber gets at most one delivery per ``tick`` and has at most
/// one in flight (sent, not yet written to its socket): events that come
/// sooner merge into its next delivery, so however fast tables change or
/// clients change things, at most one delivery per subscriber per tick is
/// written, and events apart in time still reach a subscriber as they were.
///
/// What a uid's own clients cause and waits for that uid's subscriber is
/// held for the uid: each waiting event of a new subject (a client and
/// bundle) is charged to the uid's output budget until it is sent, and a
/// subscriber whose waiting subjects pass ``maximumPendingEvents``, or its
/// uid's budget, is dropped as one that stopped reading. (A uid that never
/// reads, with events of a new client id each time, once held 900 MiB this
/// way.) Events everyone sees are not counted so: they come from the
/// files, whose number the administrator decides, and a checkout that
/// breaks 300 tables must not drop every subscriber of every uid.
package struct EventSchedule<Instant: InstantProtocol> where Instant.Duration == Duration {
    package typealias SubscriberID = UInt64

    /// What the caller must do.
    package enum Action: Equatable {
        /// Write these events to the subscriber, and report ``written(_:now:)``
        /// once the last is written.
        case send(SubscriberID, [ServiceEvent])
        /// The subscriber stopped reading: end its stream. It has left the
        /// schedule already.
        case drop(SubscriberID)
    }

    /// The least time between two deliveries of one user's events, and
    /// between two deliveries to one subscriber.
    package let tick: Duration
    /// How long a delivery may wait for its subscriber to take it before
    /// the subscriber is dropped.
    package let maximumStall: Duration
    /// The most subjects of a uid's own events that may wait for one
    /// subscriber before it is dropped as too far behind.
    package let maximumPendingEvents: Int
    private let book: BudgetBook?

    private var subscribers: [SubscriberID: Subscriber] = [:]
    /// Subscribers by uid: a user's own events are offered to that user's
    /// subscribers only, whatever the number of others'.
    private var subscribersByUID: [UInt32: Set<SubscriberID>] = [:]
    private var lanes: [Lane: PendingLane] = [:]
    /// When each user's events last went out: the next go a tick later.
    private var lastDelivery: [UInt32: Instant] = [:]

    /// The batches waiting: one for events everyone may see, one per user.
    private enum Lane: Hashable {
        case everyone
        case user(UInt32)
    }

    private struct PendingLane {
        var events: EventCoalescer
        let due: Instant
    }

    private struct Subscriber {
        let uid: UInt32
        let client: String?
        let bundle: String?
        /// The generation its `ready` showed: events everyone sees of that
        /// generation or before are in what it fetched already.
        let generation: Int
        /// A delivery is written to the connection and not yet to its socket.
        var inFlight = false
        var inFlightSince: Instant
        /// When the next delivery may go.
        var nextSend: Instant
        /// When what waits goes (nil: nothing waits, or a delivery is in flight).
        var flushAt: Instant?
        var pending = EventCoalescer()
        /// What the waiting events are charged to the uid.
        var charged = 0
        /// Subjects of the uid's own events waiting.
        var ownSubjects = 0

        func concerns(_ event: ServiceEvent) -> Bool {
            if let bundle, let eventBundle = event.bundle, bundle != eventBundle { return false }
            switch event.audience {
            case .everyone:
                return (event.generation ?? .max) > generation
            case .owner(let owner):
                // A client's own business reaches only its user's subscribers.
                guard owner.uid == uid else { return false }
                return client == nil || client == owner.client
            }
        }
    }

    package init(tick: Duration, maximumStall: Duration, maximumPendingEvents: Int, book: BudgetBook?) {
        self.tick = tick
        self.maximumStall = maximumStall
        self.maximumPendingEvents = maximumPendingEvents
        self.book = book
    }

    /// Subscribers in the schedule.
    package var subscriberCount: Int { subscribers.count }

    /// The earliest time at which ``advance(to:)`` has something to send.
    package var nextDeadline: Instant? {
        let lanesDue = lanes.values.lazy.map(\.due).min()
        let flushesDue = subscribers.values.lazy.compactMap(\.flushAt).min()
        switch (lanesDue, flushesDue) {
        case let (lane?, flush?): return min(lane, flush)
        case let (lane, flush): return lane ?? flush
        }
    }

    // MARK: Events

    /// A subscriber joins (its `ready` reply is sent before it does): it
    /// gets the events published from now on.
    package mutating func add(_ id: SubscriberID, uid: UInt32, client: String?, bundle: String?, generation: Int = 0, now: Instant) {
        subscribers[id] = Subscriber(uid: uid, client: client, bundle: bundle, generation: generation, inFlightSince: now, nextSend: now)
        subscribersByUID[uid, default: []].insert(id)
    }

    /// Offers events everyone sees, taken before the subscriber joined, to
    /// it alone (those it concerns).
    package mutating func replay(_ events: [ServiceEvent], to id: SubscriberID, now: Instant) -> [Action] {
        var actions: [Action] = []
        for event in events { offer(event, now: now, to: [id], into: &actions) }
        return actions
    }

    /// A subscriber's stream ended: what waits for it is let go.
    package mutating func remove(_ id: SubscriberID) {
        guard var subscriber = subscribers.removeValue(forKey: id) else { return }
        subscribersByUID[subscriber.uid]?.remove(id)
        if subscribersByUID[subscriber.uid]?.isEmpty ?? false { subscribersByUID[subscriber.uid] = nil }
        Self.release(&subscriber, book: book)
    }

    /// Changes a subscriber where it is stored. (Taking a copy out and
    /// storing it back copied its waiting events at every change: with a
    /// few hundred waiting, each event offered to it cost their number.)
    private mutating func update<Result>(_ id: SubscriberID, _ change: (inout Subscriber) -> Result) -> Result? {
        guard let index = subscribers.index(forKey: id) else { return nil }
        return change(&subscribers.values[index])
    }

    /// An event was published.
    package mutating func publish(_ event: ServiceEvent, now: Instant) -> [Action] {
        let lane: Lane
        switch event.audience {
        case .everyone: lane = .everyone
        case .owner(let owner): lane = .user(owner.uid)
        }
        if lanes[lane] == nil {
            var due = now
            if case .user(let uid) = lane, let last = lastDelivery[uid] { due = max(now, last.advanced(by: tick)) }
            lanes[lane] = PendingLane(events: EventCoalescer(merging: lane != .everyone), due: due)
        }
        lanes[lane]!.events.add(event)
        guard let pending = lanes[lane], pending.due <= now else { return [] }
        return deliver(lane, pending, now: now)
    }

    /// The subscriber's last delivery is written: what waits goes at its
    /// next tick.
    package mutating func written(_ id: SubscriberID, now: Instant) -> [Action] {
        let due: Bool? = update(id) { subscriber in
            subscriber.inFlight = false
            guard !subscriber.pending.isEmpty else { return false }
            subscriber.flushAt = max(now, subscriber.nextSend)
            return subscriber.nextSend <= now
        }
        var actions: [Action] = []
        if due == true { flush(id, now: now, into: &actions) }
        return actions
    }

    /// Sends whatever is due at `now`.
    package mutating func advance(to now: Instant) -> [Action] {
        var actions: [Action] = []
        for (lane, pending) in lanes where pending.due <= now { actions += deliver(lane, pending, now: now) }
        let due = subscribers.compactMap { id, subscriber in subscriber.flushAt.map { $0 <= now } == true ? id : nil }
        for id in due { flush(id, now: now, into: &actions) }
        return actions
    }

    /// Everything that waits, now, whatever the ticks say: the daemon is
    /// stopping.
    package mutating func flushAll(now: Instant) -> [Action] {
        var actions: [Action] = []
        for (lane, pending) in lanes {
            lanes[lane] = nil
            var events = pending.events
            for event in events.drain() { offer(event, now: now, into: &actions) }
        }
        for id in Array(subscribers.keys) {
            update(id) { $0.inFlight = false }
            flush(id, now: now, into: &actions)
        }
        return actions
    }

    // MARK: Decisions

    /// Offers what waited in a lane to the subscribers it concerns.
    private mutating func deliver(_ lane: Lane, _ pending: PendingLane, now: Instant) -> [Action] {
        lanes[lane] = nil
        if case .user(let uid) = lane { noteDelivery(to: uid, at: now) }
        var actions: [Action] = []
        var events = pending.events
        for event in events.drain() { offer(event, now: now, into: &actions) }
        return actions
    }

    /// Sends an event to a subscriber now if nothing is in flight and its
    /// tick has passed; else merges it into what waits for its next delivery.
    /// A user's own event is offered to that user's subscribers only.
    private mutating func offer(_ event: ServiceEvent, now: Instant, into actions: inout [Action]) {
        switch event.audience {
        case .everyone: offer(event, now: now, to: Array(subscribers.keys), into: &actions)
        case .owner(let owner): offer(event, now: now, to: subscribersByUID[owner.uid].map(Array.init) ?? [], into: &actions)
        }
    }

    private mutating func offer(_ event: ServiceEvent, now: Instant, to candidates: [SubscriberID], into actions: inout [Action]) {
        let (maximumStall, tick, maximumPendingEvents, book) = (self.maximumStall, self.tick, self.maximumPendingEvents, self.book)
        for id in candidates {
            let outcome: OfferOutcome =
                update(id) { subscriber in
                    guard subscriber.concerns(event) else { return .skip }
                    // A delivery the client has not taken for this long: it
                    // stopped reading.
                    if subscriber.inFlight, subscriber.inFlightSince.duration(to: now) > maximumStall { return .drop }
                    guard subscriber.inFlight || now < subscriber.nextSend else {
                        subscriber.inFlight = true
                        subscriber.inFlightSince = now
                        subscriber.nextSend = now.advanced(by: tick)
                        return .send
                    }
                    if subscriber.pending.add(event), case .owner = event.audience {
                        subscriber.ownSubjects += 1
                        let cost = event.estimatedBytes
                        guard subscriber.ownSubjects <= maximumPendingEvents, book?.charge(cost, of: .output, to: subscriber.uid) == nil
                        else {
                            return .drop
                        }
                        subscriber.charged += cost
                    }
                    if !subscriber.inFlight, subscriber.flushAt == nil { subscriber.flushAt = subscriber.nextSend }
                    return .wait
                } ?? .skip
            switch outcome {
            case .skip, .wait: break
            case .send: actions.append(.send(id, [event]))
            case .drop: drop(id, into: &actions)
            }
        }
    }

    private enum OfferOutcome { case skip, send, wait, drop }

    /// Sends what waited for a subscriber, merged, as one delivery.
    private mutating func flush(_ id: SubscriberID, now: Instant, into actions: inout [Action]) {
        let (tick, book) = (self.tick, self.book)
        let events: [ServiceEvent]?? = update(id) { subscriber -> [ServiceEvent]? in
            subscriber.flushAt = nil
            guard !subscriber.inFlight else { return nil }  // `written` sets the next flush
            let events = subscriber.pending.drain()
            Self.release(&subscriber, book: book)
            guard !events.isEmpty else { return nil }
            subscriber.inFlight = true
            subscriber.inFlightSince = now
            subscriber.nextSend = now.advanced(by: tick)
            return events
        }
        if let events = events ?? nil { actions.append(.send(id, events)) }
    }

    private mutating func drop(_ id: SubscriberID, into actions: inout [Action]) {
        remove(id)
        actions.append(.drop(id))
    }

    /// Lets go of what is charged for waiting events (they were sent, or
    /// the subscriber is gone).
    private static func release(_ subscriber: inout Subscriber, book: BudgetBook?) {
        if subscriber.charged > 0 { book?.release(subscriber.charged, of: .output, from: subscriber.uid) }
        subscriber.charged = 0
        subscriber.ownSubjects = 0
    }

    private mutating func noteDelivery(to uid: UInt32, at now: Instant) {
        lastDelivery[uid] = now
        // Forget users whose last delivery no longer holds anything back.
        if lastDelivery.count > 1024 { lastDelivery = lastDelivery.filter { $0.value.duration(to: now) < tick } }
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
}
