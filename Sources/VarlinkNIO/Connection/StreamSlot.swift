import ClientBudget
import NIOCore
import VarlinkProtocol

/// A connection's open stream (a subscription), if it has one: opened
/// within its uid's limit on streams, and let go of once it ends. Confined
/// to the connection's event loop.
final class StreamSlot {
    private var stream: NIOVarlinkStream?
    private let streams: StreamCounter
    private let configuration: VarlinkServerConfiguration

    init(streams: StreamCounter, configuration: VarlinkServerConfiguration) {
        self.streams = streams
        self.configuration = configuration
    }

    var isOpen: Bool { stream != nil }

    /// Writes what the stream has waiting until `deadline`; returns whether
    /// some still waits.
    func writeOutbox(until deadline: NIODeadline) -> Bool {
        stream?.writeOutbox(until: deadline) ?? false
    }

    /// Opens a stream and hands it to `start`; false when the uid has as
    /// many open as it may. `changed` is called, from any thread, when the
    /// stream has replies to write (false) or has finished (true).
    func open(
        _ start: @Sendable (any VarlinkStream) -> Void, channel: any Channel, caller: VarlinkCaller, book: BudgetBook,
        changed: @escaping @Sendable (_ ended: Bool) -> Void
    ) -> Bool {
        let streams = self.streams, uid = caller.uid
        guard streams.open(uid: uid, maximum: configuration.limits.maximumStreamsPerUID) else { return false }
        let stream = NIOVarlinkStream(
            channel: channel, caller: caller, configuration: configuration, book: book, announce: { changed(false) }
        ) { reason in
            streams.close(uid: uid)
            if reason == .finished { changed(true) }
        }
        self.stream = stream
        start(stream)
        return true
    }

    /// Ends the stream, if open: with the server's last reply when it is
    /// stopping, with none when the client is gone.
    func end(_ reason: VarlinkStreamEnd) {
        guard let stream else { return }
        self.stream = nil
        stream.end(reason, lastReply: reason == .serverShutdown ? configuration.shutdownReply : nil, thenClose: false)
    }

    /// The stream finished by itself.
    func finished() {
        stream = nil
    }
}
