/// How the service answers a call: now, on the caller's thread (lookups,
/// from the snapshot), or once work that must not hold an event loop is
/// done (a commit to disk, a whole table, a long negotiation).
package enum Answer<Reply: Sendable>: Sendable {
    case now(Reply)
    case later(@Sendable () async throws(ServiceError) -> Reply)

    /// The reply, waiting for it if need be.
    package func reply() async throws(ServiceError) -> Reply {
        switch self {
        case .now(let reply): reply
        case .later(let work): try await work()
        }
    }
}

/// Who is calling: the peer's user, from its socket's credentials. What a
/// client selects, saves or adds belongs to this uid.
package struct Caller: Sendable, Hashable {
    package let uid: UInt32

    package init(uid: UInt32) {
        self.uid = uid
    }
}
