/// Whose state it is: a client id, scoped to the uid that called.
///
/// Two users running the same app (the same client id) never see each
/// other's choices.
package struct ClientKey: Sendable, Hashable, CustomStringConvertible {
    /// The caller's uid, from `SO_PEERCRED`.
    package let uid: UInt32
    /// The client id the app chose, such as `org.example.Editor`.
    package let client: String

    /// Creates a key.
    package init(uid: UInt32, client: String) {
        self.uid = uid
        self.client = client
    }

    package var description: String { "\(uid)/\(client)" }

    /// Whether `client` is acceptable as a client id: 1 to 255 bytes of
    /// printable ASCII without spaces.
    package static func isValidClientID(_ client: String) -> Bool {
        !client.isEmpty && client.utf8.count <= 255 && client.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}
