package import JSONText

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a call's values straight from its message into an interface's
/// types: no ``JSONValue`` tree between the bytes and the struct.
///
/// It is the server's fast path (``VarlinkDispatcher/dispatch(message:caller:maximumValues:)``),
/// and it only ever says yes or no: a message it cannot read, for whatever
/// reason, is read again by ``VarlinkCall/decode(_:maximumValues:)`` and
/// the types' `init(varlink:)`, which decide what the error is. So its
/// errors carry no detail, and the reply to a bad call is the same
/// whichever path met it first.
package struct VarlinkWireReader: ~Copyable {
    package var tokens: JSONTokenizer

    /// A reader of one message.
    package init(_ message: UnsafeRawBufferPointer, maximumValues: Int) {
        tokens = JSONTokenizer(message, maximumValues: maximumValues)
    }

    /// Why the fast path gave up; the reference path says why.
    package struct Unreadable: Error {
        package init() {}
    }

    /// A member's name as its bytes in the message, to match against the
    /// names a reader knows.
    package struct Name {
        package let bytes: UnsafeBufferPointer<UInt8>

        package init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// Whether the name is `literal` (ASCII).
        @inline(__always)
        package static func == (name: Name, literal: StaticString) -> Bool {
            name.bytes.count == literal.utf8CodeUnitCount
                && (name.bytes.isEmpty || memcmp(name.bytes.baseAddress!, literal.utf8Start, name.bytes.count) == 0)
        }
    }

    // MARK: For generated code

    /// Reads the `{` of a struct.
    package mutating func beginObject() throws(Unreadable) {
        do { try tokens.beginObject() } catch { throw Unreadable() }
    }

    /// The next field's name; nil at the end of the object. A name with an
    /// escape or past ASCII is no field's: the reference path reads it.
    package mutating func nextField() throws(Unreadable) -> Name? {
        do {
            switch try tokens.nextPlainKey() {
            case .name(let bytes): return Name(bytes)
            case .end: return nil
            case .notPlain: throw Unreadable()
            }
        } catch {
            throw Unreadable()
        }
    }

    /// The next key of a map; nil at the end of the object.
    package mutating func nextKey() throws(Unreadable) -> String? {
        do { return try tokens.nextKey() } catch { throw Unreadable() }
    }

    /// A string that needs no decoding, as its bytes (a call's method).
    package mutating func readPlainString() throws(Unreadable) -> Name? {
        do { return try tokens.readPlainASCIIString().map(Name.init) } catch { throw Unreadable() }
    }

    /// Reads a field's value, nil for `null`; a field met twice is refused,
    /// as the reference reader refuses a member that appears twice.
    /// `bit` is the field's in `seen`.
    package mutating func field<Value: VarlinkWireValue>(_ bit: UInt64, _ seen: inout UInt64) throws(Unreadable) -> Value? {
        guard seen & bit == 0 else { throw Unreadable() }
        seen |= bit
        return try Value.wireField(&self)
    }

    /// The next value's token (a container's start is only read).
    mutating func nextToken() throws(Unreadable) -> JSONToken {
        do { return try tokens.next() } catch { throw Unreadable() }
    }

    /// A number as the reference reader makes it, from its literal.
    func number(_ literal: JSONNumberLiteral) throws(Unreadable) -> JSONNumber {
        do { return try JSONParser.number(literal, tokens) } catch { throw Unreadable() }
    }

    /// Reads `null` if it comes next.
    package mutating func isNull() throws(Unreadable) -> Bool {
        do {
            guard try tokens.peekKind() == .null else { return false }
            try tokens.readNull()
            return true
        } catch {
            throw Unreadable()
        }
    }

    /// A required field's value.
    package func required<Value>(_ value: Value?) throws(Unreadable) -> Value {
        guard let value else { throw Unreadable() }
        return value
    }

    // MARK: Scalars

    mutating func readString() throws(Unreadable) -> String {
        do { return try tokens.readString() } catch { throw Unreadable() }
    }

    mutating func readBoolean() throws(Unreadable) -> Bool {
        do { return try tokens.readBoolean() } catch { throw Unreadable() }
    }

    /// A number as the reference reader makes it.
    mutating func readNumber() throws(Unreadable) -> JSONNumber {
        do {
            let literal = try tokens.readNumber()
            return try JSONParser.number(literal, tokens)
        } catch {
            throw Unreadable()
        }
    }

    /// Any value, as a tree (an `object` field), by the reference reader itself.
    mutating func readTree() throws(Unreadable) -> JSONValue {
        do { return try JSONParser.readValue(&tokens) } catch { throw Unreadable() }
    }

    mutating func beginArray() throws(Unreadable) {
        do { try tokens.beginArray() } catch { throw Unreadable() }
    }

    mutating func nextElement() throws(Unreadable) -> Bool {
        do { return try tokens.nextElement() } catch { throw Unreadable() }
    }
}

extension VarlinkWireReader {
    /// What a call's message says besides its method and parameters.
    package struct CallFlags {
        package var oneway = false
        package var more = false
    }

    /// Reads the rest of a call's message, after its method: the
    /// parameters, by `readParameters` from their `{` (from an empty object
    /// when the message has none, or `null`), then whether the caller wants
    /// no reply or more than one.
    package mutating func readRestOfCall(parameters readParameters: (inout VarlinkWireReader) throws(Unreadable) -> Void)
        throws(Unreadable) -> CallFlags
    {
        var seen: UInt64 = 0
        var read = false
        var flags = CallFlags()
        while let name = try nextField() {
            if name == "parameters" {
                guard seen & 1 == 0 else { throw Unreadable() }
                seen |= 1
                if try isNull() { continue }
                try readParameters(&self)
                read = true
            } else if name == "oneway" {
                flags.oneway = try field(2, &seen) ?? false
            } else if name == "more" {
                flags.more = try field(4, &seen) ?? false
            } else {
                throw Unreadable()
            }
        }
        do { try tokens.finish() } catch { throw Unreadable() }
        if !read {
            let readEmpty = Self.emptyObject.withUnsafeBytes { bytes in
                var empty = VarlinkWireReader(bytes, maximumValues: 1)
                do {
                    try readParameters(&empty)
                    return true
                } catch {
                    return false
                }
            }
            guard readEmpty else { throw Unreadable() }
        }
        guard !(flags.oneway && flags.more) else { throw Unreadable() }
        return flags
    }

    private static let emptyObject: [UInt8] = Array("{}".utf8)
}

/// A value of an interface's type that reads itself straight from a
/// message (``VarlinkWireReader``), into the same value as
/// `init(varlink:unknownFields: .reject)` makes of the same JSON, and
/// refuses what that refuses.
package protocol VarlinkWireValue: VarlinkValue {
    init(wire reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable)
    /// A field's value; nil for `null`.
    static func wireField(_ reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) -> Self?
}

extension VarlinkWireValue {
    package static func wireField(_ reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) -> Self? {
        if try reader.isNull() { return nil }
        return try Self(wire: &reader)
    }
}

// A scalar field is one token: read at once, `null` or the value.

extension String: VarlinkWireValue {
    package init(wire reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) {
        self = try reader.readString()
    }

    package static func wireField(_ reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) -> String? {
        switch try reader.nextToken() {
        case .string(let string): return string
        case .null: return nil
        default: throw VarlinkWireReader.Unreadable()
        }
    }
}

extension Bool: VarlinkWireValue {
    package init(wire reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) {
        self = try reader.readBoolean()
    }

    package static func wireField(_ reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) -> Bool? {
        switch try reader.nextToken() {
        case .bool(let flag): return flag
        case .null: return nil
        default: throw VarlinkWireReader.Unreadable()
        }
    }
}

extension Int: VarlinkWireValue {
    package init(wire reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) {
        self = try Self.fitting(reader.readNumber())
    }

    package static func wireField(_ reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) -> Int? {
        switch try reader.nextToken() {
        case .number(let literal): return try fitting(reader.number(literal))
        case .null: return nil
        default: throw VarlinkWireReader.Unreadable()
        }
    }

    /// `int`: written as an integer that fits, as `init(varlink:)` reads it.
    private static func fitting(_ number: JSONNumber) throws(VarlinkWireReader.Unreadable) -> Int {
        guard let integer = number.integer, let fitting = Int(exactly: integer) else { throw VarlinkWireReader.Unreadable() }
        return fitting
    }
}

extension JSONNumber: VarlinkWireValue {
    package init(wire reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) {
        self = try reader.readNumber()
    }

    package static func wireField(_ reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) -> JSONNumber? {
        switch try reader.nextToken() {
        case .number(let literal): return try reader.number(literal)
        case .null: return nil
        default: throw VarlinkWireReader.Unreadable()
        }
    }
}

extension JSONValue: VarlinkWireValue {
    package init(wire reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) {
        self = try reader.readTree()
    }
}

extension Array: VarlinkWireValue where Element: VarlinkWireValue {
    package init(wire reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) {
        try reader.beginArray()
        var elements: [Element] = []
        while try reader.nextElement() { elements.append(try Element(wire: &reader)) }
        self = elements
    }
}

extension Dictionary: VarlinkWireValue where Key == String, Value: VarlinkWireValue {
    package init(wire reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) {
        try reader.beginObject()
        var map: [String: Value] = [:]
        while let key = try reader.nextKey() {
            // A key met twice: the reference reader refuses the message.
            guard map.updateValue(try Value(wire: &reader), forKey: key) == nil else { throw VarlinkWireReader.Unreadable() }
        }
        self = map
    }
}

extension Set: VarlinkWireValue where Element == String {
    package init(wire reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) {
        try reader.beginObject()
        var set = Set<String>()
        while let key = try reader.nextKey() {
            // The members' values are not read by the reference reader
            // either, but they must be JSON without a member twice.
            _ = try reader.readTree()
            guard set.insert(key).inserted else { throw VarlinkWireReader.Unreadable() }
        }
        self = set
    }
}

extension VarlinkEnum {
    package init(wire reader: inout VarlinkWireReader) throws(VarlinkWireReader.Unreadable) {
        guard let known = Self(rawValue: try reader.readString()) else { throw VarlinkWireReader.Unreadable() }
        self = known
    }
}
