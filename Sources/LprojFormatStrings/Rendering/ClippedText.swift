extension String {
    /// The text cut to at most `maximum` UTF-8 bytes, at a character
    /// boundary, with "…" when cut: for echoing a client's text back in an
    /// error message without echoing a megabyte.
    public func clipped(toUTF8Bytes maximum: Int = 96) -> String {
        guard utf8.count > maximum else { return self }
        var end = startIndex
        var bytes = 0
        for index in indices {
            let next = self.index(after: index)
            let width = utf8.distance(from: index, to: next)
            guard bytes + width <= maximum else { break }
            bytes += width
            end = next
        }
        return String(self[..<end]) + "…"
    }
}
