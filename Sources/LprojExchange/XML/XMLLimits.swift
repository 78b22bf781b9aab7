/// What one XML document may make the reader hold: translation files come
/// from outside and are read as hostile. A document past any bound is
/// refused with its location, before it costs more.
package struct XMLLimits: Sendable, Hashable {
    /// The largest document, in bytes.
    package var maximumBytes: Int
    /// The deepest nesting of elements.
    package var maximumDepth: Int
    /// The most attributes on one element.
    package var maximumAttributes: Int
    /// The most elements in the document.
    package var maximumElements: Int
    /// The longest element or attribute name, in bytes.
    package var maximumNameLength: Int

    /// Creates limits.
    package init(
        maximumBytes: Int = 64 << 20, maximumDepth: Int = 64, maximumAttributes: Int = 32, maximumElements: Int = 4_000_000,
        maximumNameLength: Int = 256
    ) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
        self.maximumAttributes = maximumAttributes
        self.maximumElements = maximumElements
        self.maximumNameLength = maximumNameLength
    }

    /// The bounds for XLIFF and property lists: 64 MiB, 64 levels.
    package static let standard = XMLLimits()
}
