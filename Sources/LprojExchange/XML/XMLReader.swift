import LprojTables

/// A strict reader of XML 1.0 documents in UTF-8, for files that come back
/// from outside (XLIFF) and for the property lists the import edits.
///
/// It reads the XML that these formats use and nothing more dangerous:
/// - no DTD is ever read: a document type declaration is refused, or (for
///   property lists) taken only as a name with a package or system
///   identifier, which is never fetched; an internal subset is refused;
/// - so no entity is ever declared or expanded: `&name;` is one of XML's
///   five predefined entities or an error, and character references must
///   name characters XML allows (no external entities, no "billion
///   laughs");
/// - size, depth, attributes per element, elements and name length are
///   bounded (``XMLLimits``), and the parser keeps its own stack, so deep
///   nesting cannot overflow the thread's;
/// - well-formedness is checked: UTF-8 and XML's characters, matching end
///   tags, unique attributes, declared namespace prefixes, one root.
///
/// Text is reported as XML defines it: `\r\n` and `\r` read as `\n`, and
/// literal white space in attribute values as spaces; `&#13;` stays a
/// carriage return. Every error names its line and column.
package struct XMLReader: Sendable {
    /// What a document type declaration may be.
    package enum DoctypePolicy: Sendable {
        /// Refused, whatever it says (XLIFF needs none).
        case refuse
        /// Only `<!DOCTYPE name PUBLIC "…" "…">` or `SYSTEM "…"`, never
        /// read (property lists carry Apple's).
        case allowExternalIdentifier
    }

    package var limits: XMLLimits
    package var doctype: DoctypePolicy

    /// Creates a reader.
    package init(limits: XMLLimits = .standard, doctype: DoctypePolicy = .refuse) {
        self.limits = limits
        self.doctype = doctype
    }

    /// Reads a document and returns its root element.
    package func read(_ bytes: [UInt8]) throws(XMLError) -> XMLElement {
        var parser = XMLParserState(bytes: bytes, limits: limits, doctype: doctype)
        return try parser.parseDocument()
    }
}

/// An element being read: what its end tag and children need.
private struct OpenElement {
    var qualifiedName: String
    var prefix: String
    var localName: String
    var attributes: [(qualifiedName: String, prefix: String, localName: String, value: String, location: SourceLocation)]
    var children: [XMLNode] = []
    var location: SourceLocation
    var startOffset: Int
    var contentStart: Int
    /// Namespace declarations made on this element.
    var declarations: [String: String]
}

private struct XMLParserState {
    let bytes: [UInt8]
    let limits: XMLLimits
    let doctype: XMLReader.DoctypePolicy
    var position = 0
    var lineStarts: [Int] = [0]
    var elementCount = 0
    /// Each prefix's namespaces, innermost last; and the prefixes each open
    /// element declared, to take back when it ends. (A copy of the whole
    /// scope per element made a file whose elements each declare a prefix
    /// cost its elements times its prefixes: 104 s for 48 MB.)
    var namespaces: [String: [String]] = ["xml": [xmlNamespace], "": [""]]
    var declaredByOpenElements: [[String]] = []

    init(bytes: [UInt8], limits: XMLLimits, doctype: XMLReader.DoctypePolicy) {
        self.bytes = bytes
        self.limits = limits
        self.doctype = doctype
    }

    // MARK: Locations

    /// Where the last location was asked for: locations are asked in
    /// order, so each is counted on from the last (a document of one long
    /// line costs no more than one of many).
    var cursor = (offset: 0, line: 1, column: 1)

    mutating func location(_ offset: Int) -> SourceLocation {
        guard offset >= cursor.offset else { return locate(offset) }
        var (index, line, column) = cursor
        while index < offset && index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || (byte == 0x0D && !(index + 1 < bytes.count && bytes[index + 1] == 0x0A)) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 && byte != 0x0D {
                column += 1
            }
            index += 1
        }
        cursor = (index, line, column)
        return SourceLocation(line: line, column: column)
    }

    /// A location computed from the line starts, for errors.
    func locate(_ offset: Int) -> SourceLocation {
        // The last line start at or before the offset.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var column = 1
        var index = lineStarts[low]
        while index < offset && index < bytes.count {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(line: low + 1, column: column)
    }

    func error(_ offset: Int, _ message: String) -> XMLError {
        XMLError(location: locate(offset), message: message)
    }

    // MARK: The document

    mutating func parseDocument() throws(XMLError) -> XMLElement {
        guard bytes.count <= limits.maximumBytes else {
            throw XMLError(
                location: SourceLocation(line: 1, column: 1),
                message: "the document is \(bytes.count) bytes; at most \(limits.maximumBytes) are read")
        }
        try checkCharacters()
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        if matches("<?xml") && position + 5 < bytes.count && isWhitespace(bytes[position + 5]) { try parseDeclaration() }
        var root: XMLElement?
        var sawDoctype = false
        while true {
            skipWhitespace()
            guard position < bytes.count else { break }
            guard bytes[position] == UInt8(ascii: "<") else {
                throw error(position, root == nil ? "expected the root element" : "text after the root element")
            }
            if matches("<!--") {
                try skipComment()
            } else if matches("<?") {
                try skipProcessingInstruction()
            } else if matches("<!DOCTYPE") {
                guard root == nil, !sawDoctype else {
                    throw error(position, "a document type declaration must come before the root element")
                }
                try parseDoctype()
                sawDoctype = true
            } else if matches("<!") {
                throw error(position, "unexpected markup outside the root element")
            } else {
                guard root == nil else { throw error(position, "a second root element; a document has one") }
                root = try parseRoot()
            }
        }
        guard let root else { throw error(position, "the document has no root element") }
        return root
    }

    /// UTF-8, and only characters XML allows, checked once; line starts are
    /// recorded on the way.
    mutating func checkCharacters() throws(XMLError) {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                if lead < 0x20 && lead != 0x09 && lead != 0x0A && lead != 0x0D {
                    throw error(index, "the control character U+\(hex(UInt32(lead))) is not allowed in XML")
                }
                if lead == 0x0A {
                    lineStarts.append(index + 1)
                } else if lead == 0x0D && !(index + 1 < count && bytes[index + 1] == 0x0A) {
                    lineStarts.append(index + 1)
                }
                index += 1
                continue
            }
            let length: Int
            var scalar: UInt32
            switch lead {
            case 0xC2...0xDF:
                length = 2
                scalar = UInt32(lead & 0x1F)
            case 0xE0...0xEF:
                length = 3
                scalar = UInt32(lead & 0x0F)
            case 0xF0...0xF4:
                length = 4
                scalar = UInt32(lead & 0x07)
            default: throw error(index, "the bytes are not UTF-8")
            }
            guard index + length <= count else { throw error(index, "the bytes are not UTF-8") }
            for offset in 1..<length {
                let byte = bytes[index + offset]
                guard byte & 0xC0 == 0x80 else { throw error(index, "the bytes are not UTF-8") }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                throw error(index, "the bytes are not UTF-8")
            }
            guard Self.isXMLCharacter(scalar) else { throw error(index, "the character U+\(hex(scalar)) is not allowed in XML") }
            index += length
        }
    }

    static func isXMLCharacter(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    mutating func parseDeclaration() throws(XMLError) {
        let start = position
        guard let end = find("?>", from: position) else { throw error(start, "the XML declaration is not closed with ?>") }
        let text = String(decoding: bytes[(position + 5)..<end], as: UTF8.self)
        if let encoding = Self.pseudoAttribute("encoding", in: text), encoding.lowercased() != "utf-8" {
            throw error(start, "the document says it is in \(encoding); only UTF-8 is read")
        }
        if let version = Self.pseudoAttribute("version", in: text), version != "1.0" {
            throw error(start, "XML version \(version) is not read; only 1.0")
        }
        position = end + 2
    }

    static func pseudoAttribute(_ name: String, in text: String) -> String? {
        guard let range = text.range(of: name) else { return nil }
        var rest = text[range.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        guard let close = rest.firstIndex(of: quote) else { return nil }
        return String(rest[..<close])
    }

    mutating func parseDoctype() throws(XMLError) {
        let start = position
        guard case .allowExternalIdentifier = doctype else {
            throw error(start, "a document type declaration is not accepted here (no DTD is read and no entity is expanded)")
        }
        position += "<!DOCTYPE".utf8.count
        skipWhitespace()
        _ = try readName()
        skipWhitespace()
        if matches("PUBLIC") {
            position += 6
            skipWhitespace()
            _ = try readQuotedLiteral()
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") {
                _ = try readQuotedLiteral()
            }
        } else if matches("SYSTEM") {
            position += 6
            skipWhitespace()
            _ = try readQuotedLiteral()
        }
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
            throw error(
                position < bytes.count ? position : start,
                "a document type declaration may only name an external identifier; an internal subset (entities, DTD) is refused")
        }
        position += 1
    }

    mutating func readQuotedLiteral() throws(XMLError) {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
            throw error(min(position, bytes.count), "expected a quoted identifier")
        }
        let quote = bytes[position]
        var index = position + 1
        while index < bytes.count && bytes[index] != quote { index += 1 }
        guard index < bytes.count else { throw error(position, "the identifier is not closed") }
        position = index + 1
    }

    mutating func skipComment() throws(XMLError) {
        let start = position
        guard let end = find("--", from: position + 4) else { throw error(start, "the comment is not closed with -->") }
        guard end + 2 < bytes.count, bytes[end + 2] == UInt8(ascii: ">") else {
            throw error(end, "'--' is not allowed inside a comment")
        }
        position = end + 3
    }

    mutating func skipProcessingInstruction() throws(XMLError) {
        let start = position
        position += 2
        let name = try readName()
        if name.lowercased() == "xml" { throw error(start, "the XML declaration may only come first") }
        guard let end = find("?>", from: position) else { throw error(start, "the processing instruction is not closed with ?>") }
        position = end + 2
    }

    // MARK: Elements

    mutating func parseRoot() throws(XMLError) -> XMLElement {
        var stack: [OpenElement] = []
        // The root's start tag.
        if let element = try parseStartTag(depth: 0) {
            stack.append(element)
        } else {
            return finishedEmptyElement!
        }
        while true {
            guard position < bytes.count else {
                let open = stack.last!
                throw XMLError(location: open.location, message: "<\(open.qualifiedName)> is never closed")
            }
            if bytes[position] == UInt8(ascii: "<") {
                if matches("</") {
                    let element = try parseEndTag(stack.removeLast())
                    if stack.isEmpty { return element }
                    stack[stack.count - 1].children.append(.element(element))
                } else if matches("<!--") {
                    try skipComment()
                } else if matches("<![CDATA[") {
                    let start = position
                    guard let end = find("]]>", from: position + 9) else { throw error(start, "the CDATA section is not closed with ]]>") }
                    let text = normalizedLineEnds(position + 9, end)
                    stack[stack.count - 1].children.append(.text(text, location(start)))
                    position = end + 3
                } else if matches("<?") {
                    try skipProcessingInstruction()
                } else if matches("<!") {
                    throw error(position, "a document type declaration or other markup declaration is not allowed inside an element")
                } else {
                    if let element = try parseStartTag(depth: stack.count) {
                        stack.append(element)
                    } else {
                        stack[stack.count - 1].children.append(.element(finishedEmptyElement!))
                    }
                }
            } else {
                let start = position
                let text = try readText()
                stack[stack.count - 1].children.append(.text(text, location(start)))
            }
        }
    }

    /// The element an empty-element tag (`<a/>`) just made.
    var finishedEmptyElement: XMLElement?

    /// Reads a start tag: an open element, or nil when it was an
    /// empty-element tag (then in `finishedEmptyElement`).
    mutating func parseStartTag(depth: Int) throws(XMLError) -> OpenElement? {
        let start = position
        guard depth < limits.maximumDepth else {
            throw error(start, "elements are nested more than \(limits.maximumDepth) deep")
        }
        elementCount += 1
        guard elementCount <= limits.maximumElements else {
            throw error(start, "the document has more than \(limits.maximumElements) elements")
        }
        let startLocation = location(start)
        position += 1
        let name = try readName()
        var attributes: [(qualifiedName: String, prefix: String, localName: String, value: String, location: SourceLocation)] = []
        var declarations: [String: String] = [:]
        while true {
            let hadSpace = skipWhitespace()
            guard position < bytes.count else { throw error(start, "the tag <\(name) is not closed") }
            if bytes[position] == UInt8(ascii: ">") || matches("/>") { break }
            guard hadSpace else { throw error(position, "expected white space before an attribute") }
            let attributeStart = position
            let attributeName = try readName()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw error(min(position, bytes.count - 1), "expected '=' after the attribute \(attributeName)")
            }
            position += 1
            skipWhitespace()
            let value = try readAttributeValue()
            if attributes.contains(where: { $0.qualifiedName == attributeName })
                || (attributeName.hasPrefix("xmlns") && declarations[Self.declaredPrefix(attributeName) ?? "\u{0}"] != nil)
            {
                throw error(attributeStart, "the attribute \(attributeName) is given twice")
            }
            if let prefix = Self.declaredPrefix(attributeName) {
                if prefix == "xml" || prefix == "xmlns" { throw error(attributeStart, "the prefix \(prefix) cannot be declared") }
                if !prefix.isEmpty && value.isEmpty { throw error(attributeStart, "the prefix \(prefix) cannot be undeclared") }
                guard attributes.count + declarations.count < limits.maximumAttributes else {
                    throw error(attributeStart, "an element has more than \(limits.maximumAttributes) attributes")
                }
                declarations[prefix] = value
                continue
            }
            guard attributes.count + declarations.count < limits.maximumAttributes else {
                throw error(attributeStart, "an element has more than \(limits.maximumAttributes) attributes")
            }
            let (prefix, local) = Self.split(attributeName)
            attributes.append((attributeName, prefix, local, value, location(attributeStart)))
        }
        let (prefix, local) = Self.split(name)
        var open = OpenElement(
            qualifiedName: name, prefix: prefix, localName: local, attributes: attributes, location: startLocation,
            startOffset: start, contentStart: 0, declarations: declarations)
        for (declared, uri) in declarations { namespaces[declared, default: []].append(uri) }
        declaredByOpenElements.append(Array(declarations.keys))
        if matches("/>") {
            position += 2
            open.contentStart = position
            finishedEmptyElement = try finish(open, contentEnd: position, endOffset: position)
            return nil
        }
        position += 1
        open.contentStart = position
        return open
    }

    /// `xmlns` → "", `xmlns:x` → "x"; nil for other names.
    static func declaredPrefix(_ name: String) -> String? {
        if name == "xmlns" { return "" }
        if name.hasPrefix("xmlns:") { return String(name.dropFirst(6)) }
        return nil
    }

    static func split(_ name: String) -> (prefix: String, local: String) {
        guard let colon = name.firstIndex(of: ":") else { return ("", name) }
        return (String(name[..<colon]), String(name[name.index(after: colon)...]))
    }

    mutating func parseEndTag(_ open: OpenElement) throws(XMLError) -> XMLElement {
        let start = position
        position += 2
        let name = try readName()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
            throw error(start, "the end tag </\(name) is not closed")
        }
        guard name == open.qualifiedName else {
            throw error(start, "</\(name)> does not close <\(open.qualifiedName)> (line \(open.location.line))")
        }
        position += 1
        return try finish(open, contentEnd: start, endOffset: position)
    }

    /// Resolves the names' namespaces and makes the element.
    mutating func finish(_ open: OpenElement, contentEnd: Int, endOffset: Int) throws(XMLError) -> XMLElement {
        defer {
            for declared in declaredByOpenElements.removeLast() {
                namespaces[declared]!.removeLast()
                if namespaces[declared]!.isEmpty { namespaces[declared] = nil }
            }
        }
        guard let namespace = namespaces[open.prefix]?.last else {
            throw XMLError(location: open.location, message: "the prefix \(open.prefix) of <\(open.qualifiedName)> is not declared")
        }
        var attributes: [XMLAttribute] = []
        for attribute in open.attributes {
            var attributeNamespace = ""
            if !attribute.prefix.isEmpty {
                guard let uri = namespaces[attribute.prefix]?.last else {
                    throw XMLError(
                        location: attribute.location,
                        message: "the prefix \(attribute.prefix) of \(attribute.qualifiedName) is not declared")
                }
                attributeNamespace = uri
            }
            if attributes.contains(where: { $0.localName == attribute.localName && $0.namespace == attributeNamespace }) {
                throw XMLError(location: attribute.location, message: "the attribute \(attribute.qualifiedName) is given twice")
            }
            attributes.append(
                XMLAttribute(
                    qualifiedName: attribute.qualifiedName, namespace: attributeNamespace, localName: attribute.localName,
                    value: attribute.value, location: attribute.location))
        }
        return XMLElement(
            qualifiedName: open.qualifiedName, namespace: namespace, localName: open.localName, attributes: attributes,
            children: open.children, location: open.location, startOffset: open.startOffset, contentStart: open.contentStart,
            contentEnd: contentEnd, endOffset: endOffset)
    }

    // MARK: Names, text, references

    mutating func readName() throws(XMLError) -> String {
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position]) {
            position += 1
            guard position - start <= limits.maximumNameLength else {
                throw error(start, "a name is longer than \(limits.maximumNameLength) bytes")
            }
        }
        guard position > start else { throw error(min(start, max(bytes.count - 1, 0)), "expected a name") }
        let first = bytes[start]
        if first == UInt8(ascii: "-") || first == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
            throw error(start, "a name cannot start with '\(Character(Unicode.Scalar(first)))'")
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "."), 0x80...0xFF:
            true
        default:
            false
        }
    }

    mutating func readAttributeValue() throws(XMLError) -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
            throw error(min(position, bytes.count - 1), "expected a quoted attribute value")
        }
        let quote = bytes[position]
        let start = position
        position += 1
        var value: [UInt8] = []
        while true {
            guard position < bytes.count else { throw error(start, "the attribute value is not closed") }
            let byte = bytes[position]
            if byte == quote { break }
            switch byte {
            case UInt8(ascii: "<"):
                throw error(position, "'<' is not allowed in an attribute value")
            case UInt8(ascii: "&"):
                try appendReference(to: &value)
            case 0x0D:
                // \r\n is one line end, read as one space.
                value.append(0x20)
                position += (position + 1 < bytes.count && bytes[position + 1] == 0x0A) ? 2 : 1
            case 0x09, 0x0A:
                value.append(0x20)
                position += 1
            default:
                value.append(byte)
                position += 1
            }
        }
        position += 1
        return String(decoding: value, as: UTF8.self)
    }

    /// Character data up to the next `<`.
    mutating func readText() throws(XMLError) -> String {
        var text: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") { break }
            switch byte {
            case UInt8(ascii: "&"):
                try appendReference(to: &text)
            case 0x0D:
                text.append(0x0A)
                position += (position + 1 < bytes.count && bytes[position + 1] == 0x0A) ? 2 : 1
            case UInt8(ascii: "]") where matches("]]>"):
                throw error(position, "']]>' is not allowed in text")
            default:
                text.append(byte)
                position += 1
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `&lt;` and the other four, or `&#…;`; any other entity is refused.
    mutating func appendReference(to output: inout [UInt8]) throws(XMLError) {
        let start = position
        var end = position + 1
        while end < bytes.count, end - start < 16, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw error(start, "'&' must start a reference such as &amp; (write a literal & as &amp;)")
        }
        let name = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        switch name {
        case "lt": output.append(UInt8(ascii: "<"))
        case "gt": output.append(UInt8(ascii: ">"))
        case "amp": output.append(UInt8(ascii: "&"))
        case "quot": output.append(UInt8(ascii: "\""))
        case "apos": output.append(UInt8(ascii: "'"))
        default:
            guard name.hasPrefix("#") else {
                throw error(start, "the entity &\(name); is not expanded: only XML's own (&lt; &gt; &amp; &quot; &apos;) are read")
            }
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.hasPrefix("x") {
                value = digits.count > 1 && digits.count <= 7 ? UInt32(digits.dropFirst(), radix: 16) : nil
            } else {
                value = !digits.isEmpty && digits.count <= 7 ? UInt32(digits, radix: 10) : nil
            }
            guard let value, Self.isXMLCharacter(value), let scalar = Unicode.Scalar(value) else {
                throw error(start, "the character reference &\(name); does not name a character XML allows")
            }
            output.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
        position = end + 1
    }

    func normalizedLineEnds(_ start: Int, _ end: Int) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(end - start)
        var index = start
        while index < end {
            if bytes[index] == 0x0D {
                text.append(0x0A)
                index += (index + 1 < end && bytes[index + 1] == 0x0A) ? 2 : 1
            } else {
                text.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    // MARK: Bytes

    func matches(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return text.withUTF8Buffer { expected in
            for index in 0..<count where bytes[position + index] != expected[index] { return false }
            return true
        }
    }

    func find(_ text: StaticString, from start: Int) -> Int? {
        let needle = text.withUTF8Buffer { Array($0) }
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = position
        while position < bytes.count && isWhitespace(bytes[position]) { position += 1 }
        return position > start
    }
}
