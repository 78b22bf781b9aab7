/// What one XML document may make the reader hold: translation files come
/// from outside and are read as hostile. A document past any bound is
/// refused with its location, before it costs more.
public struct XMLLimits: Sendable, Hashable {
    /// The largest document, in bytes.
    public var maximumBytes: Int
    /// The deepest nesting of elements.
    public var maximumDepth: Int
    /// The most attributes on one element.
    public var maximumAttributes: Int
    /// The most elements in the document.
    public var maximumElements: Int
    /// The longest element or attribute name, in bytes.
    public var maximumNameLength: Int

    /// Creates limits.
    public init(
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
    public static let standard = XMLLimits()
}
