/// Which argument each position of a format takes, and as what: what a
/// translation must keep from the development language.
///
/// Positions are numbered exactly as ``FormatRenderer`` numbers them,
/// including the conversions inside every form of every plural variable.
public struct ArgumentSignature: Sendable, Hashable {
    /// One use of an argument.
    public struct Use: Sendable, Hashable {
        /// What the conversion needs.
        public let kind: ArgumentKind
        /// The conversion as written (`%d`, `%2$@`, `%#@files@`).
        public let specifier: String
    }

    /// Uses by 1-based position; a position used twice lists both uses.
    public private(set) var uses: [Int: [Use]] = [:]

    /// The signature of a format and the plural variables it may use.
    public init(_ format: FormatString, variables: [String: PluralVariable] = [:]) {
        collect(format, startingAt: 0, variables: variables, trail: [])
    }

    /// The highest position used, or 0.
    public var argumentCount: Int { uses.keys.max() ?? 0 }

    /// The kind expected at a position, preferring a concrete one over the
    /// plural number that selects a form.
    public func kind(at position: Int) -> Use? {
        guard let list = uses[position] else { return nil }
        return list.first { $0.kind != .pluralNumber } ?? list.first
    }

    private mutating func collect(_ format: FormatString, startingAt first: Int, variables: [String: PluralVariable], trail: [String]) {
        var next = first
        func take() -> Int {
            defer { next += 1 }
            return next
        }
        for segment in format.segments {
            switch segment {
            case .specifier(let specifier):
                if case .argument(let position)? = specifier.width {
                    record(position.map { $0 - 1 } ?? take(), Use(kind: .integer, specifier: specifier.text))
                }
                if case .argument(let position)? = specifier.precision {
                    record(position.map { $0 - 1 } ?? take(), Use(kind: .integer, specifier: specifier.text))
                }
                record(specifier.position.map { $0 - 1 } ?? take(), Use(kind: specifier.conversion.argumentKind, specifier: specifier.text))
            case .variable(let reference):
                let index = reference.position.map { $0 - 1 } ?? take()
                record(index, Use(kind: .pluralNumber, specifier: reference.text))
                guard let variable = variables[reference.name], !trail.contains(reference.name) else { continue }
                for category in PluralCategory.allCases {
                    if let form = variable.parsedForms[category] {
                        collect(form, startingAt: index, variables: variables, trail: trail + [reference.name])
                    }
                }
            case .literal, .unknown, .incomplete, .malformedVariable:
                break
            }
        }
    }

    private mutating func record(_ index: Int, _ use: Use) {
        guard index >= 0 else { return }
        if !(uses[index + 1]?.contains(use) ?? false) { uses[index + 1, default: []].append(use) }
    }
}

extension ArgumentKind {
    /// Whether one argument can serve conversions of both kinds (a plural
    /// number is also printed with `%d`; any argument prints with `%@`).
    public func isCompatible(with other: ArgumentKind) -> Bool {
        if self == other { return true }
        switch (self, other) {
        case (.pluralNumber, .integer), (.integer, .pluralNumber), (.pluralNumber, .floatingPoint), (.floatingPoint, .pluralNumber):
            return true
        case (.integer, .floatingPoint), (.floatingPoint, .integer):
            return false
        default:
            return false
        }
    }
}
