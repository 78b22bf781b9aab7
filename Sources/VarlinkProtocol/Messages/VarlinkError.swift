/// A Varlink error reply: a qualified name and its parameters.
public struct VarlinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The fully qualified error name, such as `org.varlink.service.MethodNotFound`.
    public let name: String
    /// The error's parameters.
    public let parameters: JSONObject

    /// Creates an error.
    public init(_ name: String, _ parameters: JSONObject = [:]) {
        self.name = name
        self.parameters = parameters
    }

    public var description: String {
        parameters.isEmpty ? name : "\(name) \(String(decoding: JSONWriter.encode(.object(parameters)), as: UTF8.self))"
    }

    // The errors of `org.varlink.service`.

    /// The interface is not served here.
    public static func interfaceNotFound(_ interface: String) -> VarlinkError {
        VarlinkError("org.varlink.service.InterfaceNotFound", ["interface": .string(interface)])
    }

    /// The method does not exist; `method` is fully qualified.
    public static func methodNotFound(_ method: String) -> VarlinkError {
        VarlinkError("org.varlink.service.MethodNotFound", ["method": .string(method)])
    }

    /// The method exists but is not implemented.
    public static func methodNotImplemented(_ method: String) -> VarlinkError {
        VarlinkError("org.varlink.service.MethodNotImplemented", ["method": .string(method)])
    }

    /// A parameter is missing, of the wrong type, or out of range.
    public static func invalidParameter(_ parameter: String) -> VarlinkError {
        VarlinkError("org.varlink.service.InvalidParameter", ["parameter": .string(parameter)])
    }

    /// The caller may not do this (systemd's extension).
    public static let permissionDenied = VarlinkError("org.varlink.service.PermissionDenied")

    /// The method must be called with `more` (systemd's extension).
    public static let expectedMore = VarlinkError("org.varlink.service.ExpectedMore")

    /// A message of more JSON values than the server allows: an
    /// `InvalidParameter(message)` that says so (`values`), which a server
    /// answers with its own limit error.
    public static func tooManyValues(_ maximum: Int) -> VarlinkError {
        VarlinkError("org.varlink.service.InvalidParameter", ["parameter": "message", "values": .int(maximum)])
    }

    /// Whether this is ``tooManyValues(_:)``.
    public var isTooManyValues: Bool { name == "org.varlink.service.InvalidParameter" && parameters["values"] != nil }
}
