import JSONText

/// Where an app's code uses each key: the `file:line` places that
/// `lproj-extract --references` finds, and `lprojctl po export
/// --references` writes as the `#:` comments gettext translators read.
///
/// The file is this type's JSON, written and read only here:
///
///     {
///       "format" : "lproj-extract references 1",
///       "tables" : {
///         "Localizable" : {
///           "greeting" : [ "Sources/App/Greeting.swift:12", "Sources/App/Main.swift:40" ]
///         }
///       }
///     }
public struct SourceReferences: Sendable, Equatable {
    /// The `format` member: the file's kind and version, so that a file of
    /// another kind (an `.xcstrings`, say) is refused by name.
    public static let format = "lproj-extract references 1"

    /// A file that is not one: where and why.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The places by table, then key, in the order they were added, each once.
    private var places: [String: [String: [String]]] = [:]

    public init() {}

    /// Adds one place where the code uses `key` of `table` (`file:line`).
    public mutating func add(table: String, key: String, place: String) {
        if places[table]?[key]?.contains(place) == true { return }
        places[table, default: [:]][key, default: []].append(place)
    }

    /// Where the code uses a key; empty when it is not known.
    public func places(table: String, key: String) -> [String] {
        places[table]?[key] ?? []
    }

    /// The file's text: indented, keys sorted, so that a run over the same
    /// code writes the same bytes.
    public func json() -> [UInt8] {
        var tables = JSONObject()
        for (table, keys) in places {
            var object = JSONObject()
            for (key, list) in keys { object.appendUnchecked(key, .array(list.map(JSONValue.string))) }
            tables.appendUnchecked(table, .object(object))
        }
        let root: JSONValue = ["format": .string(Self.format), "tables": .object(tables)]
        return JSONWriter.encodePretty(root) + [UInt8(ascii: "\n")]
    }

    /// Reads the file `json()` writes.
    public init(json bytes: [UInt8]) throws(Error) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw Error(message: "not a references file: \(error)")
        }
        guard case .object(let object) = root, case .string(let format) = object["format"] else {
            throw Error(message: "not a references file (lproj-extract --references writes them): it has no \"format\"")
        }
        guard format == Self.format else {
            throw Error(message: "a references file of format \"\(format)\"; this lprojctl reads \"\(Self.format)\"")
        }
        guard case .object(let tables) = object["tables"] else { throw Error(message: "\"tables\" is not an object") }
        for (table, keys) in tables.members {
            guard case .object(let keys) = keys else { throw Error(message: "\"tables\".\"\(table)\" is not an object") }
            for (key, list) in keys.members {
                guard case .array(let list) = list else { throw Error(message: "\"\(table)\".\"\(key)\" is not an array") }
                for place in list {
                    guard case .string(let place) = place, !place.isEmpty, !place.contains(where: \.isNewline) else {
                        throw Error(message: "\"\(table)\".\"\(key)\" holds something other than a place (file:line)")
                    }
                    add(table: table, key: key, place: place)
                }
            }
        }
    }
}
