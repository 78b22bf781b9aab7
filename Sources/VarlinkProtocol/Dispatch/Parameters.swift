/// Typed access to a call's parameters, failing with
/// `org.varlink.service.InvalidParameter` naming the parameter.
public struct Parameters: Sendable {
    private let object: JSONObject

    /// Wraps a call's parameters after checking that every name is one the
    /// method takes: a misspelled parameter is an error, not silently ignored.
    /// (`allowed` is a short list; comparing beats hashing on every call.)
    public init(_ object: JSONObject, allowed: [String]) throws(VarlinkError) {
        for key in object.keys where !allowed.contains(key) { throw .invalidParameter(key) }
        self.object = object
    }

    private func value(_ name: String) -> JSONValue? {
        guard let value = object[name], value != .null else { return nil }
        return value
    }

    /// A required string.
    public func string(_ name: String) throws(VarlinkError) -> String {
        guard let value = try optionalString(name) else { throw .invalidParameter(name) }
        return value
    }

    /// An optional string.
    public func optionalString(_ name: String) throws(VarlinkError) -> String? {
        guard let value = value(name) else { return nil }
        guard case .string(let string) = value else { throw .invalidParameter(name) }
        return string
    }

    /// An optional boolean.
    public func optionalBool(_ name: String) throws(VarlinkError) -> Bool? {
        guard let value = value(name) else { return nil }
        guard case .bool(let flag) = value else { throw .invalidParameter(name) }
        return flag
    }

    /// An optional integer.
    public func optionalInt(_ name: String) throws(VarlinkError) -> Int64? {
        guard let value = value(name) else { return nil }
        guard case .number(let number) = value, let integer = number.integer else { throw .invalidParameter(name) }
        return integer
    }

    /// An optional number (an integer is a number too).
    public func optionalDouble(_ name: String) throws(VarlinkError) -> Double? {
        guard let value = value(name) else { return nil }
        guard case .number(let number) = value else { throw .invalidParameter(name) }
        return number.double
    }

    /// An optional object, for the caller to read further.
    public func optionalObject(_ name: String) throws(VarlinkError) -> JSONObject? {
        guard let value = value(name) else { return nil }
        guard case .object(let object) = value else { throw .invalidParameter(name) }
        return object
    }

    /// An optional array of strings.
    public func optionalStrings(_ name: String) throws(VarlinkError) -> [String]? {
        guard let value = value(name) else { return nil }
        guard case .array(let items) = value else { throw .invalidParameter(name) }
        var strings: [String] = []
        strings.reserveCapacity(items.count)
        for item in items {
            guard case .string(let string) = item else { throw .invalidParameter(name) }
            strings.append(string)
        }
        return strings
    }

    /// An optional map of strings.
    public func optionalStringMap(_ name: String) throws(VarlinkError) -> [String: String]? {
        guard let value = value(name) else { return nil }
        guard case .object(let map) = value else { throw .invalidParameter(name) }
        var result: [String: String] = [:]
        for (key, item) in map.members {
            guard case .string(let string) = item else { throw .invalidParameter(name) }
            result[key] = string
        }
        return result
    }

    /// An optional array of anything, for the caller to read further.
    public func optionalArray(_ name: String) throws(VarlinkError) -> [JSONValue]? {
        guard let value = value(name) else { return nil }
        guard case .array(let items) = value else { throw .invalidParameter(name) }
        return items
    }
}
