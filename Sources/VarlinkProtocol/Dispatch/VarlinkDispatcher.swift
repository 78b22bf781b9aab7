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

    /// A dispatcher for these interfaces.
    public init(info: Info, interfaces: [any VarlinkInterface]) {
        self.info = info
        self.interfaces = interfaces
        self.interfaceNames = ["org.varlink.service"] + interfaces.map(\.name)
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
