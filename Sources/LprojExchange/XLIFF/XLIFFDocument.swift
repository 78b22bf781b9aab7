public import LprojTables

/// An XLIFF 1.2 document as Xcode exchanges it: one `<file>` per table
/// file, each holding `<trans-unit>`s of `source`, `target` and `note`.
public struct XLIFFDocument: Sendable, Hashable {
    /// The files, in order.
    public var files: [File]

    /// Creates a document.
    public init(files: [File]) {
        self.files = files
    }

    /// The tool that wrote a file (`<header><tool …/>`).
    public struct Tool: Sendable, Hashable {
        public var id: String
        public var name: String
        public var version: String
        public var buildNumber: String?

        /// Creates a tool description.
        public init(id: String, name: String, version: String, buildNumber: String? = nil) {
            self.id = id
            self.name = name
            self.version = version
            self.buildNumber = buildNumber
        }
    }

    /// One `<file>`: a table file of the project, named by its path.
    public struct File: Sendable, Hashable {
        /// The development language's file (or the catalog), relative to the bundle.
        public var original: String
        public var sourceLanguage: String
        public var targetLanguage: String?
        public var tool: Tool?
        public var units: [Unit]
        /// Where the `<file>` element is, when read.
        public var location: SourceLocation?

        /// Creates a file.
        public init(
            original: String, sourceLanguage: String, targetLanguage: String?, tool: Tool?, units: [Unit],
            location: SourceLocation? = nil
        ) {
            self.original = original
            self.sourceLanguage = sourceLanguage
            self.targetLanguage = targetLanguage
            self.tool = tool
            self.units = units
            self.location = location
        }
    }

    /// One `<trans-unit>`.
    public struct Unit: Sendable, Hashable {
        public var id: String
        public var source: String
        /// The translation; nil when the unit has no `<target>`.
        public var target: String?
        /// The target's `state` (`new`, `translated`, `needs-review-l10n`, …).
        public var state: String?
        /// The target's `state-qualifier` (`leveraged-mt`).
        public var stateQualifier: String?
        /// The developer's comment; nil writes an empty `<note/>`.
        public var note: String?
        /// The note's `from` (`auto-generated`).
        public var noteFrom: String?
        /// Where the `<trans-unit>` is, when read.
        public var location: SourceLocation?
        /// Where its `<target>` is, when read.
        public var targetLocation: SourceLocation?

        /// Creates a unit.
        public init(
            id: String, source: String, target: String? = nil, state: String? = nil, stateQualifier: String? = nil,
            note: String? = nil, noteFrom: String? = nil, location: SourceLocation? = nil, targetLocation: SourceLocation? = nil
        ) {
            self.id = id
            self.source = source
            self.target = target
            self.state = state
            self.stateQualifier = stateQualifier
            self.note = note
            self.noteFrom = noteFrom
            self.location = location
            self.targetLocation = targetLocation
        }
    }

    /// XLIFF 1.2's namespace.
    public static let namespace = "urn:oasis:names:tc:xliff:document:1.2"
}
