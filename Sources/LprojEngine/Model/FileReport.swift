package import LprojTables

/// What loading one table file produced besides its entries.
package struct FileReport: Sendable, Hashable {
    /// The file, relative to the bundle directory: `de.lproj/Localizable.strings`.
    package let path: String
    /// Everything the parser and validator noticed.
    package let diagnostics: [Diagnostic]
    /// Whether the file could not be read at all; the table then keeps its
    /// last good version, if it had one.
    package let failed: Bool

    /// Creates a report.
    package init(path: String, diagnostics: [Diagnostic], failed: Bool) {
        self.path = path
        self.diagnostics = diagnostics
        self.failed = failed
    }

    /// The report of a file that could not be read: too large, or the system's reason.
    package init(unreadable path: String, _ error: FileTreeError) {
        let diagnostic =
            switch error {
            case .tooLarge: Diagnostic(severity: .error, location: nil, code: "too-large", message: "\(error)")
            case .unreadable: Diagnostic(severity: .error, location: nil, code: "unreadable", message: "cannot be read: \(error)")
            case .notRegular: Diagnostic(severity: .error, location: nil, code: "not-regular", message: "\(error)")
            case .outsideRoot, .notFollowed: Diagnostic(severity: .error, location: nil, code: "outside-bundle", message: "\(error)")
            case .tooManyEntries: Diagnostic(severity: .error, location: nil, code: "bundle-limit", message: "\(error)")
            }
        self.init(path: path, diagnostics: [diagnostic], failed: true)
    }

    /// The error-severity diagnostics.
    package var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
}
