import ClientBudget
import NIOCore
import VarlinkProtocol

/// Turns one call, as framed, into what the connection writes: decoded
/// within the message limits, dispatched, and its reply encoded within the
/// reply limit. No channel, no state: the connection decides when and where
/// this runs.
struct CallAnswerer: Sendable {
    let dispatcher: VarlinkDispatcher
    let configuration: VarlinkServerConfiguration

    /// What a call comes to on the event loop.
    enum Outcome {
        /// The encoded reply to write, or nil for a oneway call.
        case reply([UInt8]?)
        /// Work to do off the loop (``FairWorkQueue``), and then write.
        /// `message` is the copy of a large call it holds, if any, for the
        /// connection to let go of should it close first.
        case later(_ work: @Sendable () async -> Answer, message: OffloadedMessage?)
        /// A stream to open on the loop.
        case stream(@Sendable (any VarlinkStream) -> Void)
    }

    /// What an answer worked out off the loop comes back as.
    enum Answer: Sendable {
        /// The encoded reply, or nil for a oneway call.
        case reply([UInt8]?)
        /// A stream to open on the loop.
        case stream(@Sendable (any VarlinkStream) -> Void)
    }

    /// Answers a call on the loop, or says what must be done off it: a
    /// message larger than ``VarlinkServerConfiguration/largeMessageSize``
    /// is decoded by the workers, from a copy charged to `caller`'s uid in
    /// `book` (``OffloadedMessage``), since parsing it could hold the loop.
    func answer(_ frame: ByteBuffer, caller: VarlinkCaller, book: BudgetBook) -> Outcome {
        guard frame.readableBytes <= configuration.largeMessageSize else {
            let message = OffloadedMessage(frame, uid: caller.uid, book: book)
            return .later(
                { [self] in
                    defer { message.release() }
                    // Its connection closed before a worker came to it: nothing to do.
                    guard let bytes = message.take() else { return .reply(nil) }
                    switch bytes.withUnsafeBytes({ decode($0) }) {
                    case .failure(let error): return .reply(encode(VarlinkReply(error: error)))
                    case .success(let call): return await resolve(dispatcher.dispatch(call, caller: caller), for: call)
                    }
                }, message: message)
        }
        switch frame.withUnsafeReadableBytes({ decode($0) }) {
        case .failure(let error):
            return .reply(encode(VarlinkReply(error: error)))
        case .success(let call):
            let outcome = dispatcher.dispatch(call, caller: caller)
            switch outcome {
            case .reply(let parameters): return .reply(call.oneway ? nil : encode(VarlinkReply(parameters: parameters)))
            case .error(let error): return .reply(call.oneway ? nil : encode(VarlinkReply(error: error)))
            case .deferred: return .later({ [self] in await resolve(outcome, for: call) }, message: nil)
            case .stream(let start): return .stream(start)
            }
        }
    }

    /// The error that refuses a call over a limit, encoded.
    func refusal(_ limit: VarlinkLimit) -> [UInt8] {
        VarlinkReply(error: configuration.limitError(limit)).encoded()
    }

    /// Works out an outcome to the end, off the loop, and encodes it there.
    private func resolve(_ outcome: VarlinkOutcome, for call: VarlinkCall) async -> Answer {
        var outcome = outcome
        while case .deferred(let work) = outcome { outcome = await work() }
        switch outcome {
        case .reply(let parameters): return .reply(call.oneway ? nil : encode(VarlinkReply(parameters: parameters)))
        case .error(let error): return .reply(call.oneway ? nil : encode(VarlinkReply(error: error)))
        case .stream(let start): return .stream(start)
        case .deferred: preconditionFailure("resolved above")
        }
    }

    /// A call, or the error to answer; too many values is the server's
    /// own limit error.
    private func decode(_ bytes: UnsafeRawBufferPointer) -> Result<VarlinkCall, VarlinkError> {
        let result = Result { () throws(VarlinkError) in try VarlinkCall.decode(bytes, maximumValues: configuration.maximumMessageValues) }
        if case .failure(let error) = result, error.isTooManyValues {
            return .failure(configuration.limitError(.messageValues(configuration.maximumMessageValues)))
        }
        return result
    }

    /// A reply's bytes, or a `replySize` error in place of a reply too large.
    private func encode(_ reply: VarlinkReply) -> [UInt8] {
        let bytes = reply.encoded()
        guard bytes.count > configuration.maximumReplySize else { return bytes }
        return refusal(.replySize(configuration.maximumReplySize))
    }
}
