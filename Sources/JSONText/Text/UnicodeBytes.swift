/// Unicode scalars to UTF-8 bytes: what JSON's `\u` escapes, `.strings`
/// files' `\U` escapes and UTF-16 or UTF-32 files all come down to.
package enum UnicodeBytes {
    /// Appends a scalar's UTF-8 (U+FFFD for a value that is not a scalar).
    @inlinable
    package static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        if scalar < 0x80 {
            output.append(UInt8(truncatingIfNeeded: scalar))
            return
        }
        UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { output.append($0) }
    }

    /// The scalar a UTF-16 surrogate pair stands for.
    @inlinable
    package static func scalar(high: UInt32, low: UInt32) -> UInt32 {
        0x10000 &+ ((high &- 0xD800) &<< 10) &+ (low &- 0xDC00)
    }
}
