import FuzzSupport
@testable import LprojExchange

/// gettext's Plural-Forms on anything: parsed or refused, never a crash (a
/// chain of 400 KB once overflowed the stack) nor a hang; what parses is
/// evaluated for the numbers PluralMapping samples, each in bounded time,
/// and mapped to the CLDR categories of a few languages.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzInput(start, count) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        guard let rule = timed(bytes.count, { GettextPluralRule(text) }) else { return }
        precondition((1...6).contains(rule.count))
        timed(bytes.count) {
            for n in PluralMapping.samples + [UInt64.max, UInt64.max - 1, 1 << 63] { _ = rule.index(for: n) }
        }
        for language in ["ru", "ar", "ja"] {
            let mapping = PluralMapping(language: language, rule: rule)
            precondition(mapping.categoryOfIndex.count == rule.count)
        }
    }
}
