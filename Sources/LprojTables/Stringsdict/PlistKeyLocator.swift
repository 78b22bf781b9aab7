/// Finds where a key path is written in an XML property list, so that
/// stringsdict problems can be reported at a line like syntax errors.
///
/// Foundation's reader gives no positions; this follows the path's keys in
/// order through the text (`<key>entry</key>` ... `<key>files</key>` ...).
/// For binary property lists it finds nothing.
struct PlistKeyLocator {
    private let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func location(of path: String) -> SourceLocation? {
        var from = 0
        var found: Int?
        for component in path.split(separator: "/", omittingEmptySubsequences: false) {
            let needle = Array("<key>\(Self.escaped(String(component)))</key>".utf8)
            guard let offset = Self.firstIndex(of: needle, in: bytes, from: from) else { break }
            found = offset + 5
            from = offset + needle.count
        }
        guard let found else { return nil }
        return bytes.withUnsafeBytes { UTF8Lines.location(of: found, in: $0) }
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == needle[0], Array(haystack[index..<index + needle.count]) == needle { return index }
            index += 1
        }
        return nil
    }
}
