package import LprojTables

/// A gettext PO (or POT) file: its header and its messages.
package struct PODocument: Sendable, Hashable {
    /// The header entry's fields, in order (`Language`, `Plural-Forms`, …).
    package var header: [(name: String, value: String)]
    package var messages: [POMessage]

    package init(header: [(name: String, value: String)], messages: [POMessage]) {
        self.header = header
        self.messages = messages
    }

    /// A header field's value.
    package func field(_ name: String) -> String? {
        header.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    package static func == (lhs: PODocument, rhs: PODocument) -> Bool {
        lhs.header.map(\.name) == rhs.header.map(\.name) && lhs.header.map(\.value) == rhs.header.map(\.value)
            && lhs.messages == rhs.messages
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(messages)
    }
}

/// One message of a PO file.
package struct POMessage: Sendable, Hashable {
    /// `#.` comments: the developer's, for translators.
    package var extractedComments: [String] = []
    /// `#:` references.
    package var references: [String] = []
    /// `#,` flags (`c-format`, `fuzzy`).
    package var flags: [String] = []
    package var context: String?
    package var id: String
    package var idPlural: String?
    /// One string, or one per plural form.
    package var strings: [String]
    /// Where the message starts, when read.
    package var location: SourceLocation?

    package init(
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
