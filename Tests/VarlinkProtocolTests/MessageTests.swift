import Testing
@testable import VarlinkProtocol

@Suite struct MessageTests {
    func decode(_ text: String) throws(VarlinkError) -> VarlinkCall {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBytes { buffer in Result { () throws(VarlinkError) in try VarlinkCall.decode(buffer) } }.get()
    }

    @Test func callsDecode() throws {
        let call = try decode(#"{"method":"org.example.Ping","parameters":{"a":1},"more":true}"#)
        #expect(call.method == "org.example.Ping" && call.more && !call.oneway)
        #expect(call.interface == "org.example" && call.methodName == "Ping")
        #expect(call.parameters["a"] == 1)
        #expect(try decode(#"{"method":"a.B"}"#).parameters.isEmpty)
    }

    @Test(arguments: [
        (#"not json"#, "message"), (#"[1]"#, "message"), (#"{}"#, "method"), (#"{"method":1}"#, "method"),
        (#"{"method":"nodot"}"#, "method"), (#"{"method":"a.lower"}"#, "method"), (#"{"method":"a.B","parameters":[]}"#, "parameters"),
        (#"{"method":"a.B","upgrade":true}"#, "upgrade"), (#"{"method":"a.B","extra":1}"#, "extra"),
        (#"{"method":"a.B","more":"yes"}"#, "more"),
        (#"{"method":"a.B","oneway":true,"more":true}"#, "more"),
    ])
    func badCallsNameTheFieldAtFault(_ text: String, _ field: String) {
        #expect(throws: VarlinkError.invalidParameter(field)) { try decode(text) }
    }

    @Test func repliesEncodeAsVarlinkExpects() {
        #expect(String(decoding: VarlinkReply(parameters: ["x": 1]).encoded(), as: UTF8.self) == "{\"parameters\":{\"x\":1}}\u{0}")
        #expect(
            String(decoding: VarlinkReply(parameters: [:], continues: true).encoded(), as: UTF8.self)
                == "{\"parameters\":{},\"continues\":true}\u{0}")
        #expect(
            String(decoding: VarlinkReply(error: .methodNotFound("a.B")).encoded(), as: UTF8.self)
                == "{\"error\":\"org.varlink.service.MethodNotFound\",\"parameters\":{\"method\":\"a.B\"}}\u{0}")
    }
}

@Suite struct DispatcherTests {
    struct Echo: VarlinkInterface {
        let name = "org.example.Echo"
        let description = "interface org.example.Echo\nmethod Say(text: string) -> (text: string)\nmethod Watch() -> ()\n"
        func handle(_ method: Substring, call: VarlinkCall, caller: VarlinkCaller) -> VarlinkOutcome {
            switch method {
            case "Say":
                if let unknown = call.parameters.keys.first(where: { $0 != "text" }) { return .error(.invalidParameter(unknown)) }
                guard case .string(let text)? = call.parameters["text"] else { return .error(.invalidParameter("text")) }
                return .reply(["text": .string(text)])
            case "Watch":
                return .stream { stream in stream.yield([:]) }
            default:
                return .error(.methodNotFound(call.method))
            }
        }
    }

    let dispatcher = VarlinkDispatcher(info: .init(vendor: "v", product: "p", version: "1", url: "u"), interfaces: [Echo()])
    let caller = VarlinkCaller(uid: 1000, gid: 1000, pid: 1, connectionID: 1)

    func reply(_ call: VarlinkCall) -> JSONObject? {
        if case .reply(let object) = dispatcher.dispatch(call, caller: caller) { return object }
        return nil
    }

    func error(_ call: VarlinkCall) -> VarlinkError? {
        if case .error(let error) = dispatcher.dispatch(call, caller: caller) { return error }
        return nil
    }

    @Test func serviceInterface() {
        let info = reply(VarlinkCall(method: "org.varlink.service.GetInfo"))
        #expect(info?["interfaces"] == ["org.varlink.service", "org.example.Echo"])
        #expect(
            reply(VarlinkCall(method: "org.varlink.service.GetInterfaceDescription", parameters: ["interface": "org.example.Echo"]))?[
                "description"] == .string(Echo().description))
        #expect(
            error(VarlinkCall(method: "org.varlink.service.GetInterfaceDescription", parameters: ["interface": "org.nope"]))
                == .interfaceNotFound("org.nope"))
        #expect(error(VarlinkCall(method: "org.varlink.service.GetInterfaceDescription")) == .invalidParameter("interface"))
    }

    @Test func routingAndStandardErrors() {
        #expect(reply(VarlinkCall(method: "org.example.Echo.Say", parameters: ["text": "hi"]))?["text"] == "hi")
        #expect(error(VarlinkCall(method: "org.example.Echo.Shout")) == .methodNotFound("org.example.Echo.Shout"))
        #expect(error(VarlinkCall(method: "org.nope.Say")) == .interfaceNotFound("org.nope"))
        #expect(error(VarlinkCall(method: "org.example.Echo.Say", parameters: ["text": 3])) == .invalidParameter("text"))
        #expect(error(VarlinkCall(method: "org.example.Echo.Say", parameters: ["txt": "x"])) == .invalidParameter("txt"))
        #expect(error(VarlinkCall(method: "org.example.Echo.Watch")) == .expectedMore)
        if case .stream = dispatcher.dispatch(VarlinkCall(method: "org.example.Echo.Watch", more: true), caller: caller) {
        } else {
            Issue.record("expected a stream")
        }
    }
}
