/// Lines and columns, for a reader that tells people where a problem is.
///
/// A tokenizer made with `recordsLines` notes where each line starts as it
/// skips white space (JSON allows line breaks nowhere else), so a line is
/// a search and a column a count from the line's start; the last column
/// counted is kept, so asking at each token of a long line stays linear.
/// Lines end at `\n`, `\r` or `\r\n`; columns count Unicode scalars from 1.
extension JSONTokenizer {
    /// The line and column of the next token.
    package mutating func lineAndColumn() -> (line: Int, column: Int) {
        skipWhitespace()
        let lineStart = lineStarts.last ?? textStart
        var (index, column) = columnMark.offset >= lineStart && columnMark.offset <= offset ? columnMark : (lineStart, 1)
        while index < offset {
            if bytes[index] & 0xC0 != 0x80 { column &+= 1 }
            index &+= 1
        }
        columnMark = (offset, column)
        return (lineStarts.count + 1, column)
    }

    /// The line and column of an offset already read.
    package func lineAndColumn(of position: Int) -> (line: Int, column: Int) {
        // The number of line starts at or before the position.
        var low = 0
        var high = lineStarts.count
        while low < high {
            let middle = (low + high) / 2
            if lineStarts[middle] <= position { low = middle + 1 } else { high = middle }
        }
        var index = low == 0 ? textStart : lineStarts[low - 1]
        var column = 1
        while index < min(position, bytes.count) {
            if bytes[index] & 0xC0 != 0x80 { column &+= 1 }
            index &+= 1
        }
        return (low + 1, column)
    }
}
