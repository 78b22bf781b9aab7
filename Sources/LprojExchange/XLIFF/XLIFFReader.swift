import LprojTables

/// Reads XLIFF 1.2 documents that came back from translators, strictly:
/// through ``XMLReader`` (no DTD, no entities, bounded), then the XLIFF
/// structure Xcode writes. Markup inside `source` or `target` (XLIFF's
/// inline `g`, `x`, `ph` …) is refused rather than flattened, so that no
/// text is silently lost. Every error names its line and column.
package enum XLIFFReader {
    /// Reads a document.
    package static func read(_ bytes: [UInt8], limits: XMLLimits = .standard) throws(XMLError) -> XLIFFDocument {
        let root = try XMLReader(limits: limits, doctype: .refuse).read(bytes)
        guard root.localName == "xliff", root.namespace == XLIFFDocument.namespace else {
            throw XMLError(
                location: root.location,
                message:
                    "the root element is <\(root.qualifiedName)> in \(root.namespace.isEmpty ? "no namespace" : root.namespace); expected XLIFF 1.2's <xliff xmlns=\"\(XLIFFDocument.namespace)\">"
            )
        }
        guard let version = root.attribute("version") else { throw XMLError(location: root.location, message: "<xliff> has no version") }
        guard version == "1.2" else {
            throw XMLError(location: root.location, message: "XLIFF version \(version) is not read; Xcode exchanges 1.2")
        }
        var files: [XLIFFDocument.File] = []
        for element in try children(of: root) {
            guard element.localName == "file" else { throw unexpected(element, in: "xliff") }
            files.append(try file(element))
        }
        return XLIFFDocument(files: files)
    }

    static func file(_ element: XMLElement) throws(XMLError) -> XLIFFDocument.File {
        let original = try required("original", of: element)
        let sourceLanguage = try required("source-language", of: element)
        _ = try required("datatype", of: element)
        var tool: XLIFFDocument.Tool?
        var units: [XLIFFDocument.Unit] = []
        var sawBody = false
        for child in try children(of: element) {
            switch child.localName {
            case "header" where !sawBody:
                for item in try children(of: child) where item.localName == "tool" {
                    tool = XLIFFDocument.Tool(
                        id: try required("tool-id", of: item), name: item.attribute("tool-name") ?? "",
                        version: item.attribute("tool-version") ?? "", buildNumber: item.attribute("build-num"))
                }
            case "body" where !sawBody:
                sawBody = true
                for item in try children(of: child) {
                    switch item.localName {
                    case "trans-unit": units.append(try unit(item))
                    case "group", "bin-unit":
                        throw XMLError(
                            location: item.location,
                            message: "<\(item.localName)> is not part of what Xcode exchanges; put each trans-unit in <body>")
                    default: throw unexpected(item, in: "body")
                    }
                }
            default:
                throw unexpected(child, in: "file")
            }
        }
        guard sawBody else { throw XMLError(location: element.location, message: "<file original=\"\(original)\"> has no <body>") }
        return XLIFFDocument.File(
            original: original, sourceLanguage: sourceLanguage, targetLanguage: element.attribute("target-language"), tool: tool,
            units: units, location: element.location)
    }

    static func unit(_ element: XMLElement) throws(XMLError) -> XLIFFDocument.Unit {
        let id = try required("id", of: element)
        var source: String?
        var unit = XLIFFDocument.Unit(id: id, source: "", location: element.location)
        for child in try children(of: element) {
            switch child.localName {
            case "source":
                guard source == nil else { throw XMLError(location: child.location, message: "a trans-unit has one <source>") }
                source = try plainText(child)
            case "target":
                guard unit.target == nil else { throw XMLError(location: child.location, message: "a trans-unit has one <target>") }
                unit.target = try plainText(child)
                unit.state = child.attribute("state")
                unit.stateQualifier = child.attribute("state-qualifier")
                unit.targetLocation = child.location
            case "note":
                // `<note/>`, as Xcode writes a key without a comment, is no note.
                let text = try plainText(child)
                if !text.isEmpty { unit.note = unit.note.map { $0 + "\n" + text } ?? text }
                unit.noteFrom = child.attribute("from")
            case "context-group", "alt-trans", "count-group", "prop-group", "seg-source":
                continue
            default:
                throw unexpected(child, in: "trans-unit")
            }
        }
        guard let source else { throw XMLError(location: element.location, message: "the trans-unit \"\(id)\" has no <source>") }
        unit.source = source
        return unit
    }

    /// The element's text; any element inside it is refused.
    static func plainText(_ element: XMLElement) throws(XMLError) -> String {
        for child in element.children {
            if case .element(let inner) = child {
                throw XMLError(
                    location: inner.location,
                    message: "<\(inner.qualifiedName)> inside <\(element.localName)>: inline markup is not imported; write the text itself")
            }
        }
        return element.text
    }

    /// Child elements; text between them must be white space.
    static func children(of element: XMLElement) throws(XMLError) -> [XMLElement] {
        var result: [XMLElement] = []
        for child in element.children {
            switch child {
            case .element(let inner):
                guard inner.namespace == XLIFFDocument.namespace else {
                    throw XMLError(location: inner.location, message: "<\(inner.qualifiedName)> is not an XLIFF 1.2 element")
                }
                result.append(inner)
            case .text(let text, let location):
                guard text.unicodeScalars.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) else {
                    throw XMLError(location: location, message: "text is not allowed directly inside <\(element.localName)>")
                }
            }
        }
        return result
    }

    static func required(_ name: String, of element: XMLElement) throws(XMLError) -> String {
        guard let value = element.attribute(name) else {
            throw XMLError(location: element.location, message: "<\(element.localName)> has no \(name) attribute")
        }
        return value
    }

    static func unexpected(_ element: XMLElement, in parent: String) -> XMLError {
        XMLError(location: element.location, message: "<\(element.localName)> is not expected inside <\(parent)>")
    }
}
