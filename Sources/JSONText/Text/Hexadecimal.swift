/// Hexadecimal digits: read in JSON's `\u` escapes and in `.strings` files'
/// `\U` escapes and `<data>`, written in messages. Those grammars differ;
/// their digits do not.
package enum Hexadecimal {
    /// The value of one digit, either case; nil for anything else.
    @inlinable
    package static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    /// Upper-case digits of `value`, zero-padded to `minimumWidth`.
    package static func uppercase(_ value: UInt32, minimumWidth: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, minimumWidth - digits.count)) + digits
    }
}
