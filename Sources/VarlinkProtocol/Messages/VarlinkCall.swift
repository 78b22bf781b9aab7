/// A Varlink method call, as read from the wire.
public struct VarlinkCall: Sendable, Equatable {
    /// The fully qualified method: `interface.Method`.
    public let method: String
    /// The parameters (an empty object when omitted).
    public let parameters: JSONObject
    /// The caller wants no reply.
    public let oneway: Bool
    /// The caller accepts several replies.
    public let more: Bool

    /// Creates a call.
    public init(method: String, parameters: JSONObject = [:], oneway: Bool = false, more: Bool = false) {
        self.method = method
        self.parameters = parameters
        self.oneway = oneway
        self.more = more
    }

    /// The interface part of ``method``.
    public var interface: Substring {
        guard let dot = lastDot else { return "" }
        return method[..<dot]
    }

    /// The method name without its interface.
    public var methodName: Substring {
        guard let dot = lastDot else { return method[...] }
        return method[method.utf8.index(after: dot)...]
    }

    /// The last '.', found on the UTF-8 view: no grapheme breaking on the
    /// path of every call.
    private var lastDot: String.Index? {
        method.utf8.lastIndex(of: UInt8(ascii: "."))
    }

    /// Reads a call from one message (without its NUL).
    ///
    /// Like systemd, only `method`, `parameters`, `oneway` and `more` are
    /// accepted; `upgrade` is not supported. Problems are reported as
    /// `org.varlink.service.InvalidParameter` naming the offending field.
    ///
    /// A message of more than `maximumValues` JSON values is refused with
    /// ``VarlinkError/tooManyValues(_:)``, before it is all in memory.
    public static func decode(_ message: UnsafeRawBufferPointer, maximumValues: Int = .max) throws(VarlinkError) -> VarlinkCall {
        let value: JSONValue
        do {
            value = try JSONParser.parse(message, maximumValues: maximumValues)
        } catch {
            if error.isOverValueLimit { throw .tooManyValues(maximumValues) }
            throw .invalidParameter("message")
        }
        guard case .object(let object) = value else { throw .invalidParameter("message") }
        var method: String?
        var parameters = JSONObject()
        var oneway = false, more = false
        for (key, value) in object.members {
            switch (key, value) {
            case ("method", .string(let name)): method = name
            case ("parameters", .object(let given)): parameters = given
            case ("parameters", .null): break
            case ("oneway", .bool(let flag)): oneway = flag
            case ("more", .bool(let flag)): more = flag
            case ("oneway", .null), ("more", .null): break
            default: throw .invalidParameter(key)
            }
        }
        guard let method, Self.isQualifiedMethod(method) else { throw .invalidParameter("method") }
        if oneway && more { throw .invalidParameter("more") }
        return VarlinkCall(method: method, parameters: parameters, oneway: oneway, more: more)
    }

    /// `interface.Method`: a lowercase dotted interface and a capitalized method.
    static func isQualifiedMethod(_ text: String) -> Bool {
        let bytes = text.utf8
        guard bytes.count <= 512, let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot != bytes.startIndex else { return false }
        let name = bytes[bytes.index(after: dot)...]
        guard let first = name.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else { return false }
        return name.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// The call as a message (without the NUL), as a client writes it.
    public func encoded() -> [UInt8] {
        var object: JSONObject = ["method": .string(method)]
        if !parameters.isEmpty { object["parameters"] = .object(parameters) }
        if oneway { object["oneway"] = true }
        if more { object["more"] = true }
        return JSONWriter.encode(.object(object))
    }
}
