package import LprojInterface
internal import LprojLocales
package import LprojService
package import VarlinkNIO
package import VarlinkProtocol

/// `org.lprojd.Localization` over Varlink: a call is read into the
/// interface's types (a parameter that does not fit them is
/// `InvalidParameter`, naming it), handed to ``LocalizationService``, and its
/// reply written back; every ``ServiceError`` becomes a Varlink error in
/// ``varlinkError(_:)``, the one map. A subscription's stream goes to the
/// ``EventDelivery``, which sends its `ready` and then its events.
package final class LocalizationVarlinkInterface: VarlinkTypedInterface {
    package let name = Localization.interfaceName
    /// The interface definition, served verbatim.
    package let description = Localization.definition

    private let service: LocalizationService
    private let subscriptions: any EventSubscriptions

    package init(service: LocalizationService, subscriptions: any EventSubscriptions) {
        self.service = service
        self.subscriptions = subscriptions
    }

    /// A call read straight from its message: the path every well-formed
    /// call takes.
    package func answer(method: VarlinkWireReader.Name, rest reader: inout VarlinkWireReader, caller: VarlinkCaller)
        -> VarlinkDispatcher.Dispatched?
    {
        guard let (request, flags) = Self.read(method: method, rest: &reader) else { return nil }
        return VarlinkDispatcher.Dispatched(handle(request, caller: caller), flags)
    }

    /// Reads a call to `method` from the rest of its message; nil when the
    /// typed path cannot (the reference path then reads it).
    package static func read(method: VarlinkWireReader.Name, rest reader: inout VarlinkWireReader)
        -> (Localization.Call, VarlinkWireReader.CallFlags)?
    {
        var request: Localization.Call?
        do {
            let flags = try reader.readRestOfCall { (parameters) throws(VarlinkWireReader.Unreadable) in
                request = try Localization.Call(wire: method, parameters: &parameters)
                if request == nil { throw VarlinkWireReader.Unreadable() }
            }
            guard let request else { return nil }
            return (request, flags)
        } catch {
            return nil
        }
    }

    /// A call read as a tree: the path that says what is wrong with a call.
    package func handle(_ method: Substring, call: VarlinkCall, caller: VarlinkCaller) -> VarlinkOutcome {
        let request: Localization.Call
        do {
            guard let known = try Localization.Call(method: method, parameters: call.parameters) else {
                return .error(.methodNotFound(call.method))
            }
            request = known
        } catch {
            return .error(.invalidParameter(error.field))
        }
        return handle(request, caller: caller)
    }

    package func handle(_ request: Localization.Call, caller: VarlinkCaller) -> VarlinkOutcome {
        // What the call caches, it caches in its uid's share (``CacheOwner``).
        CacheOwner.$uid.withValue(caller.uid) { answer(request, caller: Caller(uid: caller.uid)) }
    }

    private func answer(_ request: Localization.Call, caller: Caller) -> VarlinkOutcome {
        do throws(ServiceError) {
            switch request {
            case .lookup(let parameters): return outcome(try service.answerLookup(parameters, caller: caller))
            case .getTable(let parameters): return outcome(try service.getTable(parameters, caller: caller))
            case .getSnapshot(let parameters): return outcome(try service.getSnapshot(parameters, caller: caller))
            case .getSelection(let parameters): return outcome(try service.getSelection(parameters, caller: caller))
            case .selectLocale(let parameters): return outcome(try service.selectLocale(parameters, caller: caller))
            case .resetSelection(let parameters): return outcome(try service.resetSelection(parameters, caller: caller))
            case .listBundles(let parameters): return .typedReply(service.listBundles(parameters))
            case .negotiate(let parameters): return outcome(try service.negotiate(parameters))
            case .addStrings(let parameters): return .typedReply(try service.addStrings(parameters, caller: caller))
            case .removeAddedStrings(let parameters):
                return .typedReply(try service.removeAddedStrings(parameters, caller: caller))
            case .subscribe(let parameters):
                let subscription = try service.subscribe(parameters, caller: caller)
                return .stream { [subscriptions] stream in
                    subscriptions.add(
                        stream, uid: subscription.uid, client: subscription.client, bundle: subscription.bundle, ready: subscription.ready)
                }
            case .format(let parameters): return outcome(try service.answerFormat(parameters, caller: caller))
            case .parseDate(let parameters): return .typedReply(try service.parseDate(parameters, caller: caller))
            case .getPreferences(let parameters): return .typedReply(try service.getPreferences(parameters, caller: caller))
            case .setPreferences(let parameters): return outcome(try service.setPreferences(parameters, caller: caller))
            case .supportedLocales(let parameters): return outcome(try service.supportedLocales(parameters, caller: caller))
            case .reload(let parameters): return outcome(try service.reload(parameters, caller: caller))
            case .getStatus(let parameters): return .typedReply(service.getStatus(parameters, caller: caller))
            case .getMisses(let parameters): return outcome(try service.getMisses(parameters, caller: caller))
            case .resetMisses(let parameters): return outcome(try service.resetMisses(parameters, caller: caller))
            case .listClients(let parameters): return outcome(try service.listClients(parameters, caller: caller))
            }
        } catch {
            return .error(Self.varlinkError(error))
        }
    }

    /// A reply now, or once the service's work is done (off the event loop).
    private func outcome<Reply: VarlinkStruct>(_ answer: Answer<Reply>) -> VarlinkOutcome {
        switch answer {
        case .now(let reply):
            return .typedReply(reply)
        case .later(let work):
            let owner = CacheOwner.uid
            return .deferred {
                await CacheOwner.$uid.withValue(owner) {
                    do throws(ServiceError) {
                        return .typedReply(try await work())
                    } catch {
                        return .error(Self.varlinkError(error))
                    }
                }
            }
        }
    }

    /// The one map from the service's errors to Varlink's.
    package static func varlinkError(_ error: ServiceError) -> VarlinkError {
        switch error {
        case .localization(let error): error.varlinkError
        case .invalidParameter(let name): .invalidParameter(name)
        }
    }

    /// The error for a limit the server keeps (and the budget it charges).
    @Sendable package static func limitError(_ limit: VarlinkLimit) -> VarlinkError {
        let (name, maximum): (Localization.Limit, Int) =
            switch limit {
            case .messageSize(let maximum): (.messageSize, maximum)
            case .messageValues(let maximum): (.messageValues, maximum)
            case .replySize(let maximum): (.replySize, maximum)
            case .connections(let maximum): (.connections, maximum)
            case .connectionsPerUID(let maximum): (.connectionsPerUID, maximum)
            case .streamsPerUID(let maximum): (.subscriptionsPerUID, maximum)
            case .streamQueue(let maximum): (.subscriberQueue, maximum)
            case .incompleteMessageTimeout(let seconds): (.incompleteMessageTimeout, seconds)
            case .budget(let refusal): (Localization.Limit(refusal.limit), refusal.maximum)
            }
        return varlinkError(.limitExceeded(name, maximum: maximum))
    }

    /// The last reply of every subscription when lprojd stops.
    package static let shutdownReply = VarlinkReply(
        parameters: Localization.Subscribe.Reply(event: ServiceEvent.shutdown.interfaceEvent).varlinkObject)
}
