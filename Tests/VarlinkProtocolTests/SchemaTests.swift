import Testing
@testable import VarlinkProtocol

/// A struct written as the generator writes one, to test the runtime it
/// relies on without depending on generated code.
struct Sample: VarlinkStruct, Equatable {
    enum Mode: String, VarlinkEnum { case fast, `default` }
    var name: String
    var count: Int?
    var ratio: JSONNumber?
    var mode: Mode?
    var inner: Inner?
    var items: [Inner]?
    var labels: [String: String]?

    struct Inner: VarlinkStruct, Equatable {
        var flag: Bool
        init(flag: Bool) { self.flag = flag }
        init(varlink object: JSONObject, unknownFields: UnknownFields) throws(SchemaError) {
            var _flag: Bool?
            for (name, value) in object.members {
                switch name {
                case "flag": _flag = try varlinkField(name, value, unknownFields)
                default: try varlinkUnknownField(name, unknownFields)
                }
            }
            self.init(flag: try varlinkRequired("flag", _flag))
        }
        var varlinkObject: JSONObject { ["flag": flag.varlinkValue] }
    }

    init(
        name: String, count: Int? = nil, ratio: JSONNumber? = nil, mode: Mode? = nil, inner: Inner? = nil, items: [Inner]? = nil,
        labels: [String: String]? = nil
    ) {
        (self.name, self.count, self.ratio, self.mode, self.inner, self.items, self.labels) = (
            name, count, ratio, mode, inner, items, labels
        )
    }

    init(varlink object: JSONObject, unknownFields: UnknownFields) throws(SchemaError) {
        var _name: String?, _count: Int?, _ratio: JSONNumber?, _mode: Mode?, _inner: Inner?, _items: [Inner]?, _labels: [String: String]?
        for (name, value) in object.members {
            switch name {
            case "name": _name = try varlinkField(name, value, unknownFields)
            case "count": _count = try varlinkField(name, value, unknownFields)
            case "ratio": _ratio = try varlinkField(name, value, unknownFields)
            case "mode": _mode = try varlinkField(name, value, unknownFields)
            case "inner": _inner = try varlinkField(name, value, unknownFields)
            case "items": _items = try varlinkField(name, value, unknownFields)
            case "labels": _labels = try varlinkField(name, value, unknownFields)
            default: try varlinkUnknownField(name, unknownFields)
            }
        }
        self.init(
            name: try varlinkRequired("name", _name), count: _count, ratio: _ratio, mode: _mode, inner: _inner, items: _items,
            labels: _labels)
    }

    var varlinkObject: JSONObject {
        var object = JSONObject()
        object.appendUnchecked("name", name.varlinkValue)
        if let value = count { object.appendUnchecked("count", value.varlinkValue) }
        if let value = ratio { object.appendUnchecked("ratio", value.varlinkValue) }
        if let value = mode { object.appendUnchecked("mode", value.varlinkValue) }
        if let value = inner { object.appendUnchecked("inner", value.varlinkValue) }
        if let value = items { object.appendUnchecked("items", value.varlinkValue) }
        if let value = labels { object.appendUnchecked("labels", value.varlinkValue) }
        return object
    }
}

@Suite struct SchemaTests {
    func object(_ text: String) throws -> JSONObject {
        guard case .object(let object) = try JSONParser.parse(Array(text.utf8)) else { throw SchemaError(.mistyped) }
        return object
    }

    func decode(_ text: String, _ unknownFields: UnknownFields = .reject) throws -> Sample {
        try Sample(varlink: object(text), unknownFields: unknownFields)
    }

    func failure(_ text: String, _ unknownFields: UnknownFields = .reject) throws -> SchemaError? {
        do {
            _ = try Sample(varlink: try object(text), unknownFields: unknownFields)
            return nil
        } catch let error as SchemaError {
            return error
        }
    }

    @Test func readsEveryKindOfField() throws {
        let sample = try decode(
            #"{"name":"a","count":3,"ratio":1.50,"mode":"default","inner":{"flag":true},"items":[{"flag":false}],"labels":{"b":"2","a":"1"}}"#
        )
        #expect(
            sample
                == Sample(
                    name: "a", count: 3, ratio: JSONNumber(1.5), mode: .default, inner: .init(flag: true), items: [.init(flag: false)],
                    labels: ["a": "1", "b": "2"]))
        #expect(sample.ratio?.fractionDigits == 2)
    }

    @Test func nullIsAbsent() throws {
        #expect(try decode(#"{"name":"a","count":null}"#) == Sample(name: "a"))
        #expect(try failure(#"{"name":null}"#) == SchemaError(field: "name", .missing))
    }

    @Test func namesTheFieldThatIsWrong() throws {
        #expect(try failure(#"{}"#) == SchemaError(field: "name", .missing))
        #expect(try failure(#"{"name":1}"#) == SchemaError(field: "name", .mistyped))
        #expect(try failure(#"{"name":"a","count":1.5}"#) == SchemaError(field: "count", .mistyped))
        #expect(try failure(#"{"name":"a","count":"1"}"#) == SchemaError(field: "count", .mistyped))
        #expect(try failure(#"{"name":"a","mode":"slow"}"#) == SchemaError(field: "mode", .mistyped))
        #expect(try failure(#"{"name":"a","inner":{}}"#) == SchemaError(field: "inner.flag", .missing))
        #expect(try failure(#"{"name":"a","inner":{"flag":1}}"#) == SchemaError(field: "inner.flag", .mistyped))
        #expect(try failure(#"{"name":"a","inner":{"flag":true,"other":1}}"#) == SchemaError(field: "inner.other", .unknown))
        // Inside an array or a map, the array or the map is named.
        #expect(try failure(#"{"name":"a","items":[{"flag":true},{"flag":"no"}]}"#) == SchemaError(field: "items", .mistyped))
        #expect(try failure(#"{"name":"a","items":[{}]}"#) == SchemaError(field: "items", .missing))
        #expect(try failure(#"{"name":"a","labels":{"x":1}}"#) == SchemaError(field: "labels", .mistyped))
    }

    @Test func unknownFieldsAreRejectedInCallsAndIgnoredInReplies() throws {
        #expect(try failure(#"{"name":"a","colour":"red"}"#) == SchemaError(field: "colour", .unknown))
        #expect(
            try decode(#"{"name":"a","colour":"red","inner":{"flag":true,"more":[]}}"#, .ignore)
                == Sample(name: "a", inner: .init(flag: true)))
        // Ignoring unknown fields never excuses a known one.
        #expect(try failure(#"{"colour":"red"}"#, .ignore) == SchemaError(field: "name", .missing))
    }

    @Test func writesSetFieldsInOrderAndMapsWhole() throws {
        let sample = Sample(name: "a", count: 2, labels: ["é": "3", "b": "2", "a": "1"])
        let text = String(decoding: JSONWriter.encode(.object(sample.varlinkObject)), as: UTF8.self)
        // Fields in the IDL's order; a map's members in no set order (JSON
        // objects have none), each once.
        #expect(text.hasPrefix(#"{"name":"a","count":2,"labels":{"#))
        let labels = text.dropFirst(#"{"name":"a","count":2,"labels":{"#.count).dropLast(2)
        #expect(labels.split(separator: ",").map(String.init).sorted() == [#""a":"1""#, #""b":"2""#, #""é":"3""#])
        #expect(try Sample(varlink: sample.varlinkObject, unknownFields: .reject) == sample)
    }

    @Test func integersMustFit() throws {
        #expect(try failure(#"{"name":"a","count":9223372036854775808}"#) == SchemaError(field: "count", .mistyped))
        #expect(try decode(#"{"name":"a","count":-9223372036854775808}"#).count == Int.min)
    }
}
