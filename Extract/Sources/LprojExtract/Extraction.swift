/// Which extractor reads a file, by its name.
public enum SourceLanguage: Sendable {
    case swift
    case c

    public init?(fileName: String) {
        if fileName.hasSuffix(".swift") {
            self = .swift
        } else if [".c", ".h", ".m", ".mm", ".cc", ".cpp"].contains(where: { fileName.hasSuffix($0) }) {
            self = .c
        } else {
            return nil
        }
    }
}

/// Reads an app's sources, each with its language's extractor: the Swift
/// files together (one file's declarations make literals in another keys),
/// C and Objective-C file by file.
public struct Extraction: Sendable {
    public var routines: [Routine]

    public init(routines: [Routine] = []) {
        self.routines = routines
    }

    public func extract(_ files: [(path: String, language: SourceLanguage, text: String)]) -> ExtractionResult {
        var result = ExtractionResult()
        let c = CExtractor(routines: routines)
        for file in files where file.language == .c { result.append(c.extract(source: file.text, file: file.path)) }
        result.append(
            SwiftExtractor(routines: routines).extract(files.filter { $0.language == .swift }.map { (path: $0.path, text: $0.text) }))
        return result
    }
}

extension ExtractionResult {
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
