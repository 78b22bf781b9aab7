/// A JSON value, as Varlink messages carry them.
///
/// Objects keep their members in order in two parallel arrays: messages
/// have a handful of members, and a linear scan of short keys beats hashing.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON number: its value, and what its text said about it.
public struct JSONNumber: Sendable, Equatable {
    /// The value as a double.
    public let double: Double
    /// The value as an integer, if the text was an integer that fits.
    public let integer: Int64?
    /// Digits written after the decimal point ("1.50" has 2; "1e-3" has 3).
    public let fractionDigits: Int

    /// A number from an integer.
    public init(_ integer: Int64) {
        self.double = Double(integer)
        self.integer = integer
        self.fractionDigits = 0
    }

    /// A number from a double; `fractionDigits` as written, if known.
    public init(_ double: Double, fractionDigits: Int = 0) {
        self.double = double
        self.integer = nil
        self.fractionDigits = fractionDigits
    }

    init(double: Double, integer: Int64?, fractionDigits: Int) {
        self.double = double
        self.integer = integer
        self.fractionDigits = fractionDigits
    }

    /// Numbers are equal when their values are; how they were written
    /// (1.5 or 1.50) does not matter.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if let left = lhs.integer, let right = rhs.integer { return left == right }
        return lhs.double == rhs.double
    }
}

/// A JSON object with its members in order.
public struct JSONObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    public private(set) var keys: [String]
    public private(set) var values: [JSONValue]

    /// An empty object.
    public init() {
        keys = []
        values = []
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        keys = elements.map(\.0)
        values = elements.map(\.1)
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// The value of a member; setting `nil` removes it.
    public subscript(key: String) -> JSONValue? {
        get {
            for index in keys.indices where keys[index] == key { return values[index] }
            return nil
        }
        set {
            if let index = keys.firstIndex(of: key) {
                if let newValue { values[index] = newValue } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Appends a member without checking for an existing one (the caller
    /// knows the key is new); the parser uses it after its own check.
    mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
    }

    /// The members in order.
    public var members: Zip2Sequence<[String], [JSONValue]> { zip(keys, values) }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in lhs.members where rhs[key] != value { return false }
        return true
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .number(JSONNumber(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
    public init(nilLiteral: ()) { self = .null }

    /// An integer value.
    public static func int(_ value: Int) -> JSONValue { .number(JSONNumber(Int64(value))) }
}
