/// A message longer than the limit of the side reading it: the server's
/// (`max-message-size`, a client's calls) or a client's (lprojd's replies).
/// Either closes the connection, since the stream cannot be resynchronised.
package struct MessageSizeError: Error, Equatable {
    /// The limit the message went over, in bytes.
    package let maximumSize: Int

    package init(maximumSize: Int) {
        self.maximumSize = maximumSize
    }
}
