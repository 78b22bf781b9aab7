/// Line and column lookup over UTF-8 text, counting lines as Foundation does
/// (`\n`, `\r`, and `\r\n` as one) and columns in Unicode scalars.
struct UTF8Lines {
    /// Byte offsets at which each line starts; the first is 0.
    private let starts: [Int]

    init(_ bytes: UnsafeRawBufferPointer) {
        var starts = [0]
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A {
                starts.append(index)
            } else if byte == 0x0D {
                if index < count, bytes[index] == 0x0A { index += 1 }
                starts.append(index)
            }
        }
        self.starts = starts
    }

    /// The location of the byte at `offset`.
    func location(of offset: Int, in bytes: UnsafeRawBufferPointer) -> SourceLocation {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var column = 1
        var index = starts[low]
        let end = min(offset, bytes.count)
        while index < end {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(line: low + 1, column: column)
    }

    /// The location of `offset` in `bytes`, computed without keeping an index.
    static func location(of offset: Int, in bytes: UnsafeRawBufferPointer) -> SourceLocation {
        UTF8Lines(UnsafeRawBufferPointer(rebasing: bytes[..<min(offset, bytes.count)])).location(of: offset, in: bytes)
    }

    static func location(of offset: Int, in bytes: [UInt8]) -> SourceLocation {
        bytes.withUnsafeBytes { location(of: offset, in: $0) }
    }
}
