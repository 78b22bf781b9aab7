/// Why JSON does not fit an interface's type, naming the field as Varlink's
/// `InvalidParameter` does: a struct's field by its path
/// (`preferences.dateFormat`), anything inside an array or a map by the
/// array's or the map's own name (`arguments`).
public struct SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// A required field is absent or null.
        case missing
        /// The value is not of the field's type (or not one of an enum's cases).
        case mistyped
        /// The object has a field its type does not declare.
        case unknown
    }

    /// The field's path; empty for the value itself.
    public let field: String
    public let reason: Reason

    public init(field: String = "", _ reason: Reason) {
        self.field = field
        self.reason = reason
    }

    /// The error as seen from the field `name` that holds the value.
    @inlinable
    public func inField(_ name: String) -> SchemaError {
        SchemaError(field: field.isEmpty ? name : name + "." + field, reason)
    }

    public var description: String {
        switch reason {
        case .missing: "'\(field)' is missing"
        case .mistyped: "'\(field)' has the wrong type"
        case .unknown: "'\(field)' is not a field of this type"
        }
    }
}

/// What to do with a field an object's type does not declare: a call's
/// parameters reject it (a misspelled parameter is an error, not silently
/// ignored); a reply ignores it, so that a service may add fields.
public enum UnknownFields: Sendable {
    case reject, ignore
}

/// A value of a Varlink type, read from and written as JSON.
public protocol VarlinkValue: Sendable {
    /// Reads a value; a struct inside applies `unknownFields`.
    init(varlink value: JSONValue, unknownFields: UnknownFields) throws(SchemaError)
    /// The value as JSON.
    var varlinkValue: JSONValue { get }
    /// Writes the value as JSON, byte for byte as ``varlinkValue`` would be
    /// written, with no tree between (a reply's path).
    func write(to writer: inout JSONWriter)
}

extension VarlinkValue {
    /// By way of the tree, for a type that has no writer of its own.
    public func write(to writer: inout JSONWriter) {
        writer.write(varlinkValue)
    }
}

/// A Varlink struct: a type's, a method's parameters or reply, an error's.
public protocol VarlinkStruct: VarlinkValue {
    /// Reads the struct from an object.
    init(varlink object: JSONObject, unknownFields: UnknownFields) throws(SchemaError)
    /// The struct as an object: its set fields in the order the interface
    /// lists them; a nil optional is left out.
    var varlinkObject: JSONObject { get }
}

extension VarlinkStruct {
    @inlinable
    public init(varlink value: JSONValue, unknownFields: UnknownFields) throws(SchemaError) {
        guard case .object(let object) = value else { throw SchemaError(.mistyped) }
        try self.init(varlink: object, unknownFields: unknownFields)
    }

    @inlinable
    public var varlinkValue: JSONValue { .object(varlinkObject) }
}

/// A Varlink enum: its cases are strings.
public protocol VarlinkEnum: VarlinkValue, RawRepresentable where RawValue == String {}

extension VarlinkEnum {
    @inlinable
    public init(varlink value: JSONValue, unknownFields: UnknownFields) throws(SchemaError) {
        guard case .string(let text) = value, let known = Self(rawValue: text) else { throw SchemaError(.mistyped) }
        self = known
    }

    @inlinable
    public var varlinkValue: JSONValue { .string(rawValue) }

    public func write(to writer: inout JSONWriter) { writer.write(rawValue) }
}

/// A method of an interface: its qualified name and its two structs.
public protocol VarlinkMethod {
    associatedtype Parameters: VarlinkStruct
    associatedtype Reply: VarlinkStruct
    /// `org.lprojd.Localization.Lookup`.
    static var qualifiedName: String { get }
}

/// The errors an interface declares.
public protocol VarlinkErrors: Error, Sendable {
    /// Reads an error reply; nil when the name is none of the interface's.
    init?(qualifiedName: String, parameters: JSONObject) throws(SchemaError)
    /// `org.lprojd.Localization.BundleNotFound`.
    var qualifiedName: String { get }
    /// The error's fields.
    var parameters: JSONObject { get }
}

extension VarlinkErrors {
    /// The error as a Varlink error reply.
    public var varlinkError: VarlinkError { VarlinkError(qualifiedName, parameters) }
}

// MARK: Reading fields (for generated code)

/// Reads a field's value (nil when null), naming the field in an error.
@inlinable
public func varlinkField<Value: VarlinkValue>(_ name: String, _ value: JSONValue, _ unknownFields: UnknownFields) throws(SchemaError)
    -> Value?
{
    if case .null = value { return nil }
    do {
        return try Value(varlink: value, unknownFields: unknownFields)
    } catch {
        throw error.inField(name)
    }
}

/// A required field's value.
@inlinable
public func varlinkRequired<Value>(_ name: String, _ value: Value?) throws(SchemaError) -> Value {
    guard let value else { throw SchemaError(field: name, .missing) }
    return value
}

/// A field the object's type does not declare.
@inlinable
public func varlinkUnknownField(_ name: String, _ unknownFields: UnknownFields) throws(SchemaError) {
    if case .reject = unknownFields { throw SchemaError(field: name, .unknown) }
}

// MARK: The scalar types

extension String: VarlinkValue {
    @inlinable
    public init(varlink value: JSONValue, unknownFields: UnknownFields) throws(SchemaError) {
        guard case .string(let string) = value else { throw SchemaError(.mistyped) }
        self = string
    }

    @inlinable
    public var varlinkValue: JSONValue { .string(self) }

    public func write(to writer: inout JSONWriter) { writer.write(self) }
}

extension Bool: VarlinkValue {
    @inlinable
    public init(varlink value: JSONValue, unknownFields: UnknownFields) throws(SchemaError) {
        guard case .bool(let flag) = value else { throw SchemaError(.mistyped) }
        self = flag
    }

    @inlinable
    public var varlinkValue: JSONValue { .bool(self) }

    public func write(to writer: inout JSONWriter) { writer.append(self ? "true" : "false") }
}

/// `int`: a JSON number written as an integer that fits 64 bits.
extension Int: VarlinkValue {
    @inlinable
    public init(varlink value: JSONValue, unknownFields: UnknownFields) throws(SchemaError) {
        guard case .number(let number) = value, let integer = number.integer, let fitting = Int(exactly: integer) else {
            throw SchemaError(.mistyped)
        }
        self = fitting
    }

    @inlinable
    public var varlinkValue: JSONValue { .number(JSONNumber(Int64(self))) }

    public func write(to writer: inout JSONWriter) { writer.write(JSONNumber(Int64(self))) }
}

/// `float`: any JSON number, kept as written (how many fraction digits it
/// shows matters to plural rules: 1.50 is not 1.5).
extension JSONNumber: VarlinkValue {
    @inlinable
    public init(varlink value: JSONValue, unknownFields: UnknownFields) throws(SchemaError) {
        guard case .number(let number) = value else { throw SchemaError(.mistyped) }
        self = number
    }

    @inlinable
    public var varlinkValue: JSONValue { .number(self) }

    public func write(to writer: inout JSONWriter) { writer.write(self) }
}

/// `object`: any JSON, unread.
extension JSONValue: VarlinkValue {
    @inlinable
    public init(varlink value: JSONValue, unknownFields: UnknownFields) throws(SchemaError) {
        self = value
    }

    @inlinable
    public var varlinkValue: JSONValue { self }

    public func write(to writer: inout JSONWriter) { writer.write(self) }
}

// MARK: Arrays, maps and sets

// An error inside an array or a map names the array or the map: its
// elements have no names of their own.

extension Array: VarlinkValue where Element: VarlinkValue {
    @inlinable
    public init(varlink value: JSONValue, unknownFields: UnknownFields) throws(SchemaError) {
        guard case .array(let items) = value else { throw SchemaError(.mistyped) }
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for item in items {
            do {
                elements.append(try Element(varlink: item, unknownFields: unknownFields))
            } catch {
                throw SchemaError(error.reason)
            }
        }
        self = elements
    }

    @inlinable
    public var varlinkValue: JSONValue { .array(map(\.varlinkValue)) }

    public func write(to writer: inout JSONWriter) {
        writer.append("[")
        for (index, element) in enumerated() {
            if index > 0 { writer.append(",") }
            element.write(to: &writer)
        }
        writer.append("]")
    }
}

/// `[string]T`. Written in the dictionary's own order: a JSON object's
/// members have no order (RFC 8259), and sorting the keys took 40% of the
/// time of a `GetTable` reply (measured on tables of 200 and 20,000
/// strings). Whoever prints a map for people sorts it there.
extension Dictionary: VarlinkValue where Key == String, Value: VarlinkValue {
    @inlinable
    public init(varlink value: JSONValue, unknownFields: UnknownFields) throws(SchemaError) {
        guard case .object(let object) = value else { throw SchemaError(.mistyped) }
        var map: [String: Value] = [:]
        map.reserveCapacity(object.count)
        for (key, item) in object.members {
            do {
                map[key] = try Value(varlink: item, unknownFields: unknownFields)
            } catch {
                throw SchemaError(error.reason)
            }
        }
        self = map
    }

    @inlinable
    public var varlinkValue: JSONValue {
        var keys: [String] = []
        var values: [JSONValue] = []
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
        for (key, value) in self {
            keys.append(key)
            values.append(value.varlinkValue)
        }
        return .object(JSONObject(uniqueKeys: keys, values: values))
    }

    public func write(to writer: inout JSONWriter) {
        writer.append("{")
        var first = true
        for (key, value) in self {
            if !first { writer.append(",") }
            first = false
            writer.write(key)
            writer.append(":")
            value.write(to: &writer)
        }
        writer.append("}")
    }
}

/// `[string]()`: a set of strings, written as an object of empty objects.
extension Set: VarlinkValue where Element == String {
    @inlinable
    public init(varlink value: JSONValue, unknownFields: UnknownFields) throws(SchemaError) {
        guard case .object(let object) = value else { throw SchemaError(.mistyped) }
        self.init(object.keys)
    }

    @inlinable
    public var varlinkValue: JSONValue {
        .object(JSONObject(uniqueKeys: Array(self), values: Array(repeating: .object(JSONObject()), count: count)))
    }
}
