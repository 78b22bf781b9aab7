public import NIOCore
import ClientBudget

/// Splits a byte stream into Varlink messages at their NUL terminators.
///
/// Messages may be at most `maximumSize` bytes, as in systemd (16 MiB); a
/// longer one is an error that closes the connection. The decoder remembers
/// how far it has searched, so a large message arriving in pieces is
/// scanned once, not once per piece. On the server, the unfinished message
/// it buffers is charged to the peer's uid as it grows: growing past the
/// uid's input budget is an error that closes the connection too.
public struct VarlinkFrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = ByteBuffer

    /// A message longer than the limit.
    public struct MessageTooLarge: Error {
        public let maximumSize: Int
    }

    /// An unfinished message that would take its uid past a budget.
    struct InputRefused: Error {
        let refusal: BudgetRefusal
    }

    let maximumSize: Int
    private let account: ConnectionAccount?
    private var searched = 0

    /// A decoder for a client, which answers to no budget.
    public init(maximumSize: Int) {
        self.maximumSize = maximumSize
        self.account = nil
    }

    /// A decoder for the server: the unfinished message is charged to the
    /// connection's uid.
    init(maximumSize: Int, account: ConnectionAccount) {
        self.maximumSize = maximumSize
        self.account = account
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        let start = view.startIndex + searched
        if let terminator = view[start...].firstIndex(of: 0) {
            let length = terminator - view.startIndex
            guard length <= maximumSize else { throw MessageTooLarge(maximumSize: maximumSize) }
            // The message leaves the decoder's care before it reaches the
            // handler, which charges it as a queued call.
            try charge(buffer.readableBytes - length - 1)
            let message = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            searched = 0
            context.fireChannelRead(wrapInboundOut(message))
            return .continue
        }
        searched = view.count
        if view.count > maximumSize { throw MessageTooLarge(maximumSize: maximumSize) }
        try charge(view.count)
        return .needMoreData
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A partial message at EOF is dropped: there is no one to answer.
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(to: buffer.writerIndex)
        try charge(0)
        return .needMoreData
    }

    private func charge(_ bytes: Int) throws {
        guard let account else { return }
        do {
            try account.setPartialInput(bytes)
        } catch {
            throw InputRefused(refusal: error)
        }
    }
}
