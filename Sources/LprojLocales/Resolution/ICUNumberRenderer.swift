internal import CLprojICU
package import LprojFormatStrings
internal import Synchronization

/// Writes numbers the way a locale does, with ICU: its digits, decimal
/// separator and grouping, as Foundation's localized format conversions do.
package struct ICUNumberRenderer: NumberRendering {
    /// The locale numbers are written for.
    package let locale: String

    /// A renderer for a locale.
    package init(locale: LocaleIdentifier) {
        self.locale = locale.tag
    }

    package func format(_ value: Int64, style: NumberStyle) -> String {
        guard let formatter = NumberFormatterCache.formatter(locale: locale, skeleton: Self.skeleton(for: style)) else {
            return POSIXNumberRenderer().format(value, style: style)
        }
        return ICU.string { lproj_number_format_int64(formatter.handle, value, $0, $1) } ?? String(value)
    }

    package func format(_ value: Double, style: NumberStyle) -> String {
        guard let formatter = NumberFormatterCache.formatter(locale: locale, skeleton: Self.skeleton(for: style)) else {
            return POSIXNumberRenderer().format(value, style: style)
        }
        return ICU.string { lproj_number_format_double(formatter.handle, value, $0, $1) } ?? String(value)
    }

    /// The ICU number skeleton for a style. ICU accepts at most 999 digits
    /// of precision, so larger requests are clamped.
    static func skeleton(for style: NumberStyle) -> String {
        var parts: [String] = []
        switch style.notation {
        case .integer:
            parts.append("precision-integer")
        case .fraction(let digits):
            parts.append(digits == 0 ? "precision-integer" : "." + String(repeating: "0", count: min(digits, 999)))
        case .significant(let minimum, let maximum, let scientific):
            let low = max(1, min(minimum, 999)), high = max(low, min(maximum, 999))
            if scientific { parts.append("scientific/*ee/sign-always") }
            parts.append(String(repeating: "@", count: low) + String(repeating: "#", count: high - low))
        case .shortest:
            parts.append("precision-unlimited")
            parts.append("group-off")
        }
        if style.alwaysSign { parts.append("sign-always") }
        if style.minimumIntegerDigits > 1 {
            parts.append("integer-width/*" + String(repeating: "0", count: min(style.minimumIntegerDigits, 999)))
        }
        return parts.joined(separator: " ")
    }
}

/// An opened ICU number formatter; immutable and thread-safe in ICU.
final class NumberFormatterHandle: @unchecked Sendable {
    let handle: OpaquePointer

    init?(locale: String, skeleton: String) {
        guard let handle = lproj_number_formatter_open(locale, skeleton) else { return nil }
        self.handle = handle
    }

    deinit {
        lproj_number_formatter_close(handle)
    }
}

/// Formatters by locale and skeleton, opened once. Bounded: a client asking
/// for ever new precisions cannot grow it without limit.
enum NumberFormatterCache {
    private struct Key: Hashable {
        let locale: String
        let skeleton: String
    }

    private static let formatters = Mutex<[Key: NumberFormatterHandle]>([:])
    private static let limit = 2048

    static func formatter(locale: String, skeleton: String) -> NumberFormatterHandle? {
        let key = Key(locale: locale, skeleton: skeleton)
        if let cached = formatters.withLock({ $0[key] }) { return cached }
        guard let created = NumberFormatterHandle(locale: locale, skeleton: skeleton) else { return nil }
        return formatters.withLock { formatters in
            if let existing = formatters[key] { return existing }
            if formatters.count < limit { formatters[key] = created }
            return created
        }
    }
}
