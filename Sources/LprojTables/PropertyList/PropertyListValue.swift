public import Foundation

/// A property-list value, typed: what `.strings` and `.stringsdict` files can hold.
///
/// `.strings` values are almost always strings, but the old-style grammar also
/// allows nested dictionaries, arrays and data, and Foundation returns them;
/// `lprojctl dump` must show them as Foundation would.
public indirect enum PropertyListValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case date(Date)
    case data([UInt8])
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// Converts what `PropertyListSerialization` returns; `nil` for a type
    /// property lists cannot hold.
    public init?(foundation value: Any) {
        switch value {
        case let string as String: self = .string(string)
        case let number as NSNumber:
            // Foundation on Linux bridges <true/> and <integer> both to NSNumber;
            // the Objective-C type tells them apart.
            let type = String(cString: number.objCType)
            if type == "c" || type == "B" {
                self = .boolean(number.boolValue)
            } else if type == "d" || type == "f" {
                self = .real(number.doubleValue)
            } else {
                self = .integer(number.int64Value)
            }
        case let date as Date: self = .date(date)
        case let data as Data: self = .data(Array(data))
        case let array as [Any]:
            var items: [PropertyListValue] = []
            for item in array {
                guard let converted = PropertyListValue(foundation: item) else { return nil }
                items.append(converted)
            }
            self = .array(items)
        case let dictionary as [String: Any]:
            var items: [String: PropertyListValue] = [:]
            for (key, item) in dictionary {
                guard let converted = PropertyListValue(foundation: item) else { return nil }
                items[key] = converted
            }
            self = .dictionary(items)
        default:
            return nil
        }
    }

    /// The value as a JSON-compatible Foundation object, the way lprojd shows
    /// plists: data as base64, dates as ISO 8601 in UTC.
    public var jsonObject: Any {
        switch self {
        case .string(let string): return string
        case .integer(let integer): return NSNumber(value: integer)
        case .real(let real): return NSNumber(value: real)
        case .boolean(let boolean): return NSNumber(value: boolean)
        case .date(let date): return date.formatted(.iso8601)
        case .data(let data): return Data(data).base64EncodedString()
        case .array(let items): return items.map(\.jsonObject)
        case .dictionary(let items): return items.mapValues(\.jsonObject)
        }
    }

    /// A short name of the value's type, for messages.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .boolean: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }
}
