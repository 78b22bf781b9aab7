package import LprojTables

/// An element of a document the strict reader accepted, with where it is
/// written, so that a file can be edited in place and an error can point
/// at the element.
package final class XMLElement: Sendable {
    /// The name as written, prefix included (`xliff`, `xsi:schemaLocation`).
    package let qualifiedName: String
    /// The namespace the name is in (`urn:oasis:names:tc:xliff:document:1.2`), or "".
    package let namespace: String
    /// The name without its prefix.
    package let localName: String
    /// Attributes in the order written, values with references replaced.
    package let attributes: [XMLAttribute]
    /// Child elements and text, in order.
    package let children: [XMLNode]
    /// Where the start tag's `<` is.
    package let location: SourceLocation
    /// Byte offsets: the start tag's `<`, the content's first byte, the end
    /// tag's `<` (the content's end), and the byte after the end tag. An
    /// empty-element tag (`<note/>`) has an empty content at its end.
    package let startOffset: Int
    package let contentStart: Int
    package let contentEnd: Int
    package let endOffset: Int

    init(
        qualifiedName: String, namespace: String, localName: String, attributes: [XMLAttribute], children: [XMLNode],
        location: SourceLocation, startOffset: Int, contentStart: Int, contentEnd: Int, endOffset: Int
    ) {
        self.qualifiedName = qualifiedName
        self.namespace = namespace
        self.localName = localName
        self.attributes = attributes
        self.children = children
        self.location = location
        self.startOffset = startOffset
        self.contentStart = contentStart
        self.contentEnd = contentEnd
        self.endOffset = endOffset
    }

    /// The child elements.
    package var elements: [XMLElement] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// The value of an attribute without a prefix (`id`), or of a prefixed
    /// one by its namespace (`xml:space` is in the XML namespace).
    package func attribute(_ localName: String, namespace: String = "") -> String? {
        attributes.first { $0.localName == localName && $0.namespace == namespace }?.value
    }

    /// The text of the element's direct text children, joined (CDATA included).
    package var text: String {
        var result = ""
        for child in children { if case .text(let text, _) = child { result += text } }
        return result
    }
}

/// An attribute as read: its name, namespace and value.
package struct XMLAttribute: Sendable, Hashable {
    package let qualifiedName: String
    package let namespace: String
    package let localName: String
    package let value: String
    package let location: SourceLocation
}

/// A child of an element.
package enum XMLNode: Sendable {
    case element(XMLElement)
    /// Character data (references replaced, line ends normalized) and where it starts.
    case text(String, SourceLocation)
}

/// The XML namespace, which `xml:` names are in without a declaration.
package let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
