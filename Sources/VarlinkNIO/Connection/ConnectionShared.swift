import ClientBudget
import Logging
import VarlinkProtocol

extension VarlinkConnectionHandler {
    /// What a connection shares with the server.
    struct Shared {
        let answerer: CallAnswerer
        let connections: ConnectionRegistry
        let work: FairWorkQueue
        let streams: StreamCounter
        let logLimit: PerUIDRateLimit
        let logger: Logger
        var configuration: VarlinkServerConfiguration { answerer.configuration }

        /// Logs about a client, at most as often as ``logLimit`` allows per uid.
        func log(_ level: Logger.Level, _ message: @autoclosure () -> String, for caller: VarlinkCaller) {
            let (allowed, suppressed) = logLimit.allow(caller.uid)
            guard allowed else { return }
            var metadata: Logger.Metadata = ["client.uid": "\(caller.uid)", "client.pid": "\(caller.pid)"]
            if suppressed > 0 { metadata["suppressed"] = "\(suppressed)" }
            logger.log(level: level, "\(message())", metadata: metadata)
        }

        /// A connection's output, whose replies past the budget are its
        /// limit's error, said in the log.
        func output(for account: ConnectionAccount, caller: VarlinkCaller) -> ConnectionOutput {
            ConnectionOutput(account: account) { refusal in
                log(.notice, "a reply is over the output budget: \(refusal)", for: caller)
                return answerer.refusal(.budget(refusal))
            }
        }
    }
}
