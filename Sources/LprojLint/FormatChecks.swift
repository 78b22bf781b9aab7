internal import LprojFormatStrings
internal import LprojTables

/// Format strings that work, but not the way everyone reads them.
enum FormatChecks {
    static func tolerated(_ file: ParsedTableFile) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (key, location) in file.keys {
            guard let (format, variables) = file.format(forKey: key) else { continue }
            var formats = [format]
            for variable in variables.values { formats += variable.parsedForms.values }
            for reference in formats.flatMap(\.variableReferences) where reference.hasPositionWithoutDollar {
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, location: location, code: "position-without-dollar",
                        message:
                            "\"\(key)\": \(reference.text) has a position without '$'; lprojd reads argument \(reference.position ?? 0), Foundation reads a width; write %\(reference.position ?? 1)$#@\(reference.name)@",
                        keyPath: key))
            }
        }
        return diagnostics
    }
}
