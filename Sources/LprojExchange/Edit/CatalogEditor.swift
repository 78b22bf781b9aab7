internal import Foundation
internal import LprojFormatStrings
internal import LprojTables
import JSONText

/// Writes translations into a String Catalog as Xcode's import does, and
/// keeps every other byte: the catalog is edited as a JSON tree that keeps
/// every member and its order, and written back the way it was written
/// (Xcode's layout, or `": "` colons), which is first checked to give the
/// file's own bytes; a catalog that does not come back byte for byte is
/// not edited. New members go where Xcode puts them (its key order).
enum CatalogEditor {
    struct Edit {
        let key: String
        let path: CatalogUnitPath
        /// The text as the catalog keeps it (``CatalogText/catalogForm``).
        let value: String
        let state: StringCatalog.State
    }

    static func apply(_ edits: [Edit], to bytes: [UInt8], language: String, catalog: StringCatalog) throws(ExchangeError) -> [UInt8] {
        let tree: JSONValue
        do {
            tree = try JSONParser.parse(bytes)
        } catch {
            throw ExchangeError("it is not JSON: \(error)")
        }
        guard Array(write(tree, like: bytes).utf8) == bytes else {
            throw ExchangeError(
                "it is not laid out as Xcode writes catalogs, so it could not be edited without rewriting other lines; it is not edited")
        }
        guard case .object(var root) = tree, case .object(var strings)? = root["strings"] else {
            throw ExchangeError("it has no \"strings\" object")
        }
        let entries = Dictionary(catalog.entries.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        for edit in edits {
            guard case .object(var entry)? = strings[edit.key] else { throw ExchangeError("it has no key \"\(edit.key)\"") }
            var localizations = object(entry["localizations"])
            var localization = object(localizations[language])
            let unit: JSONObject = ["state": .string(edit.state.rawValue), "value": .string(edit.value)]
            let source = entries[edit.key]?.localizations[catalog.sourceLanguage]
            switch edit.path {
            case .plain:
                localization = setting(localization, "stringUnit", .object(merged(object(localization["stringUnit"]), unit)))
            case .plural(let category):
                localization = updating(localization, ["variations", "plural", category.rawValue], unit)
            case .device(let device):
                localization = updating(localization, ["variations", "device", device], unit)
            case .devicePlural(let device, let category):
                localization = updating(localization, ["variations", "device", device, "variations", "plural", category.rawValue], unit)
            case .substitution(let name, let category):
                var substitutions = object(localization["substitutions"])
                var substitution = object(substitutions[name])
                if substitution.isEmpty, let given = source?.substitutions[name] {
                    if let argument = given.argNum { substitution = setting(substitution, "argNum", .number(JSONNumber(Int64(argument)))) }
                    substitution = setting(substitution, "formatSpecifier", .string(given.formatSpecifier))
                }
                substitution = updating(substitution, ["variations", "plural", category.rawValue], unit)
                substitutions = setting(substitutions, name, .object(substitution))
                localization = setting(localization, "substitutions", .object(substitutions))
                // A substitution's text needs its parent's: the source's, as a new unit.
                if localization["stringUnit"] == nil && localization["variations"] == nil, let parent = source?.stringUnit?.value {
                    localization = setting(localization, "stringUnit", .object(["state": .string("new"), "value": .string(parent)]))
                }
            }
            localizations = setting(localizations, language, .object(localization))
            entry = setting(entry, "localizations", .object(localizations))
            strings = setting(strings, edit.key, .object(entry))
        }
        root = setting(root, "strings", .object(strings))
        return Array(write(.object(root), like: bytes).utf8)
    }

    static func object(_ value: JSONValue?) -> JSONObject {
        if case .object(let object)? = value { return object }
        return JSONObject()
    }

    /// `stringUnit` at the end of a path of objects, each made if missing.
    static func updating(_ object: JSONObject, _ path: [String], _ unit: JSONObject) -> JSONObject {
        guard let first = path.first else {
            return setting(object, "stringUnit", .object(merged(Self.object(object["stringUnit"]), unit)))
        }
        return setting(object, first, .object(updating(Self.object(object[first]), Array(path.dropFirst()), unit)))
    }

    /// An existing unit with its state and value replaced (other members kept).
    static func merged(_ existing: JSONObject, _ unit: JSONObject) -> JSONObject {
        var result = existing
        for (index, key) in unit.keys.enumerated() { result = setting(result, key, unit.values[index]) }
        return result
    }

    /// A member set, a new one in Xcode's key order (as the catalog merge
    /// of `lproj-extract` places them).
    static func setting(_ object: JSONObject, _ key: String, _ value: JSONValue) -> JSONObject {
        var keys = object.keys, values = object.values
        if let position = keys.firstIndex(of: key) {
            values[position] = value
        } else {
            let position = keys.firstIndex { xcodeOrder(key, $0) } ?? keys.endIndex
            keys.insert(key, at: position)
            values.insert(value, at: position)
        }
        return JSONObject(uniqueKeys: keys, values: values)
    }

    /// Foundation's case-insensitive, numeric order, as Xcode sorts a catalog's keys.
    static func xcodeOrder(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.caseInsensitive, .numeric, .forcedOrdering], range: nil, locale: collationLocale) == .orderedAscending
    }

    private static let collationLocale = Locale(identifier: "en")

    /// JSON as Xcode writes a catalog (two-space indents, `"key" : value`,
    /// `/` unescaped, no final newline), or with the file's own `": "`
    /// colon and final newline.
    static func write(_ value: JSONValue, like original: [UInt8]) -> String {
        var style = JSONWriter.PrettyStyle(sortsKeys: false, opensEmptyContainers: true)
        let head = String(decoding: original.prefix(4096), as: UTF8.self)
        if let compact = head.range(of: "\": "), head.range(of: "\" : ").map({ compact.lowerBound < $0.lowerBound }) ?? true {
            style.colon = ": "
        }
        let text = String(decoding: JSONWriter.encodePretty(value, style: style), as: UTF8.self)
        return original.last == UInt8(ascii: "\n") ? text + "\n" : text
    }
}
