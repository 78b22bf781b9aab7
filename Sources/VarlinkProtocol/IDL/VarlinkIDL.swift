/// A Varlink interface definition, parsed: what the `.varlink` file says,
/// for generating code from it and for checking code against it.
///
/// The grammar is varlink.org's (Interface-Definition.md), as systemd and
/// the reference Python scanner read it: `interface` first; `type`,
/// `method` and `error` declarations; the comment lines right before a
/// declaration are its documentation.
public struct VarlinkIDL: Sendable, Equatable {
    /// A type as written.
    public indirect enum TypeReference: Sendable, Equatable, CustomStringConvertible {
        case bool, int, float, string, object
        case optional(TypeReference)
        case array(TypeReference)
        case map(TypeReference)
        /// `[string]()`: a set of strings.
        case set
        case named(String)
        case structure([Field])
        case enumeration([String])

        public var description: String {
            switch self {
            case .bool: "bool"
            case .int: "int"
            case .float: "float"
            case .string: "string"
            case .object: "object"
            case .optional(let wrapped): "?\(wrapped)"
            case .array(let element): "[]\(element)"
            case .map(let value): "[string]\(value)"
            case .set: "[string]()"
            case .named(let name): name
            case .structure(let fields): "(\(fields.map { "\($0.name): \($0.type)" }.joined(separator: ", ")))"
            case .enumeration(let cases): "(\(cases.joined(separator: ", ")))"
            }
        }
    }

    /// A field of a struct (a type's, a method's input or output, an error's).
    public struct Field: Sendable, Equatable {
        public let name: String
        public let type: TypeReference
        public let documentation: [String]
    }

    /// A named type: a struct or an enum.
    public struct TypeDeclaration: Sendable, Equatable {
        public let name: String
        public let type: TypeReference
        public let documentation: [String]
    }

    public struct Method: Sendable, Equatable {
        public let name: String
        public let input: [Field]
        public let output: [Field]
        public let documentation: [String]
    }

    public struct ErrorDeclaration: Sendable, Equatable {
        public let name: String
        public let fields: [Field]
        public let documentation: [String]
    }

    public let name: String
    public let documentation: [String]
    public let types: [TypeDeclaration]
    public let methods: [Method]
    public let errors: [ErrorDeclaration]

    /// Why a text is not an interface definition, and where.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Parses an interface definition.
    public init(parsing text: String) throws(ParseError) {
        var parser = IDLParser(text)
        self = try parser.parseInterface()
    }

    init(name: String, documentation: [String], types: [TypeDeclaration], methods: [Method], errors: [ErrorDeclaration]) {
        self.name = name
        self.documentation = documentation
        self.types = types
        self.methods = methods
        self.errors = errors
    }

    /// A named type's declaration.
    public func type(named name: String) -> TypeDeclaration? { types.first { $0.name == name } }
}

/// The tokenizer and recursive-descent parser behind ``VarlinkIDL``.
private struct IDLParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    /// Comment lines since the last declaration.
    private var comments: [String] = []

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    private func error(_ message: String) -> VarlinkIDL.ParseError {
        VarlinkIDL.ParseError(line: line, message: message)
    }

    /// Skips whitespace and comments, keeping the comment lines; a blank
    /// line between comments and a declaration detaches them.
    private mutating func skipSpace() {
        var newlines = 0
        while index < scalars.count {
            switch scalars[index] {
            case "\n":
                line += 1
                newlines += 1
                if newlines > 1 { comments = [] }
                index += 1
            case " ", "\t", "\r":
                index += 1
            case "#":
                var text = String.UnicodeScalarView()
                index += 1
                while index < scalars.count, scalars[index] != "\n" {
                    text.append(scalars[index])
                    index += 1
                }
                var comment = String(text)
                if comment.hasPrefix(" ") { comment.removeFirst() }
                comments.append(comment)
                newlines = 0
            default:
                return
            }
        }
    }

    private mutating func peek() -> Unicode.Scalar? {
        skipSpace()
        return index < scalars.count ? scalars[index] : nil
    }

    private mutating func expect(_ scalar: Unicode.Scalar) throws(VarlinkIDL.ParseError) {
        guard peek() == scalar else { throw error("expected '\(scalar)'") }
        index += 1
    }

    private mutating func take(_ text: String) -> Bool {
        _ = peek()
        let wanted = Array(text.unicodeScalars)
        guard index + wanted.count <= scalars.count, Array(scalars[index..<(index + wanted.count)]) == wanted else { return false }
        index += wanted.count
        return true
    }

    /// A word: letters, digits, `_`, `.`, `-`.
    private mutating func word() throws(VarlinkIDL.ParseError) -> String {
        _ = peek()
        var text = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            guard
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
                    || scalar == "." || scalar == "-"
            else { break }
            text.append(scalar)
            index += 1
        }
        guard !text.isEmpty else { throw error("expected a name") }
        return String(text)
    }

    private mutating func takeComments() -> [String] {
        defer { comments = [] }
        return comments
    }

    mutating func parseInterface() throws(VarlinkIDL.ParseError) -> VarlinkIDL {
        guard take("interface") else { throw error("expected 'interface' first") }
        let documentation = takeComments()
        let name = try word()
        var types: [VarlinkIDL.TypeDeclaration] = [], methods: [VarlinkIDL.Method] = [], errors: [VarlinkIDL.ErrorDeclaration] = []
        while peek() != nil {
            let keyword = try word()
            let documentation = takeComments()
            let declared = try word()
            guard let first = declared.unicodeScalars.first, ("A"..."Z").contains(first) else {
                throw error("'\(declared)' must start with a capital letter")
            }
            switch keyword {
            case "type":
                types.append(.init(name: declared, type: try parseStructOrEnum(), documentation: documentation))
            case "method":
                guard case .structure(let input) = try parseStructOrEnum(allowEnum: false) else { throw error("a method takes a struct") }
                guard take("->") else { throw error("expected '->' after \(declared)'s input") }
                guard case .structure(let output) = try parseStructOrEnum(allowEnum: false) else {
                    throw error("a method returns a struct")
                }
                methods.append(.init(name: declared, input: input, output: output, documentation: documentation))
            case "error":
                guard case .structure(let fields) = try parseStructOrEnum(allowEnum: false) else { throw error("an error has a struct") }
                errors.append(.init(name: declared, fields: fields, documentation: documentation))
            default:
                throw error("unknown keyword '\(keyword)'")
            }
        }
        return VarlinkIDL(name: name, documentation: documentation, types: types, methods: methods, errors: errors)
    }

    /// `( name: type, ... )` or `( a, b, c )`.
    private mutating func parseStructOrEnum(allowEnum: Bool = true) throws(VarlinkIDL.ParseError) -> VarlinkIDL.TypeReference {
        try expect("(")
        if peek() == ")" {
            index += 1
            return .structure([])
        }
        var fields: [VarlinkIDL.Field] = []
        var cases: [String] = []
        while true {
            _ = peek()
            let documentation = takeComments()
            let name = try word()
            if peek() == ":" {
                guard cases.isEmpty else { throw error("an enum's cases have no types") }
                index += 1
                fields.append(.init(name: name, type: try parseType(), documentation: documentation))
            } else {
                guard fields.isEmpty, allowEnum else { throw error("expected ':' after '\(name)'") }
                cases.append(name)
            }
            if peek() == "," {
                index += 1
                continue
            }
            try expect(")")
            break
        }
        return cases.isEmpty ? .structure(fields) : .enumeration(cases)
    }

    private mutating func parseType() throws(VarlinkIDL.ParseError) -> VarlinkIDL.TypeReference {
        switch peek() {
        case "?":
            index += 1
            let wrapped = try parseType()
            if case .optional = wrapped { throw error("'??' is not a type") }
            return .optional(wrapped)
        case "[":
            index += 1
            if peek() == "]" {
                index += 1
                return .array(try parseType())
            }
            guard take("string") else { throw error("a map is keyed by string") }
            try expect("]")
            if take("()") { return .set }
            return .map(try parseType())
        case "(":
            return try parseStructOrEnum()
        default:
            let name = try word()
            switch name {
            case "bool": return .bool
            case "int": return .int
            case "float": return .float
            case "string": return .string
            case "object": return .object
            default:
                guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else { throw error("unknown type '\(name)'") }
                return .named(name)
            }
        }
    }
}
