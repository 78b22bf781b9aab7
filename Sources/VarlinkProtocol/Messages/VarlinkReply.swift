/// A Varlink reply, as written to the wire.
public struct VarlinkReply: Sendable, Equatable {
    /// The reply's parameters (or the error's).
    public let parameters: JSONObject
    /// More replies follow.
    public let continues: Bool
    /// The error name, for an error reply.
    public let error: String?

    /// A successful reply.
    public init(parameters: JSONObject, continues: Bool = false) {
        self.parameters = parameters
        self.continues = continues
        self.error = nil
    }

    /// An error reply.
    public init(error: VarlinkError) {
        self.parameters = error.parameters
        self.continues = false
        self.error = error.name
    }

    /// The reply as a message, with its terminating NUL.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128)
        writer.append("{")
        if let error {
            writer.append("\"error\":")
            writer.write(error)
            writer.append(",")
        }
        writer.append("\"parameters\":")
        writer.write(parameters)
        if continues { writer.append(",\"continues\":true") }
        writer.append("}")
        writer.bytes.append(0)
        return writer.bytes
    }

    /// Writes a successful reply of `parameters`, with its terminating NUL.
    public static func write(parameters: some VarlinkValue, continues: Bool = false, to writer: inout JSONWriter) {
        writer.append("{\"parameters\":")
        parameters.write(to: &writer)
        writer.append(continues ? ",\"continues\":true}\0" : "}\0")
    }

    /// Reads a reply from one message (without its NUL), as a client does.
    public static func decode(_ message: UnsafeRawBufferPointer) throws(VarlinkError) -> VarlinkReply {
        guard case .object(let object)? = try? JSONParser.parse(message) else { throw .invalidParameter("reply") }
        let parameters: JSONObject
        switch object["parameters"] {
        case .object(let given)?: parameters = given
        case nil, .null?: parameters = [:]
        default: throw .invalidParameter("parameters")
        }
        if case .string(let name)? = object["error"] {
            return VarlinkReply(error: VarlinkError(name, parameters))
        }
        if case .bool(true)? = object["continues"] {
            return VarlinkReply(parameters: parameters, continues: true)
        }
        return VarlinkReply(parameters: parameters)
    }
}
