public import LprojTables

/// A gettext PO (or POT) file: its header and its messages.
public struct PODocument: Sendable, Hashable {
    /// The header entry's fields, in order (`Language`, `Plural-Forms`, …).
    public var header: [(name: String, value: String)]
    public var messages: [POMessage]

    public init(header: [(name: String, value: String)], messages: [POMessage]) {
        self.header = header
        self.messages = messages
    }

    /// A header field's value.
    public func field(_ name: String) -> String? {
        header.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public static func == (lhs: PODocument, rhs: PODocument) -> Bool {
        lhs.header.map(\.name) == rhs.header.map(\.name) && lhs.header.map(\.value) == rhs.header.map(\.value)
            && lhs.messages == rhs.messages
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(messages)
    }
}

/// One message of a PO file.
public struct POMessage: Sendable, Hashable {
    /// `#.` comments: the developer's, for translators.
    public var extractedComments: [String] = []
    /// `#:` references.
    public var references: [String] = []
    /// `#,` flags (`c-format`, `fuzzy`).
    public var flags: [String] = []
    public var context: String?
    public var id: String
    public var idPlural: String?
    /// One string, or one per plural form.
    public var strings: [String]
    /// Where the message starts, when read.
    public var location: SourceLocation?

    public init(
        extractedComments: [String] = [], references: [String] = [], flags: [String] = [], context: String?, id: String,
        idPlural: String? = nil, strings: [String], location: SourceLocation? = nil
    ) {
        self.extractedComments = extractedComments
        self.references = references
        self.flags = flags
        self.context = context
        self.id = id
        self.idPlural = idPlural
        self.strings = strings
        self.location = location
    }
}
