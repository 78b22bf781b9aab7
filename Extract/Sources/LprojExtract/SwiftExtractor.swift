internal import SwiftParser
internal import SwiftSyntax

/// Finds localizable strings in Swift source, with swift-syntax's parser:
/// the calls Xcode's extraction finds, by their names and argument labels.
///
/// Extracted, when the key is a string literal (interpolations allowed
/// where the API takes them):
/// - `NSLocalizedString("key", tableName:, bundle:, value:, comment:)`;
/// - `String(localized: "key", defaultValue:, table:, bundle:, locale:, comment:)`;
/// - `LocalizedStringResource("key", defaultValue:, table:, …, comment:)` and
///   `LocalizedStringKey("key")`;
/// - SwiftUI views and modifiers whose first unlabeled argument is a
///   `LocalizedStringKey` (``SwiftExtractor/localizedStringKeyCalls``): `Text`,
///   `Button`, `Label`, `Toggle`, `navigationTitle`, …, and `Text`'s
///   `tableName:` and `comment:`;
/// - this project's localizer: `localizer.localized("key", table:, defaultValue:)`
///   and `.lookup("key", table:, defaultValue:)`;
/// - App Intents: a property of one of ``SwiftExtractor/resourceTypes`` set
///   to a literal (or a computed one that returns one), `IntentDialog("…")`,
///   `IntentDescription("…")`, `DisplayRepresentation(title:subtitle:)` (also
///   as `.init(title:)` in a `DisplayRepresentation` dictionary), and
///   `@Parameter(title:description:)`.
///
/// And the app's own routines (``Routine``), whose key is looked up as
/// written.
///
/// Not extracted, with a warning: any of those whose key is not a string
/// literal (a variable, a concatenation), and `Text(verbatim:)` never; an
/// empty literal (`Picker("", selection:)`) is no key and is left out.
/// An interpolation becomes the specifier Xcode writes for its type
/// (`Int` → `%lld`, `Double` → `%lf`, `String` → `%@`); the type is read
/// from the expression or from the declarations of the file, and when it
/// cannot be told the specifier is `%@`, with a warning.
public struct SwiftExtractor: Sendable {
    /// SwiftUI initializers and modifiers whose first unlabeled argument is
    /// a `LocalizedStringKey` when it is a literal.
    public static let localizedStringKeyCalls: Set<String> = [
        "Text", "Button", "Label", "Toggle", "Picker", "Link", "Menu", "Section", "TextField", "SecureField", "Stepper",
        "NavigationLink", "DisclosureGroup", "ProgressView", "ColorPicker", "DatePicker", "ContentUnavailableView", "LabeledContent",
        "GroupBox", "Tab", "ShareLink", "TextEditor", "Slider", "Gauge", "MultiDatePicker", "PasteButton", "RenameButton",
        "navigationTitle", "navigationSubtitle", "help", "accessibilityLabel", "accessibilityHint", "accessibilityValue",
        "accessibilityAction", "confirmationDialog", "alert", "badge",
    ]

    /// App Intents' types built from a string literal (`static let title:
    /// LocalizedStringResource = "Open"`, `IntentDialog("Which account?")`).
    public static let resourceTypes: Set<String> = [
        "LocalizedStringResource", "LocalizedStringKey", "IntentDescription", "IntentDialog", "TypeDisplayRepresentation",
        "DisplayRepresentation",
    ]

    /// The app's own routines (``Routine``), by the names they are called.
    let routines: [String: ArgumentForm]

    public init(routines: [Routine] = []) {
        self.routines = Routine.forms(routines)
    }

    public func extract(source: String, file: String) -> ExtractionResult {
        extract([(path: file, text: source)])
    }

    /// The files of one module, read together: a parameter one file
    /// declares as a `LocalizedStringKey` (`func row(label: LocalizedStringKey)`)
    /// makes a literal passed to it in another file a key.
    /// `parsed` is told of each file once it is parsed (the most of the work).
    public func extract(_ files: [(path: String, text: String)], parsed: (String) -> Void = { _ in }) -> ExtractionResult {
        let trees = files.map { file in
            defer { parsed(file.path) }
            return (path: file.path, tree: Parser.parse(source: file.text))
        }
        var parameters = LocalizedParameters()
        for (_, tree) in trees { parameters.collect(tree) }
        var result = ExtractionResult()
        for (path, tree) in trees {
            let converter = SourceLocationConverter(fileName: path, tree: tree)
            let visitor = CallVisitor(
                file: path, converter: converter, types: DeclaredTypes(tree), parameters: parameters, routines: routines)
            visitor.walk(tree)
            result.append(visitor.result)
        }
        return result
    }
}

/// The parameters of a module's own functions and initializers that take
/// a `LocalizedStringKey` (or another of ``SwiftExtractor/resourceTypes``),
/// by the name a call uses (the function's, or the type's for an
/// initializer) and the argument label (`_` for none).
struct LocalizedParameters {
    struct Slot: Hashable {
        let callee: String
        let label: String
    }

    private(set) var slots: Set<Slot> = []

    func contains(callee: String, label: String?) -> Bool {
        slots.contains(Slot(callee: callee, label: label ?? "_"))
    }

    mutating func collect(_ tree: SourceFileSyntax) {
        let collector = Collector(viewMode: .sourceAccurate)
        collector.walk(tree)
        slots.formUnion(collector.slots)
    }

    private final class Collector: SyntaxVisitor {
        var slots: Set<Slot> = []

        func add(_ parameters: FunctionParameterListSyntax, callee: String) {
            for parameter in parameters where SwiftExtractor.resourceTypes.contains(DeclaredTypes.name(of: parameter.type)) {
                slots.insert(Slot(callee: callee, label: parameter.firstName.text))
            }
        }

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            add(node.signature.parameterClause.parameters, callee: node.name.text)
            return .visitChildren
        }

        /// `case invalid(description: LocalizedStringKey)`: `.invalid(description: "…")`.
        override func visit(_ node: EnumCaseElementSyntax) -> SyntaxVisitorContinueKind {
            for parameter in node.parameterClause?.parameters ?? []
            where SwiftExtractor.resourceTypes.contains(DeclaredTypes.name(of: parameter.type)) {
                slots.insert(Slot(callee: node.name.text, label: parameter.firstName?.text ?? "_"))
            }
            return .visitChildren
        }

        override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
            var parent = node.parent
            while let current = parent {
                if let name = current.as(StructDeclSyntax.self)?.name.text ?? current.as(ClassDeclSyntax.self)?.name.text
                    ?? current.as(EnumDeclSyntax.self)?.name.text
                {
                    add(node.signature.parameterClause.parameters, callee: name)
                    break
                }
                parent = current.parent
            }
            return .visitChildren
        }
    }
}

/// The calls that carry a localizable key.
private final class CallVisitor: SyntaxVisitor {
    let file: String
    let converter: SourceLocationConverter
    let types: DeclaredTypes
    let parameters: LocalizedParameters
    let routines: [String: ArgumentForm]
    var result = ExtractionResult()

    init(
        file: String, converter: SourceLocationConverter, types: DeclaredTypes, parameters: LocalizedParameters,
        routines: [String: ArgumentForm]
    ) {
        self.file = file
        self.converter = converter
        self.types = types
        self.parameters = parameters
        self.routines = routines
        super.init(viewMode: .sourceAccurate)
    }

    func location(_ node: some SyntaxProtocol) -> Location {
        let place = node.startLocation(converter: converter)
        return Location(file: file, line: place.line, column: place.column)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let name: String
        var base: ExprSyntax?
        if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else if let member = node.calledExpression.as(MemberAccessExprSyntax.self) {
            name = member.declName.baseName.text
            base = member.base
        } else {
            return .visitChildren
        }
        let arguments = Array(node.arguments)
        func labeled(_ label: String) -> ExprSyntax? { arguments.first { $0.label?.text == label }?.expression }
        func literal(_ label: String) -> String? { labeled(label).flatMap { plainLiteral($0) } }

        // The app's own routines, before any built-in call of the same name.
        if let form = routines[name] {
            let items = arguments.map { (label: $0.label?.text, item: $0.expression) }
            func part(_ role: ArgumentForm.Role) -> String? {
                form.argument(role, in: items, positionsCountLabeled: true).flatMap { plainLiteral($0) }
            }
            if let key = form.argument(.key, in: items, positionsCountLabeled: true) {
                take(key, interpolating: false, table: part(.table), defaultValue: part(.value), comment: part(.comment), call: name)
            } else {
                result.warnings.append(
                    ExtractionWarning(
                        location: location(node), message: "\(name): no argument \(form.key + 1) (the key), so nothing can be extracted"))
            }
            return .visitChildren
        }

        switch name {
        case "NSLocalizedString":
            guard let first = arguments.first, first.label == nil else { break }
            take(
                first.expression, interpolating: false, table: literal("tableName"), defaultValue: literal("value"),
                comment: literal("comment"), call: name)
        case "String" where arguments.first?.label?.text == "localized":
            take(
                arguments[0].expression, interpolating: true, table: literal("table"), defaultValue: literal("defaultValue"),
                comment: literal("comment"), call: "String(localized:)")
        case "LocalizedStringResource", "LocalizedStringKey", "IntentDialog", "IntentDescription":
            guard let first = arguments.first, first.label == nil else { break }
            take(
                first.expression, interpolating: true, table: literal("table"), defaultValue: literal("defaultValue"),
                comment: literal("comment"), call: name)
        case "localized", "lookup":
            // This project's Swift localizer: localizer.localized("key", table:, defaultValue:).
            guard base != nil, let first = arguments.first, first.label == nil else { break }
            take(
                first.expression, interpolating: false, table: literal("table"), defaultValue: literal("defaultValue"), comment: nil,
                call: name, quietIfNotLiteral: true)
        case "DisplayRepresentation":
            takeLabeled(["title", "subtitle"], of: arguments, call: name)
        case "init" where base == nil && Self.isInside(node, typeNamed: "DisplayRepresentation"):
            takeLabeled(["title", "subtitle"], of: arguments, call: "DisplayRepresentation")
        case _ where SwiftExtractor.localizedStringKeyCalls.contains(name):
            // Only a literal is a LocalizedStringKey; a String variable picks
            // the verbatim initializer, as in SwiftUI.
            guard let first = arguments.first, first.label == nil else { break }
            for choice in Self.literalChoices(first.expression) {
                take(
                    ExprSyntax(choice), interpolating: true, table: name == "Text" ? literal("tableName") : nil, defaultValue: nil,
                    comment: name == "Text" ? literal("comment") : nil, call: name)
            }
        default:
            break
        }
        // The module's own functions that take a LocalizedStringKey.
        for argument in arguments where parameters.contains(callee: name, label: argument.label?.text) {
            for choice in Self.literalChoices(argument.expression) {
                take(ExprSyntax(choice), interpolating: true, table: nil, defaultValue: nil, comment: nil, call: name)
            }
        }
        if name == "AppShortcut" { takeLabeled(["shortTitle"], of: arguments, call: name) }
        if name == "result" { takeLabeled(["dialog"], of: arguments, call: "result(dialog:)") }
        return .visitChildren
    }

    /// The literals an expression can be, where a literal is a key: itself,
    /// both branches of a `?:`, inside parentheses. A variable is none.
    static func literalChoices(_ expression: ExprSyntax) -> [StringLiteralExprSyntax] {
        if let literal = expression.as(StringLiteralExprSyntax.self) { return [literal] }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return literalChoices(only.expression)
        }
        if let ternary = expression.as(TernaryExprSyntax.self) {
            return literalChoices(ternary.thenExpression) + literalChoices(ternary.elseExpression)
        }
        // Unfolded: `condition ? "a" : "b"` is a sequence around an unresolved ternary.
        if let sequence = expression.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            if let index = elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }), index + 1 < elements.count,
                let ternary = elements[index].as(UnresolvedTernaryExprSyntax.self)
            {
                let rest = Array(elements[(index + 1)...])
                let otherwise = rest.count == 1 ? rest[0] : ExprSyntax(SequenceExprSyntax(elements: ExprListSyntax(rest)))
                return literalChoices(ternary.thenExpression) + literalChoices(otherwise)
            }
        }
        return []
    }

    /// `@Parameter(title: "…", description: "…")`.
    override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
        if node.attributeName.trimmedDescription == "Parameter", case .argumentList(let arguments) = node.arguments {
            takeLabeled(["title", "description"], of: Array(arguments), call: "@Parameter")
        }
        return .visitChildren
    }

    /// `static let title: LocalizedStringResource = "…"`, and a computed
    /// property of such a type whose body is one literal.
    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        // The type, or the value type of a dictionary of them
        // (`[Visibility: DisplayRepresentation]`).
        guard let annotation = node.typeAnnotation?.type else { return .visitChildren }
        let valueType = annotation.as(DictionaryTypeSyntax.self)?.value ?? annotation
        let type = valueType.trimmedDescription
        guard SwiftExtractor.resourceTypes.contains(type) else { return .visitChildren }
        if let value = node.initializer?.value, value.is(StringLiteralExprSyntax.self) {
            take(value, interpolating: true, table: nil, defaultValue: nil, comment: nil, call: type)
        } else if let value = node.initializer?.value {
            // `[Tab: DisplayRepresentation] = [.a: "A"]` and such.
            if let dictionary = value.as(DictionaryExprSyntax.self), case .elements(let elements) = dictionary.content {
                for element in elements {
                    for choice in Self.literalChoices(element.value) {
                        take(ExprSyntax(choice), interpolating: true, table: nil, defaultValue: nil, comment: nil, call: type)
                    }
                }
            }
        } else if case .getter(let body)? = node.accessorBlock?.accessors {
            takeResults(of: body, call: type)
        }
        return .visitChildren
    }

    /// `func title() -> LocalizedStringKey { … }`: the literals it returns.
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        if let type = node.signature.returnClause?.type.trimmedDescription, SwiftExtractor.resourceTypes.contains(type),
            let body = node.body
        {
            takeResults(of: body.statements, call: type)
        }
        return .visitChildren
    }

    /// The literals a body returns: each `return "…"`, and its value when it
    /// is one expression (a `switch` or `if` whose branches are literals too).
    func takeResults(of body: CodeBlockItemListSyntax, call: String) {
        for literal in Self.results(of: body) {
            take(ExprSyntax(literal), interpolating: true, table: nil, defaultValue: nil, comment: nil, call: call)
        }
    }

    static func results(of body: CodeBlockItemListSyntax) -> [StringLiteralExprSyntax] {
        var found: [StringLiteralExprSyntax] = []
        if body.count == 1, let only = body.first,
            let expression = only.item.as(ExprSyntax.self) ?? only.item.as(ExpressionStmtSyntax.self)?.expression
        {
            found += resultChoices(expression)
        }
        let returns = ReturnFinder(viewMode: .sourceAccurate)
        returns.walk(body)
        for expression in returns.expressions { found += resultChoices(expression) }
        return found
    }

    static func resultChoices(_ expression: ExprSyntax) -> [StringLiteralExprSyntax] {
        if let switchExpression = expression.as(SwitchExprSyntax.self) {
            return switchExpression.cases.flatMap { item -> [StringLiteralExprSyntax] in
                guard let switchCase = item.as(SwitchCaseSyntax.self) else { return [] }
                return results(of: switchCase.statements)
            }
        }
        if let ifExpression = expression.as(IfExprSyntax.self) {
            var found = results(of: ifExpression.body.statements)
            if case .codeBlock(let block)? = ifExpression.elseBody { found += results(of: block.statements) }
            if case .ifExpr(let nested)? = ifExpression.elseBody { found += resultChoices(ExprSyntax(nested)) }
            return found
        }
        if let dictionary = expression.as(DictionaryExprSyntax.self), case .elements(let elements) = dictionary.content {
            return elements.flatMap { literalChoices($0.value) }
        }
        return literalChoices(expression)
    }

    /// `error = "…"` where the file declares `error: LocalizedStringKey`.
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        if elements.count == 3, elements[1].is(AssignmentExprSyntax.self), let type = types.type(of: elements[0]),
            SwiftExtractor.resourceTypes.contains(type)
        {
            for choice in Self.literalChoices(elements[2]) {
                take(ExprSyntax(choice), interpolating: true, table: nil, defaultValue: nil, comment: nil, call: type)
            }
        }
        return .visitChildren
    }

    /// The literals of the labeled arguments of a call, as keys.
    func takeLabeled(_ labels: [String], of arguments: [LabeledExprSyntax], call: String) {
        for argument in arguments where labels.contains(argument.label?.text ?? "") && argument.expression.is(StringLiteralExprSyntax.self)
        {
            take(argument.expression, interpolating: true, table: nil, defaultValue: nil, comment: nil, call: call)
        }
    }

    /// Whether a node is in the value of a property whose declared type
    /// names `type` (`[Tab: DisplayRepresentation]`).
    static func isInside(_ node: some SyntaxProtocol, typeNamed type: String) -> Bool {
        var parent = node.parent
        while let current = parent {
            if let binding = current.as(PatternBindingSyntax.self) {
                return binding.typeAnnotation?.type.trimmedDescription.contains(type) ?? false
            }
            parent = current.parent
        }
        return false
    }

    /// Records the key of a call, or warns why it cannot.
    func take(
        _ expression: ExprSyntax, interpolating: Bool, table: String?, defaultValue: String?, comment: String?, call: String,
        quietIfNotLiteral: Bool = false
    ) {
        guard let string = expression.as(StringLiteralExprSyntax.self) else {
            if !quietIfNotLiteral {
                result.warnings.append(
                    ExtractionWarning(
                        location: location(expression),
                        message: "\(call): the key is not a string literal, so it cannot be extracted; add it to the table by hand"))
            }
            return
        }
        // An empty literal (`Picker("", selection:)`, `Text("")`) is no key:
        // no translation of it is wanted, so it is left out.
        guard let key = key(of: string, interpolating: interpolating, call: call), !key.isEmpty else { return }
        result.strings.append(
            ExtractedString(
                key: key, table: table ?? "Localizable", defaultValue: defaultValue, comment: comment, location: location(string))
        )
    }

    /// A literal's text as a key: interpolations as specifiers (and `%`
    /// doubled around them, as Xcode writes such keys).
    func key(of literal: StringLiteralExprSyntax, interpolating: Bool, call: String) -> String? {
        if let plain = literal.representedLiteralValue { return plain }
        guard interpolating else {
            result.warnings.append(
                ExtractionWarning(
                    location: location(literal),
                    message: "\(call): an interpolated key cannot be extracted here (the key is looked up as written)"))
            return nil
        }
        let pounds = literal.openingPounds?.text.count ?? 0
        var key = ""
        for segment in literal.segments {
            switch segment {
            case .stringSegment(let text):
                key += StringEscapes.decode(text.content.text, pounds: pounds).replacingOccurrences(of: "%", with: "%%")
            case .expressionSegment(let interpolation):
                key += specifier(for: interpolation)
            }
        }
        return key
    }

    func specifier(for interpolation: ExpressionSegmentSyntax) -> String {
        let parts = Array(interpolation.expressions)
        if let given = parts.first(where: { $0.label?.text == "specifier" }).flatMap({ plainLiteral($0.expression) }) { return given }
        if parts.contains(where: { ["format", "formatter", "style"].contains($0.label?.text ?? "") }) { return "%@" }
        guard let value = parts.first?.expression else { return "%@" }
        if let type = types.type(of: value), let specifier = Self.specifiers[type] { return specifier }
        if types.type(of: value) == nil {
            result.warnings.append(
                ExtractionWarning(
                    location: location(value),
                    message: "the type of '\(value.trimmedDescription)' cannot be told from this file; written %@ (an object)"))
        }
        return "%@"
    }

    /// What Xcode writes for an interpolated value of each type.
    static let specifiers: [String: String] = [
        "Int": "%lld", "Int64": "%lld", "Int32": "%d", "Int16": "%d", "Int8": "%d",
        "UInt": "%llu", "UInt64": "%llu", "UInt32": "%u", "UInt16": "%u", "UInt8": "%u",
        "Double": "%lf", "CGFloat": "%lf", "Float": "%f",
    ]

    func plainLiteral(_ expression: ExprSyntax) -> String? {
        expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
    }
}

/// The `return` statements of a body, not of the closures and functions
/// inside it.
private final class ReturnFinder: SyntaxVisitor {
    var expressions: [ExprSyntax] = []

    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
        if let expression = node.expression { expressions.append(expression) }
        return .skipChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}

/// Swift's escapes in a literal's text: `\n`, `\t`, `\r`, `\0`, `\\`, `\"`,
/// `\'` and `\u{…}`, after as many `#` as the literal's delimiter has.
enum StringEscapes {
    static func decode(_ raw: String, pounds: Int) -> String {
        let escape = "\\" + String(repeating: "#", count: pounds)
        guard raw.contains(escape) else { return raw }
        var output = ""
        var rest = Substring(raw)
        while let range = rest.range(of: escape) {
            output += rest[..<range.lowerBound]
            rest = rest[range.upperBound...]
            guard let next = rest.first else {
                output += escape
                break
            }
            rest = rest.dropFirst()
            switch next {
            case "n": output += "\n"
            case "t": output += "\t"
            case "r": output += "\r"
            case "0": output += "\0"
            case "\\", "\"", "'": output.append(next)
            case "u" where rest.first == "{":
                if let close = rest.firstIndex(of: "}"), let value = UInt32(rest[rest.index(after: rest.startIndex)..<close], radix: 16),
                    let scalar = Unicode.Scalar(value)
                {
                    output.unicodeScalars.append(scalar)
                    rest = rest[rest.index(after: close)...]
                } else {
                    output += escape + "u"
                }
            default:
                output += escape
                output.append(next)
            }
        }
        output += rest
        return output
    }
}
