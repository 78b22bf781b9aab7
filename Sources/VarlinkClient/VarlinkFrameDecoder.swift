#if canImport(Glibc)
    import Glibc
#endif
package import NIOCore
import VarlinkProtocol

/// Splits a byte stream into Varlink messages at their NUL terminators, as
/// a client reads its replies.
///
/// Messages may be at most `maximumSize` bytes, as in systemd (16 MiB); a
/// longer one is an error that closes the connection. The decoder remembers
/// how far it has searched, so a large message arriving in pieces is
/// scanned once, not once per piece. (The server in `VarlinkNIO` keeps its
/// connections' input in a `FrameBuffer` instead, which cuts messages out
/// only as each is answered.)
package struct VarlinkFrameDecoder: ByteToMessageDecoder {
    package typealias InboundOut = ByteBuffer

    let maximumSize: Int
    private var searched = 0

    /// A decoder for messages of at most `maximumSize` bytes.
    package init(maximumSize: Int) {
        self.maximumSize = maximumSize
    }

    package mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let readable = buffer.readableBytes
        // memchr: the scan runs at memory speed, whatever the build.
        let found: Int? = buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress, searched < bytes.count,
                let hit = memchr(base + searched, 0, bytes.count - searched)
            else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
        if let length = found {
            guard length <= maximumSize else { throw MessageSizeError(maximumSize: maximumSize) }
            let message = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            searched = 0
            context.fireChannelRead(wrapInboundOut(message))
            return .continue
        }
        searched = readable
        if readable > maximumSize { throw MessageSizeError(maximumSize: maximumSize) }
        return .needMoreData
    }

    package mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A partial message at EOF is dropped: there is no one to answer.
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}
