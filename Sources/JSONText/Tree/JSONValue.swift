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
///
/// Members live in two parallel arrays: call messages have a handful of
/// members, and a scan of short keys beats hashing them. Past
/// ``indexThreshold`` members an index from key to position is kept beside
/// them, so that reading, adding and checking for duplicates stay O(1) per
/// member and a large object costs O(n) to parse or build, never O(n²).
public struct JSONObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    public private(set) var keys: [String]
    public private(set) var values: [JSONValue]
    /// Positions by key, once the object is large enough to need it.
    private var index: [String: Int]?

    /// Members beyond which lookups go through an index.
    static let indexThreshold = 12

    /// An empty object.
    public init() {
        keys = []
        values = []
    }

    /// An empty object with room for `capacity` members.
    public init(minimumCapacity capacity: Int) {
        keys = []
        values = []
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
        if capacity > Self.indexThreshold { index = Dictionary(minimumCapacity: capacity) }
    }

    /// An object of members whose keys the caller knows are distinct (an
    /// encoder writing a map). It has no index: such an object is written,
    /// not searched, and a search of a large one is linear.
    public init(uniqueKeys keys: [String], values: [JSONValue]) {
        precondition(keys.count == values.count, "a key for every value")
        self.keys = keys
        self.values = values
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// The position of a member.
    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        for position in keys.indices where keys[position] == key { return position }
        return nil
    }

    /// The value of a member; setting `nil` removes it.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { values[$0] } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    values[position] = newValue
                } else {
                    keys.remove(at: position)
                    values.remove(at: position)
                    if index != nil { rebuildIndex() }
                }
            } else if let newValue {
                appendUnchecked(key, newValue)
            }
        }
    }

    /// Adds a member the caller knows is new (the parser, after its own
    /// check; a builder whose keys come from a dictionary).
    public mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
        if index != nil {
            index![key] = keys.count - 1
        } else if keys.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    /// Adds a member unless the key is already there; returns whether it was added.
    mutating func appendIfNew(_ key: String, _ value: JSONValue) -> Bool {
        guard position(of: key) == nil else { return false }
        appendUnchecked(key, value)
        return true
    }

    private mutating func rebuildIndex() {
        guard keys.count > Self.indexThreshold else {
            index = nil
            return
        }
        var built = [String: Int](minimumCapacity: keys.count)
        for (position, key) in keys.enumerated() { built[key] = position }
        index = built
    }

    /// The members in order.
    public var members: Zip2Sequence<[String], [JSONValue]> { zip(keys, values) }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in lhs.members where rhs[key] != value { return false }
        return true
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
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

/// A `float` field written as a literal: `number: 1234.5`, `date: 0`.
extension JSONNumber: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public init(floatLiteral value: Double) { self.init(value) }
    public init(integerLiteral value: Int64) { self.init(value) }

    public var description: String { integer.map(String.init) ?? "\(double)" }
}
