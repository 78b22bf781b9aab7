public import Logging
internal import Synchronization
public import VarlinkProtocol

/// The subscribers, and delivery of events to them.
///
/// Each event is encoded once and handed to every matching subscriber's
/// stream; a stream that cannot keep up drops itself (see `VarlinkStream`),
/// so one slow subscriber never delays the others.
public final class SubscriptionHub: Sendable {
    private struct Subscriber {
        let uid: UInt32
        let client: String?
        let bundle: String?
        let stream: any VarlinkStream
    }

    private let subscribers = Mutex<[UInt64: Subscriber]>([:])
    private let nextID = Atomic<UInt64>(1)
    private let logger: Logger

    /// An empty hub.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// Registers a stream; it leaves the hub when it ends.
    public func add(_ stream: any VarlinkStream, uid: UInt32, client: String?, bundle: String?) {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        subscribers.withLock { $0[id] = Subscriber(uid: uid, client: client, bundle: bundle, stream: stream) }
        stream.onTermination { [weak self] end in
            self?.subscribers.withLock { _ = $0.removeValue(forKey: id) }
            if end == .tooSlow {
                self?.logger.notice("dropped a subscriber that stopped reading", metadata: ["client.uid": "\(uid)", "client.id": "\(client ?? "-")"])
            }
        }
    }

    /// Current subscribers.
    public var count: Int { subscribers.withLock { $0.count } }

    /// Sends an event to every subscriber it concerns.
    public func publish(_ event: ServiceEvent) {
        let message = VarlinkEncodedMessage(continuing: event.parameters)
        let targets = subscribers.withLock { subscribers in
            subscribers.values.filter { Self.concerns(event, $0) }.map(\.stream)
        }
        for stream in targets { stream.yield(message) }
    }

    private static func concerns(_ event: ServiceEvent, _ subscriber: Subscriber) -> Bool {
        if let bundle = subscriber.bundle, let eventBundle = event.bundle, bundle != eventBundle { return false }
        if let eventClient = event.client {
            // A client's own business reaches only its user's subscribers.
            guard event.uid == subscriber.uid else { return false }
            if let client = subscriber.client, client != eventClient { return false }
        }
        return true
    }
}
