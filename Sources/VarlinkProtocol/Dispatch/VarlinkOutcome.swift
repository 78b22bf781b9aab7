/// Who is calling: the peer's credentials, read with `SO_PEERCRED` at accept.
public struct VarlinkCaller: Sendable, Hashable {
    /// The peer's user id.
    public let uid: UInt32
    /// The peer's group id.
    public let gid: UInt32
    /// The peer's process id.
    public let pid: Int32
    /// A number identifying the connection within this process.
    public let connectionID: UInt64

    /// Creates a caller.
    public init(uid: UInt32, gid: UInt32, pid: Int32, connectionID: UInt64) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
        self.connectionID = connectionID
    }
}

/// How an interface answers a call.
public enum VarlinkOutcome: Sendable {
    /// Reply now.
    case reply(JSONObject)
    /// Reply now with an interface's struct, written straight into the
    /// reply's bytes (no ``JSONObject`` is built).
    case typedReply(any VarlinkStruct)
    /// Fail now.
    case error(VarlinkError)
    /// Reply once this work is done (a database commit, say). It runs off the
    /// event loop; the connection's later calls wait, so replies stay in order.
    case deferred(@Sendable () async -> VarlinkOutcome)
    /// A subscription (needs `more`): the closure receives the stream and
    /// keeps it to send replies; it should send the first one at once.
    case stream(@Sendable (any VarlinkStream) -> Void)
}

/// Why a stream ended.
public enum VarlinkStreamEnd: Sendable, Equatable {
    /// The service sent its final reply.
    case finished
    /// The client went away.
    case disconnected
    /// The client stopped reading and its queue filled up; it was dropped.
    case tooSlow
    /// The server is shutting down.
    case serverShutdown
}

/// A message already encoded, to send to many streams without encoding it
/// for each (event fan-out).
public struct VarlinkEncodedMessage: Sendable {
    /// The message with its terminating NUL.
    public let bytes: [UInt8]

    /// Encodes a `continues: true` reply.
    public init(continuing parameters: JSONObject) {
        bytes = VarlinkReply(parameters: parameters, continues: true).encoded()
    }
}

/// The server's side of a `more` call, handed to the service.
///
/// Thread-safe: a service may send from any thread. Sending never blocks;
/// a client that does not read is dropped once its queue is full.
public protocol VarlinkStream: AnyObject, Sendable {
    /// The caller that opened the stream.
    var caller: VarlinkCaller { get }
    /// Sends a reply with `continues: true`; false once the stream has ended.
    @discardableResult func yield(_ parameters: JSONObject) -> Bool
    /// Sends an encoded `continues: true` reply; false once the stream has ended.
    @discardableResult func yield(_ message: VarlinkEncodedMessage) -> Bool
    /// Sends an encoded reply and calls `written` once it has gone to the
    /// kernel (or the stream ended), so that a sender can hold back what
    /// follows until the client has taken what came before.
    @discardableResult func yield(_ message: VarlinkEncodedMessage, whenWritten written: @escaping @Sendable () -> Void) -> Bool
    /// Ends the stream with a last reply (an error, or `continues: false`).
    func finish(_ reply: VarlinkReply)
    /// Drops a client that stopped reading: ends the stream with the
    /// server's too-slow error and closes the connection.
    func abandon()
    /// Registers what to do once the stream ends, whatever the reason;
    /// runs at once if it already has.
    func onTermination(_ handler: @escaping @Sendable (VarlinkStreamEnd) -> Void)
}

/// An interface whose calls the server reads straight into its types
/// (``VarlinkWireReader``), on the path every call takes; its
/// ``VarlinkInterface/handle(_:call:caller:)`` answers the calls that path
/// gives up on, and must answer them alike.
package protocol VarlinkTypedInterface: VarlinkInterface {
    /// Reads a call to `method` (the name without the interface's) from
    /// the rest of its message (``VarlinkWireReader/readRestOfCall(parameters:)``)
    /// and answers it; nil, having answered nothing, when the message is
    /// not one this path reads (a method the interface lacks, say).
    func answer(method: VarlinkWireReader.Name, rest: inout VarlinkWireReader, caller: VarlinkCaller) -> VarlinkDispatcher.Dispatched?
}

/// One Varlink interface served by a ``VarlinkDispatcher``.
public protocol VarlinkInterface: Sendable {
    /// The interface name: `org.lprojd.Localization`.
    var name: String { get }
    /// The interface definition, served verbatim by `GetInterfaceDescription`.
    var description: String { get }
    /// Answers a call to one of its methods (`method` without the interface).
    func handle(_ method: Substring, call: VarlinkCall, caller: VarlinkCaller) -> VarlinkOutcome
}
