internal import Dispatch
public import Logging
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
/// event per client and bundle, whatever the burst held. Each
/// event is encoded once for all its subscribers; a stream that cannot
/// keep up drops itself (see `VarlinkStream`), so a slow subscriber never
/// delays the others.
public final class SubscriptionHub: Sendable {
    private struct Subscriber {
        let uid: UInt32
        let client: String?
        let bundle: String?
        let stream: any VarlinkStream
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
    /// The least time between two deliveries of one user's events.
    public let tick: Duration

    /// An empty hub.
    public init(tick: Duration = .milliseconds(10), logger: Logger) {
        self.tick = tick
        self.logger = logger
    }

    /// Registers a stream; it leaves the hub when it ends.
    public func add(_ stream: any VarlinkStream, uid: UInt32, client: String?, bundle: String?) {
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = Subscriber(uid: uid, client: client, bundle: bundle, stream: stream)
            return id
        }
        stream.onTermination { [weak self] end in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
            if end == .tooSlow {
                self?.logger.notice("dropped a subscriber that stopped reading", metadata: ["client.uid": "\(uid)", "client.id": "\(client ?? "-")"])
            }
        }
    }

    /// Current subscribers.
    public var count: Int { state.withLock { $0.subscribers.count } }

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
            let message = VarlinkEncodedMessage(continuing: event.parameters)
            for subscriber in subscribers where Self.concerns(event, subscriber) {
                subscriber.stream.yield(message)
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
