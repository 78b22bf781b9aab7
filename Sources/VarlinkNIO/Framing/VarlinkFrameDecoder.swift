public import NIOCore

/// Splits a byte stream into Varlink messages at their NUL terminators.
///
/// Messages may be at most `maximumSize` bytes, as in systemd (16 MiB); a
/// longer one is an error that closes the connection. The decoder remembers
/// how far it has searched, so a large message arriving in pieces is
/// scanned once, not once per piece.
public struct VarlinkFrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = ByteBuffer

    /// A message longer than the limit.
    public struct MessageTooLarge: Error {
        public let maximumSize: Int
    }

    let maximumSize: Int
    private var searched = 0

    public init(maximumSize: Int) {
        self.maximumSize = maximumSize
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        let start = view.startIndex + searched
        if let terminator = view[start...].firstIndex(of: 0) {
            let length = terminator - view.startIndex
            guard length <= maximumSize else { throw MessageTooLarge(maximumSize: maximumSize) }
            let message = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            searched = 0
            context.fireChannelRead(wrapInboundOut(message))
            return .continue
        }
        searched = view.count
        if view.count > maximumSize { throw MessageTooLarge(maximumSize: maximumSize) }
        return .needMoreData
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A partial message at EOF is dropped: there is no one to answer.
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}
