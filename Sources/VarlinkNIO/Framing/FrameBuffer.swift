import NIOCore
import VarlinkProtocol
#if canImport(Glibc)
    import Glibc
#endif

/// What a connection has read and not yet answered: whole messages and the
/// start of the next, in one buffer, cut into messages only as each is
/// taken to be answered.
///
/// Reading a socket appends to it and counts the NULs in what was appended
/// (memchr, at memory speed); nothing else happens then, however many calls
/// a read held. Splitting messages out, and everything after, happens in
/// the connection's turns, which the loop's scheduler bounds. A message
/// longer than `maximumMessageSize`, complete or not, is an error.
struct FrameBuffer {
    private var buffer = ByteBuffer()
    let maximumMessageSize: Int
    /// Where the message after the last complete one starts (an index into
    /// `buffer`).
    private var tailStart = 0
    /// Complete messages waiting, and their bytes with their NULs.
    private(set) var completeMessages = 0
    private(set) var completeBytes = 0

    init(maximumMessageSize: Int) {
        self.maximumMessageSize = maximumMessageSize
    }

    /// Every byte held.
    var bytes: Int { buffer.readableBytes }
    /// The memory that holds them.
    var capacity: Int { buffer.capacity }
    /// Bytes of the unfinished message after the complete ones.
    var partialBytes: Int { buffer.writerIndex - tailStart }

    /// Appends what was read; returns how many messages and bytes it
    /// completed.
    mutating func append(_ data: inout ByteBuffer) throws(MessageSizeError) -> (messages: Int, bytes: Int) {
        let scanFrom = buffer.writerIndex
        buffer.writeBuffer(&data)
        var completed = (messages: 0, bytes: 0)
        var from = scanFrom
        while let terminator = Self.firstNUL(in: buffer, from: from) {
            let length = terminator - tailStart
            guard length <= maximumMessageSize else { throw MessageSizeError(maximumSize: maximumMessageSize) }
            completed.messages += 1
            completed.bytes += length + 1
            tailStart = terminator + 1
            from = tailStart
        }
        guard partialBytes <= maximumMessageSize else { throw MessageSizeError(maximumSize: maximumMessageSize) }
        completeMessages += completed.messages
        completeBytes += completed.bytes
        return completed
    }

    /// The next complete message, without its NUL.
    mutating func next() -> ByteBuffer? {
        guard completeMessages > 0, let terminator = Self.firstNUL(in: buffer, from: buffer.readerIndex) else { return nil }
        let length = terminator - buffer.readerIndex
        let message = buffer.readSlice(length: length)
        buffer.moveReaderIndex(forwardBy: 1)
        completeMessages -= 1
        completeBytes -= length + 1
        compactIfWorthIt()
        return message
    }

    /// Drops everything (the connection is closing).
    mutating func removeAll() {
        buffer = ByteBuffer()
        tailStart = 0
        completeMessages = 0
        completeBytes = 0
    }

    /// Gives back the space of answered messages once it is most of the
    /// buffer, and a large buffer once it is empty.
    private mutating func compactIfWorthIt() {
        if buffer.readableBytes == 0, buffer.capacity > 64 << 10 {
            buffer = ByteBuffer()
            tailStart = 0
            return
        }
        let read = buffer.readerIndex
        guard read > 64 << 10, read > buffer.readableBytes else { return }
        buffer.discardReadBytes()
        tailStart -= read
    }

    private static func firstNUL(in buffer: ByteBuffer, from index: Int) -> Int? {
        guard index < buffer.writerIndex else { return nil }
        return buffer.withUnsafeReadableBytes { bytes -> Int? in
            let offset = index - buffer.readerIndex
            guard let base = bytes.baseAddress, let hit = memchr(base + offset, 0, bytes.count - offset) else { return nil }
            return buffer.readerIndex + base.distance(to: UnsafeRawPointer(hit))
        }
    }
}
