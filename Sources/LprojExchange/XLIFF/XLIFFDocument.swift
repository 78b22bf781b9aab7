package import LprojTables

/// An XLIFF 1.2 document as Xcode exchanges it: one `<file>` per table
/// file, each holding `<trans-unit>`s of `source`, `target` and `note`.
package struct XLIFFDocument: Sendable, Hashable {
    /// The files, in order.
    package var files: [File]

    /// Creates a document.
    package init(files: [File]) {
        self.files = files
    }

    /// The tool that wrote a file (`<header><tool …/>`).
    package struct Tool: Sendable, Hashable {
        package var id: String
        package var name: String
        package var version: String
        package var buildNumber: String?

        /// Creates a tool description.
        package init(id: String, name: String, version: String, buildNumber: String? = nil) {
            self.id = id
            self.name = name
            self.version = version
            self.buildNumber = buildNumber
        }
    }

    /// One `<file>`: a table file of the project, named by its path.
    package struct File: Sendable, Hashable {
        /// The development language's file (or the catalog), relative to the bundle.
        package var original: String
        package var sourceLanguage: String
        package var targetLanguage: String?
        package var tool: Tool?
        package var units: [Unit]
        /// Where the `<file>` element is, when read.
        package var location: SourceLocation?

        /// Creates a file.
        package init(
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
    package struct Unit: Sendable, Hashable {
        package var id: String
        package var source: String
        /// The translation; nil when the unit has no `<target>`.
        package var target: String?
        /// The target's `state` (`new`, `translated`, `needs-review-l10n`, …).
        package var state: String?
        /// The target's `state-qualifier` (`leveraged-mt`).
        package var stateQualifier: String?
        /// The developer's comment; nil writes an empty `<note/>`.
        package var note: String?
        /// The note's `from` (`auto-generated`).
        package var noteFrom: String?
        /// Where the `<trans-unit>` is, when read.
        package var location: SourceLocation?
        /// Where its `<target>` is, when read.
        package var targetLocation: SourceLocation?

        /// Creates a unit.
        package init(
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
    package static let namespace = "urn:oasis:names:tc:xliff:document:1.2"
}
