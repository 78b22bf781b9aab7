internal import Foundation

/// `.strings` files that are XML or binary property lists, as Xcode can
/// write them; Foundation reads those.
enum PropertyListStrings {
    static func read(_ bytes: UnsafeRawBufferPointer, encoding: TextEncoding) throws(TableParseError) -> StringsFile {
        let object = try PropertyListReader.read(Data(bytes))
        guard let dictionary = object as? [String: Any] else {
            let kind = PropertyListValue(foundation: object)?.typeName ?? "value"
            throw TableParseError(
                location: nil, message: "the property list holds \(kind == "array" ? "an" : "a") \(kind); expected a dictionary of strings")
        }
        var builder = StringTableBuilder(estimatedBytes: bytes.count)
        var others: [(key: String, value: PropertyListValue)] = []
        var diagnostics: [Diagnostic] = []
        for key in dictionary.keys.sorted() {
            let value = dictionary[key]!
            if let string = value as? String {
                builder.append(key: key, value: string)
            } else if let other = PropertyListValue(foundation: value) {
                others.append((key, other))
                diagnostics.append(
                    Diagnostic(
                        severity: .error, location: nil, code: "not-a-string",
                        message: "the value of the key \"\(key)\" is a \(other.typeName), not a string; lookups ignore it", keyPath: key))
            }
        }
        return StringsFile(
            table: builder.finish().table, otherValues: others, diagnostics: diagnostics,
            keyLocations: nil, encoding: encoding, isPropertyList: true)
    }
}

/// Reads property lists through Foundation and turns its errors into ``TableParseError``s.
enum PropertyListReader {
    static func read(_ data: Data) throws(TableParseError) -> Any {
        do {
            return try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            let nsError = error as NSError
            let detail = (nsError.userInfo["NSDebugDescription"] as? String) ?? nsError.localizedDescription
            throw TableParseError(
                location: lineNumber(in: detail).map { SourceLocation(line: $0, column: 1) },
                message: "not a valid property list: \(detail)")
        }
    }

    /// Foundation reports only a line ("... at line 12"); take it when present.
    private static func lineNumber(in message: String) -> Int? {
        guard let range = message.range(of: "line ", options: .backwards) else { return nil }
        let digits = message[range.upperBound...].prefix(while: \.isNumber)
        return Int(digits)
    }
}
