/// A strict JSON parser (RFC 8259) over UTF-8 bytes: values built from
/// `JSONTokenizer`'s tokens.
///
/// Written by hand because it sits on every call's path: Foundation's
/// decoders cost several microseconds a message, which would cap pipelined
/// lookups well below lprojd's target. The tokenizer rejects invalid UTF-8,
/// control characters in strings, trailing garbage, numbers a `Double`
/// cannot hold, nesting deeper than ``maximumDepth`` and more values than
/// allowed; the parser adds duplicate keys. Numbers keep how many fraction
/// digits they were written with.
public struct JSONParser {
    /// Why a text is not JSON, and where.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The byte offset where parsing stopped.
        public let offset: Int
        /// What was expected there.
        public let message: String
        /// The text holds more values than the parser was allowed.
        public var isOverValueLimit = false

        public var description: String { "invalid JSON at byte \(offset): \(message)" }
    }

    /// How deeply arrays and objects may nest.
    public static let maximumDepth = JSONTokenizer.maximumDepth

    /// Parses one JSON value filling all of `bytes` (whitespace aside), of
    /// at most `maximumValues` values in all.
    public static func parse(_ bytes: UnsafeRawBufferPointer, maximumValues: Int = .max) throws(Error) -> JSONValue {
        var tokens = JSONTokenizer(bytes, maximumValues: maximumValues)
        let value = try readValue(&tokens)
        do {
            try tokens.finish()
        } catch {
            throw Error(error)
        }
        return value
    }

    /// Parses JSON text given as bytes.
    public static func parse(_ bytes: [UInt8]) throws(Error) -> JSONValue {
        try bytes.withUnsafeBytes { buffer in Result { () throws(Error) in try parse(buffer) } }.get()
    }

    /// The next value. Members and elements are asked for as such, so that
    /// only values come as ``JSONToken``s.
    package static func readValue(_ tokens: inout JSONTokenizer) throws(Error) -> JSONValue {
        let token: JSONToken
        do {
            token = try tokens.next()
        } catch {
            throw Error(error)
        }
        switch consume token {
        case .string(let string):
            return .string(string)
        case .number(let literal):
            return .number(try number(literal, tokens))
        case .bool(let flag):
            return .bool(flag)
        case .null:
            return .null
        case .objectStart:
            var object = JSONObject()
            while let key = try nextKey(&tokens) {
                let keyOffset = tokens.tokenStart
                guard object.appendIfNew(key, try readValue(&tokens)) else {
                    throw Error(offset: keyOffset, message: "the member \"\(key.prefix(64))\" appears twice")
                }
            }
            return .object(object)
        case .arrayStart:
            var array: [JSONValue] = []
            while try nextElement(&tokens) { array.append(try readValue(&tokens)) }
            return .array(array)
        case .objectEnd, .arrayEnd, .key, .end:
            // The tokenizer gives a value where one must start.
            preconditionFailure("no value where one starts")
        }
    }

    private static func nextKey(_ tokens: inout JSONTokenizer) throws(Error) -> String? {
        do {
            return try tokens.nextKey()
        } catch {
            throw Error(error)
        }
    }

    private static func nextElement(_ tokens: inout JSONTokenizer) throws(Error) -> Bool {
        do {
            return try tokens.nextElement()
        } catch {
            throw Error(error)
        }
    }

    package static func number(_ literal: JSONNumberLiteral, _ tokens: borrowing JSONTokenizer) throws(Error) -> JSONNumber {
        let text = tokens.text(of: literal)
        if literal.isInteger, let integer = Int64(text) {
            return JSONNumber(double: Double(integer), integer: integer, fractionDigits: 0)
        }
        // The tokenizer refuses what a Double cannot hold; no path builds an infinity.
        guard let double = Double(text), double.isFinite else {
            throw Error(offset: literal.range.lowerBound, message: "a number out of range")
        }
        return JSONNumber(double: double, integer: nil, fractionDigits: literal.fractionDigits)
    }
}

extension JSONParser.Error {
    init(_ error: JSONSyntaxError) {
        offset = error.offset
        message = error.message
        if case .tooManyValues = error.reason { isOverValueLimit = true }
    }

    init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}
