internal import LprojEngine
internal import LprojFormat
internal import LprojTables

/// Compares a translation's format arguments with the development language's.
enum ArgumentChecks {
    static func compare(_ translation: ParsedTableFile, development folder: String, files: TableFileSet) -> [Diagnostic] {
        let fileName = TreePath.lastComponent(translation.path)
        guard let table = fileName.split(separator: ".").dropLast().joined(separator: ".").nilIfEmpty else { return [] }
        let developmentFiles = ["\(table).stringsdict", "\(table).strings"].compactMap { try? files.read(TreePath.join(folder, $0)).get() }
        guard !developmentFiles.isEmpty else { return [] }
        let developmentName = String(TreePath.lastComponent(folder).dropLast(".lproj".count))
        var diagnostics: [Diagnostic] = []
        for (key, location) in translation.keys {
            guard let translated = translation.format(forKey: key),
                let original = developmentFiles.lazy.compactMap({ $0.format(forKey: key) }).first
            else { continue }
            let expected = ArgumentSignature(original.format, variables: original.variables)
            let actual = ArgumentSignature(translated.format, variables: translated.variables)
            diagnostics += differences(expected: expected, actual: actual, key: key, location: location, developmentName: developmentName)
        }
        return diagnostics
    }

    /// `alsoPassed`: arguments the code passes that the development value
    /// need not print (a catalog key's own specifiers, which Xcode took from
    /// the code's interpolation); a translation may use them.
    static func differences(
        expected: ArgumentSignature, actual: ArgumentSignature, key: String, location: SourceLocation?, developmentName: String,
        alsoPassed: ArgumentSignature? = nil
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let positions = Set(expected.uses.keys).union(actual.uses.keys).sorted()
        for position in positions {
            let used = actual.kind(at: position)
            // What the argument is: as the development value uses it, else
            // as the code passes it.
            let wanted = expected.kind(at: position).map { ($0, developmentName) } ?? alsoPassed?.kind(at: position).map { ($0, "the key") }
            switch (wanted, used) {
            case let ((wanted, source)?, _?):
                let conflicting = actual.uses[position]!.first {
                    !$0.kind.isCompatible(with: wanted.kind) && !(wanted.kind == .pluralNumber && $0.kind == .pluralNumber)
                }
                if let conflicting {
                    diagnostics.append(
                        Diagnostic(
                            severity: .error, location: location, code: "argument-type",
                            message:
                                "\"\(key)\": argument \(position) is \(conflicting.specifier) (\(conflicting.kind)) here but \(wanted.specifier) (\(wanted.kind)) in \(source); the arguments' order or types differ",
                            keyPath: key))
                }
            case let (nil, used?):
                diagnostics.append(
                    Diagnostic(
                        severity: .error, location: location, code: "argument-extra",
                        message: "\"\(key)\": \(used.specifier) uses argument \(position), which \(developmentName) does not pass",
                        keyPath: key))
            case let ((wanted, _)?, nil):
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, location: location, code: "argument-dropped",
                        message: "\"\(key)\": argument \(position) (\(wanted.specifier) in \(developmentName)) is not used here",
                        keyPath: key))
            case (nil, nil):
                break
            }
        }
        return diagnostics
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
