internal import SwiftSyntax

/// The types a file declares for its names (`let count: Int`, `var n = 0`,
/// `func f(total: Double)`), to tell what an interpolation holds without a
/// type checker. A name declared with two different types is not known.
struct DeclaredTypes {
    private var types: [String: String?] = [:]

    init(_ tree: SourceFileSyntax) {
        let collector = Collector(viewMode: .sourceAccurate)
        collector.walk(tree)
        types = collector.types
    }

    /// A type's name without its optional marks (`Int?` is `Int`).
    static func name(of type: TypeSyntax) -> String {
        var text = type.trimmedDescription
        while text.hasSuffix("?") || text.hasSuffix("!") { text.removeLast() }
        return text
    }

    /// The type of an expression, when this file says it.
    func type(of expression: ExprSyntax) -> String? {
        if expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if expression.is(FloatLiteralExprSyntax.self) { return "Double" }
        if expression.is(StringLiteralExprSyntax.self) { return "String" }
        if expression.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if let unwrapped = expression.as(ForceUnwrapExprSyntax.self) { return type(of: unwrapped.expression) }
        if let chained = expression.as(OptionalChainingExprSyntax.self) { return type(of: chained.expression) }
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return types[reference.baseName.text] ?? nil }
        if let member = expression.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            if name == "count" { return "Int" }
            if name == "description" || name == "localizedDescription" { return "String" }
            return types[name] ?? nil
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            // Arithmetic: `index + 1` is an Int, `x * 2.5` a Double.
            let elements = Array(sequence.elements)
            let arithmetic = elements.allSatisfy { element in
                guard let op = element.as(BinaryOperatorExprSyntax.self) else { return true }
                return ["+", "-", "*", "/", "%"].contains(op.operator.text)
            }
            guard arithmetic else { return nil }
            let operands = elements.filter { !$0.is(BinaryOperatorExprSyntax.self) }.map { type(of: $0) }
            if operands.contains("Double") { return "Double" }
            if operands.contains("Int") { return operands.allSatisfy { $0 == nil || $0 == "Int" } ? "Int" : nil }
            return nil
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self) {
                let name = callee.baseName.text
                if ["Int", "Int64", "Int32", "UInt", "UInt64", "Double", "Float", "CGFloat", "String"].contains(name) { return name }
            }
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                ["formatted", "uppercased", "lowercased", "capitalized", "joined"].contains(member.declName.baseName.text)
            {
                return "String"
            }
        }
        return nil
    }

    private final class Collector: SyntaxVisitor {
        var types: [String: String?] = [:]

        func declare(_ name: String, _ type: String?) {
            guard let type else { return }
            if let known = types[name], known != type {
                types[name] = .some(nil)
            } else {
                types[name] = type
            }
        }

        override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
            guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return .visitChildren }
            if let annotation = node.typeAnnotation {
                declare(name, DeclaredTypes.name(of: annotation.type))
            } else if let value = node.initializer?.value {
                if value.is(IntegerLiteralExprSyntax.self) {
                    declare(name, "Int")
                } else if value.is(FloatLiteralExprSyntax.self) {
                    declare(name, "Double")
                } else if value.is(StringLiteralExprSyntax.self) {
                    declare(name, "String")
                }
            }
            return .visitChildren
        }

        override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
            let name = (node.secondName ?? node.firstName).text
            declare(name, DeclaredTypes.name(of: node.type))
            return .visitChildren
        }

        override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
            if let type = node.type { declare((node.secondName ?? node.firstName).text, DeclaredTypes.name(of: type)) }
            return .visitChildren
        }
    }
}
