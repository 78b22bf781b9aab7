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

    public func extract(source: String, file: String) -> ExtractionResult {
        switch self {
        case .swift: SwiftExtractor().extract(source: source, file: file)
        case .c: CExtractor().extract(source: source, file: file)
        }
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
