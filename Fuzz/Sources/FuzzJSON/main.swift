import Foundation
import FuzzSupport
import LprojInterface
@testable import LprojVarlink
import Synchronization
@testable import VarlinkProtocol

/// The JSON tokenizer, the parser built on it and the Varlink call decoder
/// on anything: no crash; what the parser accepts is JSON that Foundation
/// accepts too; a value that parses writes back as JSON that parses to the
/// same value; the server's typed path reads a call exactly as the
/// reference path (the tree) does, or leaves it to that path; and parsing
/// stays linear (the slowest input is reported at exit). The String
/// Catalog reader, on the same tokenizer, is FuzzCatalog's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzInput(start, count) { bytes in
        if let value = timed(bytes.count, { try? JSONParser.parse(bytes) }) {
            precondition(
                (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil, "accepted what is not JSON")
            let written = JSONWriter.encode(value)
            guard let again = try? JSONParser.parse(written) else { fatalError("the writer wrote what the parser refuses: \(written)") }
            precondition(again == value, "a value changed through writing and parsing again")
        }
        let call = timed(bytes.count) { bytes.withUnsafeBytes { try? VarlinkCall.decode($0) } }
        _ = bytes.withUnsafeBytes { try? VarlinkReply.decode($0) }
        let typed = timed(bytes.count) { typedPath.read(bytes) }
        if let typed {
            guard let call, let reference = try? Localization.Call(method: call.methodName, parameters: call.parameters) else {
                fatalError("the typed path read a call the reference path refuses")
            }
            precondition(typed.call == reference, "the typed path read \(typed.call), the reference path \(reference)")
            precondition(typed.oneway == call.oneway, "the paths disagree on oneway")
        }
    }
}

let typedPath = TypedPath()
let typedDispatcher = VarlinkDispatcher(info: .init(vendor: "fuzz", product: "fuzz", version: "0", url: ""), interfaces: [typedPath])

/// The server's typed path alone: what it reads of a message, if anything.
final class TypedPath: VarlinkTypedInterface {
    let name = Localization.interfaceName
    let description = Localization.definition
    private let last = Mutex<Localization.Call?>(nil)

    func read(_ message: [UInt8]) -> (call: Localization.Call, oneway: Bool)? {
        last.withLock { $0 = nil }
        let caller = VarlinkCaller(uid: 0, gid: 0, pid: 0, connectionID: 0)
        guard let dispatched = message.withUnsafeBytes({ typedDispatcher.dispatchTyped($0, caller: caller, maximumValues: 4096) }),
            let call = last.withLock({ $0 })
        else { return nil }
        return (call, dispatched.oneway)
    }

    func answer(method: VarlinkWireReader.Name, rest reader: inout VarlinkWireReader, caller: VarlinkCaller)
        -> VarlinkDispatcher.Dispatched?
    {
        guard let (request, flags) = LocalizationVarlinkInterface.read(method: method, rest: &reader) else { return nil }
        last.withLock { $0 = request }
        return VarlinkDispatcher.Dispatched(.reply([:]), flags)
    }

    func handle(_ method: Substring, call: VarlinkCall, caller: VarlinkCaller) -> VarlinkOutcome { .reply([:]) }
}
