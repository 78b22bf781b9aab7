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
        /// The reply is written (nothing, for a oneway call).
        case answered
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

    /// Answers a call on the loop, writing its reply into `output`, or says
    /// what must be done off it: a message larger than
    /// ``VarlinkServerConfiguration/largeMessageSize`` is decoded by the
    /// workers, from a copy charged to `caller`'s uid in `book`
    /// (``OffloadedMessage``), since parsing it could hold the loop.
    func answer(_ frame: ByteBuffer, caller: VarlinkCaller, book: BudgetBook, writingTo output: inout JSONWriter) -> Outcome {
        guard frame.readableBytes <= configuration.limits.largeMessageSize else {
            let message = OffloadedMessage(frame, uid: caller.uid, book: book)
            return .later(
                { [self] in
                    defer { message.release() }
                    // Its connection closed before a worker came to it: nothing to do.
                    guard let bytes = message.take() else { return .reply(nil) }
                    switch bytes.withUnsafeBytes({ dispatch($0, caller: caller) }) {
                    case .failure(let error): return .reply(encoded { write(error, to: &$0) })
                    case .success(let dispatched): return await resolve(dispatched.outcome, oneway: dispatched.oneway)
                    }
                }, message: message)
        }
        switch frame.withUnsafeReadableBytes({ dispatch($0, caller: caller) }) {
        case .failure(let error):
            write(error, to: &output)
        case .success(let dispatched):
            let oneway = dispatched.oneway
            switch dispatched.outcome {
            case .reply(let parameters): if !oneway { write(parameters, to: &output) }
            case .typedReply(let parameters): if !oneway { write(parameters, to: &output) }
            case .error(let error): if !oneway { write(error, to: &output) }
            case .deferred: return .later({ [self] in await resolve(dispatched.outcome, oneway: oneway) }, message: nil)
            case .stream(let start): return .stream(start)
            }
        }
        return .answered
    }

    /// The error that refuses a call over a limit, encoded.
    func refusal(_ limit: VarlinkLimit) -> [UInt8] {
        VarlinkReply(error: configuration.limitError(limit)).encoded()
    }

    /// Works out an outcome to the end, off the loop, and encodes it there.
    private func resolve(_ outcome: VarlinkOutcome, oneway: Bool) async -> Answer {
        var outcome = outcome
        while case .deferred(let work) = outcome { outcome = await work() }
        switch outcome {
        case .reply(let parameters): return .reply(oneway ? nil : encoded { write(parameters, to: &$0) })
        case .typedReply(let parameters): return .reply(oneway ? nil : encoded { write(parameters, to: &$0) })
        case .error(let error): return .reply(oneway ? nil : encoded { write(error, to: &$0) })
        case .stream(let start): return .stream(start)
        case .deferred: preconditionFailure("resolved above")
        }
    }

    /// A call dispatched, or the error to answer; too many values is the
    /// server's own limit error.
    private func dispatch(_ message: UnsafeRawBufferPointer, caller: VarlinkCaller) -> Result<VarlinkDispatcher.Dispatched, VarlinkError> {
        let maximum = configuration.limits.maximumMessageValues
        let result = Result { () throws(VarlinkError) in try dispatcher.dispatch(message: message, caller: caller, maximumValues: maximum) }
        if case .failure(let error) = result, error.isTooManyValues {
            return .failure(configuration.limitError(.messageValues(maximum)))
        }
        return result
    }

    private func write(_ parameters: some VarlinkValue, to output: inout JSONWriter) {
        withinReplyLimit(&output) { VarlinkReply.write(parameters: parameters, to: &$0) }
    }

    private func write(_ parameters: JSONObject, to output: inout JSONWriter) {
        write(JSONValue.object(parameters), to: &output)
    }

    private func write(_ error: VarlinkError, to output: inout JSONWriter) {
        withinReplyLimit(&output) { $0.bytes.append(contentsOf: VarlinkReply(error: error).encoded()) }
    }

    /// Writes a reply, or a `replySize` error in place of a reply too large.
    private func withinReplyLimit(_ output: inout JSONWriter, _ write: (inout JSONWriter) -> Void) {
        let start = output.bytes.count
        write(&output)
        guard output.bytes.count - start > configuration.limits.maximumReplySize else { return }
        output.bytes.removeSubrange(start...)
        output.bytes.append(contentsOf: refusal(.replySize(configuration.limits.maximumReplySize)))
    }

    /// What `write` writes, as bytes of their own.
    private func encoded(_ write: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128)
        write(&writer)
        return writer.bytes
    }
}
