internal import Foundation
internal import Yams

/// A YAML text composed into nodes, so that every problem found while
/// decoding it, or checking what it says, names its line and column.
struct YAMLDocument {
    /// The file's name, as errors give it.
    let file: String
    /// The document's root; nil for a text of comments only.
    let root: Node?

    /// Composes `text`; a YAML syntax error is thrown at its place.
    init(_ text: String, file: String) throws(ConfigurationError) {
        self.file = file
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.syntaxError(error, file: file)
        } catch {
            throw ConfigurationError(file: file, message: "\(error)")
        }
    }

    /// Decodes the whole document. An error names the setting's path and
    /// its place: an unknown setting its key, a missing one the mapping
    /// that lacks it, a wrong value the value.
    func decode<T: Decodable>(_ type: T.Type) throws(ConfigurationError) -> T {
        guard let root else { throw ConfigurationError(file: file, line: 1, column: 1, message: "the file is empty") }
        do {
            return try YAMLDecoder().decode(type, from: root)
        } catch let unknown as UnknownSettingError {
            throw error(at: unknown.path, key: true, "unknown setting '\(unknown.path.last?.stringValue ?? "")'")
        } catch let problem as DecodingError {
            switch problem {
            case .keyNotFound(let key, let context):
                throw error(at: context.codingPath, "'\(key.stringValue)' is missing")
            case .typeMismatch(_, let context), .valueNotFound(_, let context):
                throw error(at: context.codingPath, context.debugDescription)
            case .dataCorrupted(let context):
                throw error(at: context.codingPath, context.underlyingError.map { "\($0)" } ?? context.debugDescription)
            @unknown default:
                throw ConfigurationError(file: file, message: "\(problem)")
            }
        } catch let syntax as YamlError {
            throw Self.syntaxError(syntax, file: file)
        } catch {
            throw ConfigurationError(file: file, message: "\(error)")
        }
    }

    /// An error about the setting at `path` (its key, with `key`, else its
    /// value), at its place in the file, saying the path first.
    func error(at path: [any CodingKey], key: Bool = false, _ message: String) -> ConfigurationError {
        let mark = place(of: path, key: key)
        let named = Self.describe(path)
        return ConfigurationError(
            file: file, line: mark?.line, column: mark?.column, message: named.isEmpty ? message : "\(named): \(message)")
    }

    /// Where the setting at `path` is written: its key's place or its
    /// value's. A path that leads nowhere gives the place of as much of it
    /// as there is.
    func place(of path: [any CodingKey], key: Bool = false) -> Mark? {
        guard var node = root else { return nil }
        for (index, component) in path.enumerated() {
            let isLast = index == path.count - 1
            if let position = component.intValue, let sequence = node.sequence {
                guard position < sequence.count else { return node.mark }
                node = sequence[position]
            } else if let mapping = node.mapping {
                guard let pair = mapping.first(where: { $0.key.string == component.stringValue }) else { return node.mark }
                if isLast && key { return pair.key.mark }
                node = pair.value
            } else {
                return node.mark
            }
        }
        return node.mark
    }

    /// `bundles[0].custom-locales.tlh`.
    static func describe(_ path: [any CodingKey]) -> String {
        var text = ""
        for component in path {
            if let index = component.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? component.stringValue : ".\(component.stringValue)"
            }
        }
        return text
    }

    private static func syntaxError(_ error: YamlError, file: String) -> ConfigurationError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let while_ = context.map { " (\($0.text) at \($0.mark.line):\($0.mark.column))" } ?? ""
            return ConfigurationError(file: file, line: mark.line, column: mark.column, message: "\(problem)\(while_)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return ConfigurationError(
                file: file, line: context.mark.line, column: context.mark.column,
                message: "\(duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")) given twice")
        case .reader(let problem, let offset, _, let yaml):
            let (line, column) = offset.map { Self.lineAndColumn(of: $0, in: yaml) } ?? (1, 1)
            return ConfigurationError(file: file, line: line, column: column, message: problem)
        default:
            return ConfigurationError(file: file, message: "\(error)")
        }
    }

    /// The line and column (from 1, in Unicode scalars) of the character
    /// `offset` characters into `text`.
    private static func lineAndColumn(of offset: Int, in text: String) -> (Int, Int) {
        var line = 1, column = 1
        for character in text.prefix(offset) {
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        return (line, column)
    }
}

/// A key that no setting has; thrown by the models as they decode, with
/// the key's path, so that the error points at the key.
struct UnknownSettingError: Error {
    let path: [any CodingKey]
}

/// Any key, to list every key of a mapping.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension KeyedDecodingContainer {
    /// Throws ``UnknownSettingError`` for the first key that is not one of `Known`'s.
    func refuseUnknownKeys<Known: CodingKey>(but known: Known.Type) throws where Key == AnyKey {
        for key in allKeys where Known(stringValue: key.stringValue) == nil {
            throw UnknownSettingError(path: codingPath + [key])
        }
    }
}
