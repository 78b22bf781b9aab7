/// What a client can make lprojd hold on its behalf, each counted in bytes.
///
/// dbus-daemon's `<limit>` list names the same things (`max_incoming_bytes`,
/// `max_outgoing_bytes`, `max_connections_per_user`, ...); here each is
/// also counted per uid, so that opening more connections never buys a
/// client more than its uid's budget.
package enum Resource: Int, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// The fixed cost of an open connection (its channel, pipeline and
    /// buffers), charged once per connection.
    case connections
    /// Bytes read and not yet answered: unfinished messages, and calls
    /// waiting for their turn.
    case input
    /// Bytes of replies and events written and not yet taken by the
    /// kernel, counted as the buffers that hold them (not their payload).
    case output
    /// Strings added with `AddStrings`: keys and values.
    case addedStrings
    /// Saved selections and preferences: the rows and their copy in memory.
    case savedState
    /// Cache entries made for a client's requests (resolved locale chains).
    case caches

    package var description: String {
        switch self {
        case .connections: "connections"
        case .input: "input"
        case .output: "output"
        case .addedStrings: "addedStrings"
        case .savedState: "savedState"
        case .caches: "caches"
        }
    }
}
