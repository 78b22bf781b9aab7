public import LprojExchange

/// Which extractor reads a file, by its name (or, for a script without an
/// extension, by its `#!` line).
public enum SourceLanguage: Sendable {
    case swift
    case c
    case python

    public init?(fileName: String) {
        if fileName.hasSuffix(".swift") {
            self = .swift
        } else if [".c", ".h", ".m", ".mm", ".cc", ".cpp"].contains(where: { fileName.hasSuffix($0) }) {
            self = .c
        } else if fileName.hasSuffix(".py") {
            self = .python
        } else {
            return nil
        }
    }

    /// A file without an extension whose first line runs Python
    /// (`#!/usr/bin/env python3`, `#!/usr/bin/python3 -I`): an app's launcher.
    public init?(fileName: String, firstLine: String) {
        if let known = SourceLanguage(fileName: fileName) {
            self = known
            return
        }
        let name = fileName.split(separator: "/").last ?? ""
        guard !name.contains("."), firstLine.hasPrefix("#!") else { return nil }
        let words = firstLine.dropFirst(2).split(whereSeparator: { $0 == " " || $0 == "\t" })
        // The interpreter, or the program `env` runs (after its options).
        var program = words.first.map { $0.split(separator: "/").last ?? $0 } ?? ""
        if program == "env", let next = words.dropFirst().first(where: { !$0.hasPrefix("-") }) { program = next }
        guard program.hasPrefix("python") else { return nil }
        self = .python
    }
}

/// Reads an app's sources, each with its language's extractor: the Swift
/// files together (one file's declarations make literals in another keys),
/// C and Objective-C file by file, the Python files in one run of `python3`.
public struct Extraction: Sendable {
    public var routines: [Routine]
    /// The Python interpreter, a path or a name on `PATH`.
    public var python: String

    public init(routines: [Routine] = [], python: String = "python3") {
        self.routines = routines
        self.python = python
    }

    /// `progress` is told of each file once it is read (a progress bar's step).
    public func extract(
        _ files: [(path: String, language: SourceLanguage, text: String)], progress: (String) -> Void = { _ in }
    ) throws(PythonExtractor.Failure) -> ExtractionResult {
        var result = ExtractionResult()
        let c = CExtractor(routines: routines)
        for file in files where file.language == .c {
            result.append(c.extract(source: file.text, file: file.path))
            progress(file.path)
        }
        result.append(
            SwiftExtractor(routines: routines).extract(
                files.filter { $0.language == .swift }.map { (path: $0.path, text: $0.text) }, parsed: progress))
        let python = files.filter { $0.language == .python }.map { (path: $0.path, text: $0.text) }
        result.append(try PythonExtractor(routines: routines, python: self.python).extract(python))
        for file in python { progress(file.path) }
        return result
    }
}

extension ExtractionResult {
    /// Every place the code uses each key, as `file:line` (a leading `./`
    /// dropped, as xgettext drops it): the `#:` comments of a PO export.
    public func references() -> SourceReferences {
        var references = SourceReferences()
        for string in strings.sorted(by: { $0.location < $1.location }) {
            var file = Substring(string.location.file)
            while file.hasPrefix("./") { file = file.dropFirst(2).drop { $0 == "/" } }
            references.add(table: string.table, key: string.key, place: "\(file):\(string.location.line)")
        }
        return references
    }

    /// The strings by table, in the order found; a key met twice with two
    /// different default values or comments keeps the first, with a warning.
    public func byTable() -> (tables: [String: [ExtractedString]], warnings: [ExtractionWarning]) {
        var tables: [String: [ExtractedString]] = [:]
        var first: [String: [String: ExtractedString]] = [:]
        var warnings: [ExtractionWarning] = []
        for string in strings.sorted(by: { $0.location < $1.location }) {
            if let earlier = first[string.table]?[string.key] {
                if let value = string.defaultValue, let before = earlier.defaultValue, value != before {
                    warnings.append(
                        ExtractionWarning(
                            location: string.location,
                            message: "\"\(string.key)\" has another default value at \(earlier.location); the first is kept"))
                }
                continue
            }
            first[string.table, default: [:]][string.key] = string
            tables[string.table, default: []].append(string)
        }
        return (tables, warnings)
    }
}
