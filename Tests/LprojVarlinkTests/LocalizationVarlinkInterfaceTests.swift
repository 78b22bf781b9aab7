import Logging
import LprojInterface
import LprojService
import LprojTestSupport
import Testing
import VarlinkProtocol
@testable import LprojVarlink

/// The adapter: a call's JSON read strictly into the interface's types, and
/// every service error mapped in one place.
@Suite struct LocalizationVarlinkInterfaceTests {
    let caller = VarlinkCaller(uid: 1000, gid: 1000, pid: 1, connectionID: 1)

    func interface() throws -> (LocalizationVarlinkInterface, ServiceFixture) {
        let fixture = try ServiceFixture()
        return (
            LocalizationVarlinkInterface(
                service: fixture.service, subscriptions: EventDelivery(clock: ContinuousClock(), logger: Logger(label: "test"))), fixture
        )
    }

    func call(_ method: String, _ json: String) throws -> VarlinkOutcome {
        let (interface, _) = try interface()
        guard case .object(let parameters) = try JSONParser.parse(Array(json.utf8)) else { throw SchemaError(.mistyped) }
        return interface.handle(
            Substring(method), call: VarlinkCall(method: "org.lprojd.Localization.\(method)", parameters: parameters), caller: caller)
    }

    /// A reply's parameters, as the tree its struct writes.
    func reply(_ outcome: VarlinkOutcome) -> JSONObject? {
        switch outcome {
        case .reply(let object): object
        case .typedReply(let value): value.varlinkObject
        default: nil
        }
    }

    func error(_ outcome: VarlinkOutcome) -> VarlinkError? {
        if case .error(let error) = outcome { return error }
        return nil
    }

    @Test func parametersThatDoNotFitTheTypesAreNamed() throws {
        #expect(error(try call("Lookup", #"{"bundle":"demo"}"#)) == .invalidParameter("key"))
        #expect(error(try call("Lookup", #"{"bundle":"demo","key":1}"#)) == .invalidParameter("key"))
        #expect(error(try call("Lookup", #"{"bundle":"demo","key":"k","colour":"red"}"#)) == .invalidParameter("colour"))
        #expect(error(try call("Lookup", #"{"bundle":"demo","key":"k","arguments":[{"int":1.5}]}"#)) == .invalidParameter("arguments"))
        #expect(
            error(try call("SetPreferences", #"{"client":"a","bundle":"demo","preferences":{"colour":"red"}}"#))
                == .invalidParameter("preferences.colour"))
        #expect(
            error(try call("SetPreferences", #"{"client":"a","bundle":"demo","preferences":{"timeZone":1}}"#))
                == .invalidParameter("preferences.timeZone"))
        #expect(error(try call("Format", #"{"style":"roman","number":4}"#)) == .invalidParameter("style"))
        #expect(error(try call("Teleport", "{}")) == .methodNotFound("org.lprojd.Localization.Teleport"))
    }

    @Test func serviceErrorsBecomeTheInterfacesErrors() throws {
        #expect(
            error(try call("Lookup", #"{"bundle":"nope","key":"k"}"#))
                == VarlinkError("org.lprojd.Localization.BundleNotFound", ["bundle": "nope"]))
        #expect(error(try call("Lookup", #"{"bundle":"demo","key":"k","table":"a/b"}"#)) == .invalidParameter("table"))
        #expect(error(try call("Reload", "{}")) == VarlinkError("org.lprojd.Localization.PermissionDenied", ["method": "Reload"]))
        #expect(
            LocalizationVarlinkInterface.varlinkError(.limitExceeded(.keyLength, maximum: 8))
                == VarlinkError("org.lprojd.Localization.LimitExceeded", ["limit": "keyLength", "maximum": 8]))
    }

    @Test func repliesAreTheInterfacesTypesWritten() throws {
        guard let lookup = reply(try call("Lookup", #"{"bundle":"demo","key":"greeting","locale":"de"}"#)) else {
            Issue.record("no reply")
            return
        }
        #expect(JSONWriter.encode(.object(lookup)) == Array(#"{"value":"Hallo","found":true,"locale":"de"}"#.utf8))
        // A small table is built at once, as a lookup is answered; a large
        // one later (LocalizationServiceTests).
        guard let table = reply(try call("GetTable", #"{"bundle":"demo","locale":"de"}"#)) else {
            Issue.record("a small GetTable is answered at once")
            return
        }
        #expect(table["locale"] == .string("de") && table["table"] == .string("Localizable"))
        guard case .object(let strings) = table["strings"] else {
            Issue.record("no strings in \(table)")
            return
        }
        #expect(strings["greeting"] == .string("Hallo"))
    }

    /// The served definition is the one the types were generated from.
    @Test func theDefinitionIsServedVerbatim() throws {
        let (interface, _) = try interface()
        #expect(interface.description == Localization.definition)
        #expect(try VarlinkIDL(parsing: interface.description).name == interface.name)
    }
}
