import VarlinkProtocol

/// A Varlink interface as C sees it: every struct and enum named, inline
/// ones after the struct and field they are in (`Selection.reason` →
/// `LprojdSelectionReason`; a method's parameters and reply →
/// `LprojdLookupParameters`, `LprojdLookupReply`), and every name in C's
/// spellings (`developmentLocale` → `development_locale`).
struct CModel {
    /// A C enum of a Varlink enum: its cases are the wire's strings.
    struct Enumeration {
        /// `LprojdSelectionReason`.
        let name: String
        /// `selection_reason`.
        let snake: String
        let cases: [String]
        let documentation: [String]
    }

    /// A boxed struct of a Varlink struct.
    struct Structure {
        let name: String
        let snake: String
        let fields: [Field]
        let documentation: [String]
        /// A method's parameters: its constructor takes the required fields.
        let isParameters: Bool
    }

    struct Field {
        /// As on the wire: `developmentLocale`.
        let wireName: String
        /// In C's functions: `development_locale` (`type` is `kind`: the
        /// getter would be a GType's).
        let snake: String
        let type: FieldType
        let isOptional: Bool
        let documentation: [String]
    }

    indirect enum FieldType: Equatable {
        case bool, int, float, string
        /// A C enum, by its C name.
        case enumeration(String)
        /// A boxed struct, by its C name.
        case structure(String)
        case array(FieldType)
        case map(FieldType)

        /// Whether a getter hands out a cached C value (arrays, maps,
        /// structs), rather than reading the JSON as asked.
        var isCached: Bool {
            switch self {
            case .array, .map, .structure: true
            default: false
            }
        }
    }

    struct Method {
        /// `Lookup`.
        let name: String
        /// `lookup`.
        let snake: String
        let parameters: Structure
        let reply: Structure
        let documentation: [String]
        /// Whether its call continues (`more`): `Subscribe`.
        let streams: Bool
    }

    struct ErrorCode {
        /// `BUNDLE_NOT_FOUND`.
        let macro: String
        /// The interface's name, or nil for the library's own.
        let wireName: String?
        let documentation: String
    }

    let prefix: String
    let interfaceName: String
    var enumerations: [Enumeration] = []
    var structures: [Structure] = []
    var methods: [Method] = []
    var errors: [ErrorCode] = []

    /// `Lprojd`: the namespace's C name; `lprojd` and `LPROJD` follow.
    var lower: String { prefix.lowercased() }
    var upper: String { prefix.uppercased() }

    init(idl: VarlinkIDL, prefix: String, streamingMethods: Set<String>, libraryErrors: LibraryErrors) throws(CodegenError) {
        self.prefix = prefix
        self.interfaceName = idl.name
        // Named enums are known before any field refers to one, wherever declared.
        for declaration in idl.types {
            if case .enumeration = declaration.type { namedEnumerations.insert(declaration.name) }
        }
        for declaration in idl.types {
            switch declaration.type {
            case .structure(let fields):
                structures.append(try structure(path: [declaration.name], fields: fields, documentation: declaration.documentation))
            case .enumeration(let cases):
                enumerations.append(enumeration(path: [declaration.name], cases: cases, documentation: declaration.documentation))
            default:
                throw CodegenError(message: "type \(declaration.name): only a struct or an enum can be named")
            }
        }
        for method in idl.methods {
            let parameters = try structure(
                path: [method.name, "Parameters"], fields: method.input, documentation: ["\(method.name)'s parameters."],
                isParameters: true)
            let reply = try structure(path: [method.name, "Reply"], fields: method.output, documentation: ["\(method.name)'s reply."])
            structures.append(parameters)
            structures.append(reply)
            methods.append(
                Method(
                    name: method.name, snake: Self.snake(method.name), parameters: parameters, reply: reply,
                    documentation: method.documentation, streams: streamingMethods.contains(method.name)))
        }
        errors =
            libraryErrors.before.map { ErrorCode(macro: $0.macro, wireName: nil, documentation: $0.documentation) }
            + idl.errors.map { error in
                ErrorCode(
                    macro: Self.snake(error.name).uppercased(), wireName: error.name,
                    documentation: error.documentation.joined(separator: " ") + " (`\(error.name)`)")
            }
            + libraryErrors.after.map { ErrorCode(macro: $0.macro, wireName: nil, documentation: $0.documentation) }
    }

    /// The errors the library adds to the interface's, in the order of its
    /// codes (codes are part of the ABI: new ones go last).
    struct LibraryErrors {
        var before: [(macro: String, documentation: String)]
        var after: [(macro: String, documentation: String)]
    }

    // MARK: Flattening

    private mutating func structure(path: [String], fields: [VarlinkIDL.Field], documentation: [String], isParameters: Bool = false)
        throws(CodegenError) -> Structure
    {
        var converted: [Field] = []
        for field in fields {
            var type = field.type
            var optional = false
            if case .optional(let wrapped) = type {
                type = wrapped
                optional = true
            }
            let fieldPath = path + [field.name == "type" ? "Kind" : field.name]
            converted.append(
                Field(
                    wireName: field.name, snake: field.name == "type" ? "kind" : Self.snake(field.name),
                    type: try fieldType(type, path: fieldPath), isOptional: optional, documentation: field.documentation))
        }
        return Structure(
            name: Self.typeName(prefix, path), snake: Self.snake(Self.typeName("", path)), fields: converted, documentation: documentation,
            isParameters: isParameters)
    }

    private mutating func enumeration(path: [String], cases: [String], documentation: [String]) -> Enumeration {
        Enumeration(
            name: Self.typeName(prefix, path), snake: Self.snake(Self.typeName("", path)), cases: cases, documentation: documentation)
    }

    private mutating func fieldType(_ type: VarlinkIDL.TypeReference, path: [String]) throws(CodegenError) -> FieldType {
        switch type {
        case .bool: return .bool
        case .int: return .int
        case .float: return .float
        case .string: return .string
        case .object, .set: throw CodegenError(message: "\(path.joined(separator: ".")): C has no type for \(type) yet")
        case .optional: throw CodegenError(message: "\(path.joined(separator: ".")): an optional inside a type")
        case .array(let element): return .array(try fieldType(element, path: path))
        case .map(let value): return .map(try fieldType(value, path: path))
        case .named(let name):
            return namedEnumerations.contains(name)
                ? .enumeration(Self.typeName(prefix, [name])) : .structure(Self.typeName(prefix, [name]))
        case .structure(let fields):
            let nested = try structure(path: path, fields: fields, documentation: [])
            structures.append(nested)
            return .structure(nested.name)
        case .enumeration(let cases):
            let nested = enumeration(path: path, cases: cases, documentation: [])
            enumerations.append(nested)
            return .enumeration(nested.name)
        }
    }

    /// The names of the interface's named enums.
    private var namedEnumerations: Set<String> = []

    // MARK: Names

    /// `LprojdLookupParameters` for `["Lookup", "Parameters"]`; a field's
    /// name capitalized (`reason` → `Reason`).
    static func typeName(_ prefix: String, _ path: [String]) -> String {
        prefix + path.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `developmentLocale` → `development_locale`, `connectionsPerUID` →
    /// `connections_per_uid`, `GetTable` → `get_table`, `time12` → `time12`.
    static func snake(_ name: String) -> String {
        let characters = Array(name)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) { result += "_" }
            }
            result += character.lowercased()
        }
        return result
    }
}
