internal import LprojEngine
internal import LprojFormatStrings
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
        let keys = translation.keys
        let source = SpecifierFinder(bytes: translation.bytes, entryStarts: keys.compactMap(\.location))
        for (key, location) in keys {
            guard let translated = translation.format(forKey: key),
                let original = developmentFiles.lazy.compactMap({ $0.format(forKey: key) }).first
            else { continue }
            let expected = ArgumentSignature(original.format, variables: original.variables)
            let actual = ArgumentSignature(translated.format, variables: translated.variables)
            diagnostics += differences(
                expected: expected, actual: actual, key: key, location: location, developmentName: developmentName,
                locate: { specifier in location.flatMap { source.find(specifier, inEntryAt: $0) } })
        }
        return diagnostics
    }

    /// `alsoPassed`: arguments the code passes that the development value
    /// need not print (a catalog key's own specifiers, which Xcode took from
    /// the code's interpolation); a translation may use them.
    static func differences(
        expected: ArgumentSignature, actual: ArgumentSignature, key: String, location: SourceLocation?, developmentName: String,
        alsoPassed: ArgumentSignature? = nil, locate: (String) -> SourceLocation? = { _ in nil }
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
                            severity: .error, location: locate(conflicting.specifier) ?? location, code: "argument-type",
                            message:
                                "\"\(key)\": argument \(position) is \(conflicting.specifier) (\(conflicting.kind)) here but \(wanted.specifier) (\(wanted.kind)) in \(source); the arguments' order or types differ",
                            keyPath: key))
                }
            case let (nil, used?):
                diagnostics.append(
                    Diagnostic(
                        severity: .error, location: locate(used.specifier) ?? location, code: "argument-extra",
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

/// Where a specifier is written in a table file, so that a finding about it
/// points at it, as a compiler's does, rather than at its entry's key: the
/// first place the specifier's text appears after the entry's start and
/// before the next entry's. Columns count Unicode scalars, as the parsers'
/// locations do. A specifier written with escapes is not found, and the
/// finding keeps the entry's location.
struct SpecifierFinder {
    private let lines: [[Unicode.Scalar]]
    private let entryStarts: [SourceLocation]

    init(bytes: [UInt8], entryStarts: [SourceLocation]) {
        let text: String
        switch (bytes.first, bytes.dropFirst().first) {
        case (0xFF, 0xFE):
            text = String(
                decoding: stride(from: 2, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }, as: UTF16.self
            )
        case (0xFE, 0xFF):
            text = String(
                decoding: stride(from: 2, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }, as: UTF16.self
            )
        default:
            text = String(decoding: bytes, as: UTF8.self)
        }
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        self.entryStarts = entryStarts.sorted()
    }

    func find(_ specifier: String, inEntryAt start: SourceLocation) -> SourceLocation? {
        let needle = Array(specifier.unicodeScalars)
        guard !needle.isEmpty, start.line >= 1 else { return nil }
        let end = entryStarts.first { $0 > start }
        // The last place in the entry: the value follows the key, which may
        // hold the same text.
        var found: SourceLocation?
        for line in start.line...min(lines.count, end?.line ?? lines.count) {
            let scalars = lines[line - 1]
            var index = line == start.line ? start.column - 1 : 0
            while index >= 0, index + needle.count <= scalars.count {
                let here = SourceLocation(line: line, column: index + 1)
                if let end, here >= end { break }
                if scalars[index] == needle[0], scalars[index..<index + needle.count].elementsEqual(needle) { found = here }
                index += 1
            }
        }
        return found
    }
}
