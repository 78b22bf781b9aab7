// Conveniences over the generated types: ways to make them, not more of
// the schema (the fields are the generated ones).

public import VarlinkProtocol

extension Localization.Argument {
    /// A string argument (`%@`).
    public static func string(_ value: String) -> Self { Self(string: value) }

    /// An integer argument (`%d`, `%ld`, `%lld`, a plural's number).
    public static func int(_ value: Int) -> Self { Self(int: value) }

    /// A floating-point argument (`%f`, `%g`); `fractionDigits` are the
    /// visible ones, which decide its plural category (1.50 has 2).
    public static func float(_ value: Double, fractionDigits: Int? = nil) -> Self {
        Self(float: JSONNumber(value, fractionDigits: fractionDigits ?? 0), fractionDigits: fractionDigits)
    }
}

extension Localization.Miss {
    /// A miss whose times are given as seconds since 1970 (written to the
    /// millisecond).
    public init(
        bundle: String, locale: String, table: String, key: String, count: Int, clients: Int, firstSeen: Double, lastSeen: Double
    ) {
        func milliseconds(_ seconds: Double) -> JSONNumber { JSONNumber((seconds * 1000).rounded() / 1000, fractionDigits: 3) }
        self.init(
            bundle: bundle, locale: locale, table: table, key: key, count: count, clients: clients, firstSeen: milliseconds(firstSeen),
            lastSeen: milliseconds(lastSeen))
    }
}

extension Localization.Preferences {
    /// The fields that are set, by name, in the interface's order.
    public var setFields: [(name: String, value: String)] {
        varlinkObject.members.compactMap { name, value in
            if case .string(let text) = value { (name, text) } else { nil }
        }
    }

    /// Preferences from fields by name; a name that is not a field is a
    /// ``SchemaError`` naming it.
    public init(fields: some Sequence<(name: String, value: String)>) throws(SchemaError) {
        var object = JSONObject()
        for (name, value) in fields { object[name] = .string(value) }
        try self.init(varlink: object, unknownFields: .reject)
    }
}
