/// Routes calls to interfaces, and serves `org.varlink.service` itself.
public struct VarlinkDispatcher: Sendable {
    /// What `GetInfo` reports.
    public struct Info: Sendable {
        public var vendor: String
        public var product: String
        public var version: String
        public var url: String

        /// Creates the service's description.
        public init(vendor: String, product: String, version: String, url: String) {
            self.vendor = vendor
            self.product = product
            self.version = version
            self.url = url
        }
    }

    private let info: Info
    /// Few interfaces: a scan comparing names beats hashing a new string.
    private let interfaces: [any VarlinkInterface]
    private let interfaceNames: [String]

    /// The interfaces whose calls are read straight into their types, with
    /// their names as the method's prefix (`org.lprojd.Localization.`).
    private let typedInterfaces: [(prefix: [UInt8], interface: any VarlinkTypedInterface)]

    /// A dispatcher for these interfaces.
    public init(info: Info, interfaces: [any VarlinkInterface]) {
        self.info = info
        self.interfaces = interfaces
        self.interfaceNames = ["org.varlink.service"] + interfaces.map(\.name)
        self.typedInterfaces = interfaces.compactMap { interface in
            (interface as? any VarlinkTypedInterface).map { (Array(($0.name + ".").utf8), $0) }
        }
    }

    /// What a message comes to: its outcome, and whether the caller wants
    /// no reply (`oneway`).
    package struct Dispatched {
        package let outcome: VarlinkOutcome
        package let oneway: Bool

        /// An interface's outcome for a call with these flags: a stream
        /// needs `more`.
        package init(_ outcome: VarlinkOutcome, _ flags: VarlinkWireReader.CallFlags) {
            if case .stream = outcome, !flags.more {
                self.outcome = .error(.expectedMore)
            } else {
                self.outcome = outcome
            }
            oneway = flags.oneway
        }

        init(outcome: VarlinkOutcome, oneway: Bool) {
            self.outcome = outcome
            self.oneway = oneway
        }
    }

    /// Answers a call as it came in a message (without its NUL).
    ///
    /// A call to a ``VarlinkTypedInterface`` whose message starts with its
    /// method, as clients write them, is read straight into the
    /// interface's types. Any other message, and any message that path
    /// cannot read, is read as a ``VarlinkCall`` and answered by
    /// ``dispatch(_:caller:)``: that path is the one that decides what is
    /// wrong with a message, so a bad call gets the same error either way.
    package func dispatch(message: UnsafeRawBufferPointer, caller: VarlinkCaller, maximumValues: Int) throws(VarlinkError)
        -> Dispatched
    {
        if !typedInterfaces.isEmpty, let answered = dispatchTyped(message, caller: caller, maximumValues: maximumValues) {
            return answered
        }
        let call = try VarlinkCall.decode(message, maximumValues: maximumValues)
        return Dispatched(outcome: dispatch(call, caller: caller), oneway: call.oneway)
    }

    /// The typed path: nil when the message is not one it reads.
    func dispatchTyped(_ message: UnsafeRawBufferPointer, caller: VarlinkCaller, maximumValues: Int) -> Dispatched? {
        var reader = VarlinkWireReader(message, maximumValues: maximumValues)
        do {
            try reader.beginObject()
            guard let first = try reader.nextField(), first == "method", let method = try reader.readPlainString() else { return nil }
            let bytes = method.bytes
            for (prefix, interface) in typedInterfaces where bytes.count > prefix.count && bytes.starts(with: prefix) {
                let name = VarlinkWireReader.Name(UnsafeBufferPointer(rebasing: bytes[prefix.count...]))
                return interface.answer(method: name, rest: &reader, caller: caller)
            }
            return nil
        } catch {
            return nil
        }
    }

    /// Answers a call.
    public func dispatch(_ call: VarlinkCall, caller: VarlinkCaller) -> VarlinkOutcome {
        let interfaceName = call.interface
        if interfaceName == "org.varlink.service" {
            return serviceCall(call)
        }
        guard let interface = interfaces.first(where: { $0.name == interfaceName }) else {
            return .error(.interfaceNotFound(String(interfaceName)))
        }
        let outcome = interface.handle(call.methodName, call: call, caller: caller)
        if case .stream = outcome, !call.more { return .error(.expectedMore) }
        return outcome
    }

    private func serviceCall(_ call: VarlinkCall) -> VarlinkOutcome {
        switch call.methodName {
        case "GetInfo":
            return .reply([
                "vendor": .string(info.vendor), "product": .string(info.product), "version": .string(info.version),
                "url": .string(info.url), "interfaces": .array(interfaceNames.map(JSONValue.string)),
            ])
        case "GetInterfaceDescription":
            guard case .string(let name)? = call.parameters["interface"] else { return .error(.invalidParameter("interface")) }
            if name == "org.varlink.service" { return .reply(["description": .string(Self.serviceDescription)]) }
            guard let interface = interfaces.first(where: { $0.name == name }) else { return .error(.interfaceNotFound(name)) }
            return .reply(["description": .string(interface.description)])
        default:
            return .error(.methodNotFound(call.method))
        }
    }

    /// The standard `org.varlink.service` interface, with systemd's two
    /// extra errors.
    public static let serviceDescription = """
        # The Varlink Service Interface is provided by every varlink service. It
        # describes the service and the interfaces it implements.
        interface org.varlink.service

        # Get a list of all the interfaces a service provides and information
        # about the implementation.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # Get the description of an interface that is implemented by this service.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found
        error MethodNotFound (method: string)

        # The interface defines the requested method, but the service does not
        # implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        # Client is denied access
        error PermissionDenied ()

        # Method is expected to be called with 'more' set to true, but wasn't
        error ExpectedMore ()

        """
}
