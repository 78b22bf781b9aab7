/// An app's own function or macro that takes a key, as `genstrings -s`
/// names one: Sparkle's `SULocalizedStringFromTableInBundle(key, table,
/// bundle, comment)`, a wrapper around the C client's
/// `lprojd_localizer_lookup(localizer, key, table, default)`, a Python `tr(key)`.
///
/// Written `NAME` or `NAME:KEY,TABLE,VALUE,COMMENT`, each a 1-based
/// position among the call's arguments; a position left out, empty or `0`
/// means the call has none (`tr:1`, `APP_TR:2,3`, `L:1,,,2`). `NAME` alone is
/// called as `NSLocalizedString` is (the key first, the comment second), and,
/// as `genstrings -s` has it, `NAMEFromTable`, `NAMEFromTableInBundle` and
/// `NAMEWithDefaultValue` are called as Foundation's macros of those names.
public struct Routine: Sendable, Hashable, CustomStringConvertible {
    /// The function's or macro's name.
    public let name: String
    /// Where each part is among the arguments, 0-based.
    let form: ArgumentForm
    /// Given as NAME alone.
    let isDefault: Bool

    /// What a `--routine` can be told wrong.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ specification: String) throws(Invalid) {
        let parts = specification.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        guard let first = name.unicodeScalars.first, Self.isIdentifierHead(first), name.unicodeScalars.allSatisfy(Self.isIdentifierBody)
        else {
            throw Invalid(description: "--routine \(specification): \"\(name)\" is not a function or macro name (letters, digits and _)")
        }
        self.name = name
        guard parts.count == 2 else {
            form = ArgumentForm(key: 0, table: nil, value: nil, comment: 1)
            isDefault = true
            return
        }
        let fields = parts[1].split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count <= 4 else {
            throw Invalid(
                description: "--routine \(specification): at most four positions (key, table, value, comment), not \(fields.count)")
        }
        var positions: [Int?] = []
        for (field, role) in zip(fields, ArgumentForm.roles) {
            let text = field.trimmingSpaces
            if text.isEmpty || text == "0" {
                positions.append(nil)
                continue
            }
            guard text.allSatisfy(\.isASCIIDigit), let position = Int(text), position <= 64 else {
                throw Invalid(
                    description:
                        "--routine \(specification): the \(role) position \"\(text)\" is not a number from 1 to 64 (0 or empty: none)")
            }
            if let earlier = positions.firstIndex(of: position) {
                throw Invalid(
                    description:
                        "--routine \(specification): the \(role) and the \(ArgumentForm.roles[earlier]) are both argument \(position)")
            }
            positions.append(position)
        }
        positions += Array(repeating: nil, count: 4 - positions.count)
        guard let key = positions[0] else {
            throw Invalid(description: "--routine \(specification): the key's position is needed (1 for the first argument)")
        }
        form = ArgumentForm(
            key: key - 1, table: positions[1].map { $0 - 1 }, value: positions[2].map { $0 - 1 }, comment: positions[3].map { $0 - 1 })
        isDefault = false
    }

    public var description: String {
        isDefault
            ? name
            : name + ":" + [form.key, form.table, form.value, form.comment].map { $0.map { String($0 + 1) } ?? "" }.joined(separator: ",")
    }

    /// The calls it names, with where each takes its parts: itself, and,
    /// as NAME alone, Foundation's three variants.
    var forms: [String: ArgumentForm] {
        guard isDefault else { return [name: form] }
        return [
            name: form,
            name + "FromTable": ArgumentForm(key: 0, table: 1, value: nil, comment: 2),
            name + "FromTableInBundle": ArgumentForm(key: 0, table: 1, value: nil, comment: 3),
            name + "WithDefaultValue": ArgumentForm(key: 0, table: 1, value: 3, comment: 4),
        ]
    }

    /// The forms of several routines; a later one of a name wins.
    static func forms(_ routines: [Routine]) -> [String: ArgumentForm] {
        var forms: [String: ArgumentForm] = [:]
        for routine in routines { forms.merge(routine.forms) { $1 } }
        return forms
    }

    static func isIdentifierHead(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    static func isIdentifierBody(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierHead(scalar) || ("0"..."9").contains(scalar)
    }
}

/// Where a call's key, table, default value and comment are among its
/// arguments (0-based; nil: it has none).
struct ArgumentForm: Sendable, Hashable {
    let key: Int
    let table: Int?
    let value: Int?
    let comment: Int?

    static let roles = ["key", "table", "value", "comment"]

    /// The labels (Swift) and keywords (Python) that name a part wherever
    /// the argument stands: `comment:`, `table=`.
    static let labels: [String: Role] = [
        "key": .key, "table": .table, "tableName": .table, "value": .value, "defaultValue": .value, "default": .value,
        "comment": .comment,
    ]

    enum Role: Sendable {
        case key, table, value, comment
    }

    /// The argument that holds a part: the one labelled with its name
    /// (``labels``), else the one at its position unless that one's label
    /// names another part. In Swift every argument counts for positions
    /// (`positionsCountLabeled`); in Python only the positional ones.
    func argument<Item>(_ role: Role, in arguments: [(label: String?, item: Item)], positionsCountLabeled: Bool) -> Item? {
        if let named = arguments.first(where: { $0.label.flatMap { Self.labels[$0] } == role }) { return named.item }
        guard let position = position(of: role) else { return nil }
        let counted = positionsCountLabeled ? arguments : arguments.filter { $0.label == nil }
        guard position < counted.count else { return nil }
        if let label = counted[position].label, Self.labels[label] != nil { return nil }
        return counted[position].item
    }

    func position(of role: Role) -> Int? {
        switch role {
        case .key: key
        case .table: table
        case .value: value
        case .comment: comment
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
