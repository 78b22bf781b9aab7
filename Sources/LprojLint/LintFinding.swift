package import LprojTables

/// One thing the linter found, in one file.
package struct LintFinding: Sendable, Hashable, Comparable {
    /// The file, as the path it was found under.
    package let file: String
    /// What was found.
    package let diagnostic: Diagnostic

    /// Creates a finding.
    package init(file: String, diagnostic: Diagnostic) {
        self.file = file
        self.diagnostic = diagnostic
    }

    /// `file:line:column: severity: message`, as compilers print it.
    package var formatted: String { diagnostic.formatted(file: file) }

    package static func < (lhs: LintFinding, rhs: LintFinding) -> Bool {
        if lhs.file != rhs.file { return lhs.file < rhs.file }
        let left = lhs.diagnostic.location ?? SourceLocation(line: 0, column: 0)
        let right = rhs.diagnostic.location ?? SourceLocation(line: 0, column: 0)
        if left != right { return left < right }
        return lhs.diagnostic.message < rhs.diagnostic.message
    }
}
