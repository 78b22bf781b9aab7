import ClientBudget
import NIOCore
import Synchronization

/// A large message handed to the workers to decode and answer.
///
/// It is a copy of the message, not a view of the connection's input
/// buffer: a view would keep the whole buffer alive, uncharged, after the
/// connection had moved on to a new one. The copy is charged to its uid as
/// input from the moment it is made until the job is done with it, and
/// dropped as soon as its connection closes, whether or not a worker has
/// reached it: a client that sends a megabyte and hangs up holds nothing.
final class OffloadedMessage: Sendable {
    private struct Held {
        var bytes: [UInt8]?
        var charged: Int
    }

    private let held: Mutex<Held>
    private let book: BudgetBook
    private let uid: UInt32

    /// Copies `frame` and charges it to `uid`: the bytes are in memory
    /// already (the connection read them within its budget), so the charge
    /// is made whatever the budget says; the uid is over until they go.
    init(_ frame: ByteBuffer, uid: UInt32, book: BudgetBook) {
        let bytes = Array(frame.readableBytesView)
        self.held = Mutex(Held(bytes: bytes, charged: bytes.count))
        self.book = book
        self.uid = uid
        book.forceCharge(bytes.count, of: .input, to: uid)
    }

    /// The message, for the job to decode; nil once its connection closed.
    /// The charge stays until ``release()``.
    func take() -> [UInt8]? {
        held.withLock { held in
            defer { held.bytes = nil }
            return held.bytes
        }
    }

    /// Lets the message go, and its charge (once, whoever calls first: the
    /// job when it is done, or the connection when it closes).
    func release() {
        let charged = held.withLock { held in
            defer { held = Held(bytes: nil, charged: 0) }
            return held.charged
        }
        if charged > 0 { book.release(charged, of: .input, from: uid) }
    }
}
