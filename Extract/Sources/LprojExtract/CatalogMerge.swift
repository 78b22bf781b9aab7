internal import Foundation
public import JSONText

/// Puts extracted keys into a String Catalog (`.xcstrings`) as Xcode does
/// when it builds: a key the catalog lacks is added (with its comment, and
/// its default value as the source language's `new` unit when it differs
/// from the key); a key the code uses again loses its `stale` mark; a key
/// Xcode would have extracted that the code no longer uses is marked
/// `stale`, never removed. Keys added by hand (`manual`) are left alone.
///
/// The catalog is edited as a JSON tree that keeps every member and its
/// order, and written back the way Xcode writes it (two-space indents,
/// `"key" : value`, keys in Xcode's order), so that a catalog Xcode wrote
/// comes back byte for byte when nothing changed, and a change is only the
/// lines it touches.
public enum CatalogMerge {
    public struct Outcome: Sendable {
        public var added: [ExtractedString]
        /// Keys now marked `stale`.
        public var markedStale: [String]
        /// Keys whose `stale` mark was taken away.
        public var revived: [String]
        /// The new file; nil when nothing changed.
        public var bytes: [UInt8]?
    }

    public struct Unreadable: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Merges a table's keys into a catalog's bytes (nil: a new catalog in
    /// `sourceLanguage`).
    public static func merge(_ strings: [ExtractedString], into existing: [UInt8]?, sourceLanguage: String) throws(Unreadable) -> Outcome {
        var root: JSONObject
        if let existing {
            guard case .object(let object) = try parse(existing) else { throw Unreadable(description: "not a String Catalog") }
            root = object
        } else {
            root = ["sourceLanguage": .string(sourceLanguage), "strings": .object(JSONObject()), "version": .string("1.0")]
        }
        guard case .object(var entries)? = root["strings"] else { throw Unreadable(description: "the catalog has no \"strings\" object") }
        let language: String
        if case .string(let given)? = root["sourceLanguage"] { language = given } else { language = sourceLanguage }

        var seen: Set<String> = []
        let unique = strings.filter { seen.insert($0.key).inserted }
        var added: [ExtractedString] = [], revived: [String] = [], markedStale: [String] = []
        var keys = entries.keys, values = entries.values
        for string in unique {
            if let position = keys.firstIndex(of: string.key) {
                guard case .object(var entry) = values[position] else { continue }
                if case .string("stale")? = entry["extractionState"] {
                    entry = setting(entry, "extractionState", nil)
                    revived.append(string.key)
                    values[position] = .object(entry)
                }
                continue
            }
            var entry = JSONObject()
            if let comment = string.comment, !comment.isEmpty { entry = setting(entry, "comment", .string(comment)) }
            if let value = string.defaultValue, value != string.key {
                entry = setting(entry, "extractionState", .string("extracted_with_value"))
                let unit: JSONObject = ["state": .string("new"), "value": .string(value)]
                entry = setting(entry, "localizations", .object([language: .object(["stringUnit": .object(unit)])]))
            }
            let position = keys.firstIndex { xcodeOrder(string.key, $0) } ?? keys.endIndex
            keys.insert(string.key, at: position)
            values.insert(.object(entry), at: position)
            added.append(string)
        }
        // An empty key is none the extractors give (they leave "" out), so
        // they cannot tell whether the code still has it: it is left alone.
        for (position, key) in keys.enumerated() where !seen.contains(key) && !key.isEmpty {
            guard case .object(let entry) = values[position] else { continue }
            // Only what extraction put there goes stale: not a key added by hand.
            switch entry["extractionState"] {
            case nil, .string("extracted_with_value")?:
                values[position] = .object(setting(entry, "extractionState", .string("stale")))
                markedStale.append(key)
            default:
                break
            }
        }
        guard !added.isEmpty || !revived.isEmpty || !markedStale.isEmpty || existing == nil else {
            return Outcome(added: [], markedStale: [], revived: [], bytes: nil)
        }
        entries = JSONObject(uniqueKeys: keys, values: values)
        root = setting(root, "strings", .object(entries))
        return Outcome(
            added: added, markedStale: markedStale, revived: revived, bytes: Array(write(.object(root), like: existing).utf8))
    }

    static func parse(_ bytes: [UInt8]) throws(Unreadable) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw Unreadable(description: "the catalog is not valid JSON: \(error)")
        }
    }

    /// A member set (nil: removed), a new one in Xcode's key order.
    static func setting(_ object: JSONObject, _ key: String, _ value: JSONValue?) -> JSONObject {
        var keys = object.keys, values = object.values
        if let position = keys.firstIndex(of: key) {
            if let value {
                values[position] = value
            } else {
                keys.remove(at: position)
                values.remove(at: position)
            }
        } else if let value {
            let position = keys.firstIndex { xcodeOrder(key, $0) } ?? keys.endIndex
            keys.insert(key, at: position)
            values.insert(value, at: position)
        }
        return JSONObject(uniqueKeys: keys, values: values)
    }

    /// Whether `a` comes before `b` in the order Xcode writes a catalog's
    /// keys: Foundation's sorted keys, a case-insensitive, numeric
    /// comparison by ICU's collation (punctuation before letters), with a
    /// forced order for keys equal but for case. Checked against the order
    /// of the two catalogs the tests read.
    static func xcodeOrder(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.caseInsensitive, .numeric, .forcedOrdering], range: nil, locale: collationLocale) == .orderedAscending
    }

    private static let collationLocale = Locale(identifier: "en")

    /// JSON as Xcode writes a catalog: two-space indents, `"key" : value`,
    /// members in the tree's order, an empty object as `{\n\n}`, `/`
    /// unescaped, no final newline. Given the file it came from, the
    /// file's own colon (`": "`, as some tools write) and final newline are
    /// kept.
    public static func write(_ value: JSONValue, like original: [UInt8]? = nil) -> String {
        var style = JSONWriter.PrettyStyle(sortsKeys: false, opensEmptyContainers: true)
        if let original {
            let head = String(decoding: original.prefix(4096), as: UTF8.self)
            if let compact = head.range(of: "\": "), head.range(of: "\" : ").map({ compact.lowerBound < $0.lowerBound }) ?? true {
                style.colon = ": "
            }
        }
        let text = String(decoding: JSONWriter.encodePretty(value, style: style), as: UTF8.self)
        return original?.last == UInt8(ascii: "\n") ? text + "\n" : text
    }
}
