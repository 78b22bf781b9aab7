internal import Foundation
internal import LprojFormatStrings

/// Reads `.stringsdict` files (XML or binary property lists) through
/// Foundation and validates them into ``PluralFormat`` entries.
///
/// Each entry needs `NSStringLocalizedFormatKey`; each variable it uses needs
/// `NSStringFormatSpecTypeKey` = `NSStringPluralRuleType`, an optional
/// `NSStringFormatValueTypeKey` ("d" or "%d") and the forms `zero`, `one`,
/// `two`, `few`, `many`, `other` (`other` required). A malformed entry is
/// reported with its key path and left out; the rest of the table loads.
public struct StringsdictParser: Sendable {
    /// Creates a parser.
    public init() {}

    static let formatKey = "NSStringLocalizedFormatKey"
    static let specTypeKey = "NSStringFormatSpecTypeKey"
    static let valueTypeKey = "NSStringFormatValueTypeKey"
    static let pluralRuleType = "NSStringPluralRuleType"

    /// Parses the bytes of a `.stringsdict` file.
    public func parse(_ bytes: [UInt8]) throws(TableParseError) -> StringsdictFile {
        let object = try PropertyListReader.read(Data(bytes))
        guard let root = object as? [String: Any] else {
            throw TableParseError(
                location: nil,
                message:
                    "the property list holds a \(PropertyListValue(foundation: object)?.typeName ?? "value"); expected a dictionary of entries"
            )
        }
        let locator = PlistKeyLocator(bytes: bytes)
        var entries: [String: PluralFormat] = [:]
        var propertyList: [String: PropertyListValue] = [:]
        var diagnostics: [Diagnostic] = []
        for key in root.keys.sorted() {
            let value = root[key]!
            propertyList[key] = PropertyListValue(foundation: value)
            switch Self.entry(key: key, value: value) {
            case .success(let (format, warnings)):
                entries[key] = format
                diagnostics += warnings.map { warning in
                    Diagnostic(
                        severity: .warning, location: locator.location(of: key + "/" + warning.path), code: "stringsdict-entry",
                        message: "\(key)/\(warning.path): \(warning.message)", keyPath: "\(key)/\(warning.path)")
                }
            case .failure(let problem):
                let path = problem.path.isEmpty ? key : "\(key)/\(problem.path)"
                diagnostics.append(
                    Diagnostic(
                        severity: .error, location: locator.location(of: path), code: "stringsdict-entry",
                        message: "\(path): \(problem.message); the entry is left out", keyPath: path))
            }
        }
        var keyLocations: [String: SourceLocation] = [:]
        for key in root.keys { keyLocations[key] = locator.location(of: key) }
        return StringsdictFile(entries: entries, propertyList: propertyList, diagnostics: diagnostics, keyLocations: keyLocations)
    }

    private static func entry(key: String, value: Any) -> Result<(PluralFormat, [PluralFormatError]), PluralFormatError> {
        guard let dictionary = value as? [String: Any] else {
            return .failure(
                .init(
                    path: "",
                    message: "expected a dictionary with \(formatKey), found a \(PropertyListValue(foundation: value)?.typeName ?? "value")"
                ))
        }
        guard let formatValue = dictionary[formatKey] else {
            return .failure(.init(path: "", message: "\(formatKey) is missing"))
        }
        guard let format = formatValue as? String else {
            return .failure(.init(path: formatKey, message: "expected a string"))
        }
        var variables: [String: PluralVariable] = [:]
        var warnings: [PluralFormatError] = []
        for name in dictionary.keys.sorted() where name != formatKey {
            switch variable(name: name, value: dictionary[name]!) {
            case .success(let (variable, notes)):
                variables[name] = variable
                warnings += notes
            case .failure(let problem):
                // A broken variable matters only if the format uses it; if it
                // does, validation below reports it as missing, so say why.
                if FormatString(format).variableReferences.contains(where: { $0.name == name }) {
                    return .failure(problem)
                }
                warnings.append(problem)
            }
        }
        do {
            return .success((try PluralFormat(formatKey: format, variables: variables), warnings))
        } catch {
            return .failure(error)
        }
    }

    private static func variable(name: String, value: Any) -> Result<(PluralVariable, [PluralFormatError]), PluralFormatError> {
        guard let dictionary = value as? [String: Any] else {
            return .failure(
                .init(
                    path: name,
                    message: "expected a variable dictionary, found a \(PropertyListValue(foundation: value)?.typeName ?? "value")"))
        }
        guard let specType = dictionary[specTypeKey] as? String else {
            return .failure(.init(path: name, message: "\(specTypeKey) is missing"))
        }
        guard specType == pluralRuleType else {
            return .failure(
                .init(path: "\(name)/\(specTypeKey)", message: "'\(specType)' is not supported; lprojd reads \(pluralRuleType)"))
        }
        var notes: [PluralFormatError] = []
        var valueType: String?
        if let given = dictionary[valueTypeKey] {
            guard let text = given as? String, PluralVariable.parseValueType(text) != nil else {
                return .failure(
                    .init(path: "\(name)/\(valueTypeKey)", message: "'\(given)' is not a format specifier such as d, ld or %ld"))
            }
            valueType = text
        } else {
            notes.append(.init(path: name, message: "\(valueTypeKey) is missing; the number's type is not checked"))
        }
        var forms: [PluralCategory: String] = [:]
        for (key, form) in dictionary where key != specTypeKey && key != valueTypeKey {
            guard let category = PluralCategory(rawValue: key) else {
                notes.append(
                    .init(
                        path: "\(name)/\(key)",
                        message: "'\(key)' is not a plural category (zero, one, two, few, many, other) and is ignored"))
                continue
            }
            guard let text = form as? String else {
                return .failure(.init(path: "\(name)/\(key)", message: "expected a string"))
            }
            forms[category] = text
        }
        return .success((PluralVariable(valueTypeText: valueType, forms: forms), notes))
    }
}
