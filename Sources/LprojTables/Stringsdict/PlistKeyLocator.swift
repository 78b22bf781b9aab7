/// Finds where a key path is written in an XML property list, so that
/// stringsdict problems can be reported at a line like syntax errors.
///
/// Foundation's reader gives no positions. One pass collects every
/// `<key>...</key>` in order; a path is then found by following its
/// components through that list (`entry`, then `files` after it, ...).
/// For binary property lists it finds nothing.
struct PlistKeyLocator {
    private let bytes: [UInt8]
    /// Every key element's text and the offset of its text, in file order.
    private let keys: [(text: [UInt8], offset: Int)]
    /// The first index in `keys` of each text.
    private let firstIndex: [[UInt8]: Int]
    private let lines: UTF8Lines

    init(bytes: [UInt8]) {
        self.bytes = bytes
        var keys: [(text: [UInt8], offset: Int)] = []
        let open = Array("<key>".utf8), close = Array("</key>".utf8)
        var index = 0
        while let start = Self.find(open, in: bytes, from: index) {
            let textStart = start + open.count
            guard let end = Self.find(close, in: bytes, from: textStart) else { break }
            keys.append((Array(bytes[textStart..<end]), textStart))
            index = end + close.count
        }
        var first: [[UInt8]: Int] = [:]
        for (position, key) in keys.enumerated() where first[key.text] == nil { first[key.text] = position }
        self.keys = keys
        self.firstIndex = first
        self.lines = bytes.withUnsafeBytes { UTF8Lines($0) }
    }

    func location(of path: String) -> SourceLocation? {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).map { Array(Self.escaped(String($0)).utf8) }
        guard !components.isEmpty, var position = firstIndex[components.removeFirst()] else { return nil }
        // Nested keys come after their entry, within a few dozen elements.
        for component in components {
            guard let next = keys[(position + 1)...].prefix(256).firstIndex(where: { $0.text == component }) else { break }
            position = next
        }
        return bytes.withUnsafeBytes { lines.location(of: keys[position].offset, in: $0) }
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

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        let first = needle[0]
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
