internal import LprojFormatStrings

/// A locale, identified by its canonical BCP 47 tag.
///
/// `en_GB`, `en-GB` and `en-gb` are one locale (`en-GB`); deprecated codes
/// become current ones (`iw` → `he`); and the English names Apple once used
/// for `.lproj` folders (`English`, `French`, ...) stand for their
/// languages. `Base` is not a locale; see ``LprojName``.
package struct LocaleIdentifier: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The canonical tag: "zh-Hant-TW", "en-GB", "es-419".
    package let tag: String
    /// The language subtag: "zh".
    package let language: String
    /// The script subtag as written, if any: "Hant".
    package let script: String?
    /// The region subtag, if any: "TW", "419".
    package let region: String?
    /// Variant subtags: "1996" in "de-1996".
    package let variants: [String]
    /// Extension and private-use subtags, from the first singleton on:
    /// ["u", "ca", "buddhist"] in "th-u-ca-buddhist", ["x", "pirate"].
    package let extensions: [String]

    /// The longest identifier accepted, in UTF-8 bytes as given (before any
    /// whitespace is trimmed).
    package static let maximumLength = 64

    /// Parses and canonicalizes an identifier. Its length is checked on the
    /// text as given, before anything else is done with it.
    package init(_ text: String) throws(LocaleError) {
        guard text.utf8.count <= Self.maximumLength else { throw .malformed(text.clipped(toUTF8Bytes: Self.maximumLength)) }
        let trimmed = text.trimmingWhitespace
        if let legacy = LegacyLanguageNames.identifiers[trimmed] {
            self = try LocaleIdentifier(canonicalizing: legacy, original: text)
            return
        }
        self = try LocaleIdentifier(canonicalizing: trimmed, original: text)
    }

    private init(canonicalizing text: String, original: String) throws(LocaleError) {
        guard !text.isEmpty, text.utf8.count <= 64, text.utf8.allSatisfy(Self.isTagByte) else { throw .malformed(original) }
        let hyphenated = text.replacingUnderscores
        // "und" names no language; "und-x-pirate" (private use only) is
        // well-formed and may be allowed by a bundle's configuration.
        guard let canonical = ICU.canonicalTag(hyphenated),
            canonical != "und", !canonical.hasPrefix("und-") || canonical.hasPrefix("und-x-")
        else { throw .malformed(original) }
        self.init(canonicalTag: canonical)
    }

    /// ASCII letters, digits, '-' and '_'.
    private static func isTagByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    /// Splits a tag that is already canonical.
    package init(canonicalTag tag: String) {
        self.tag = tag
        let parts = tag.split(separator: "-").map(String.init)
        var index = 1
        language = parts.first ?? tag
        var script: String?
        var region: String?
        var variants: [String] = []
        if index < parts.count, parts[index].count == 4, parts[index].allSatisfy(\.isLetter) {
            script = parts[index]
            index += 1
        }
        if index < parts.count,
            (parts[index].count == 2 && parts[index].allSatisfy(\.isLetter))
                || (parts[index].count == 3 && parts[index].allSatisfy(\.isNumber))
        {
            region = parts[index]
            index += 1
        }
        while index < parts.count, parts[index].count > 1 {
            variants.append(parts[index])
            index += 1
        }
        self.script = script
        self.region = region
        self.variants = variants
        self.extensions = Array(parts[min(index, parts.count)...])
    }

    package var description: String { tag }

    package static func < (lhs: LocaleIdentifier, rhs: LocaleIdentifier) -> Bool { lhs.tag < rhs.tag }

    /// The tag with likely subtags filled in ("zh-TW" → "zh-Hant-TW").
    package var maximized: LocaleIdentifier {
        ICU.maximize(tag).map(LocaleIdentifier.init(canonicalTag:)) ?? self
    }

    /// The script a reader of this locale reads: the one written, or the
    /// language's likely script for its region ("zh-TW" reads Hant).
    package var effectiveScript: String? {
        script ?? maximized.script
    }

    /// What this locale means when matching tables: language, effective
    /// script, region and variants. `zh-TW` and `zh-Hant-TW` match; `en`
    /// and `en-US` do not (a region-less table is a different table).
    package var matchKey: LocaleKey {
        LocaleKey(language: language, script: effectiveScript, region: region, variants: variants + extensions)
    }

    /// The language alone, keeping a script that differs from the
    /// language's usual one, written or implied ("zh-Hant-TW" and "zh-TW"
    /// → "zh-Hant", "sr-Latn-RS" → "sr-Latn", "en-GB" → "en").
    package var languageOnly: LocaleIdentifier {
        if let script = effectiveScript, script != LocaleIdentifier(canonicalTag: language).effectiveScript {
            return LocaleIdentifier(canonicalTag: "\(language)-\(script)")
        }
        return LocaleIdentifier(canonicalTag: language)
    }
}

/// A locale's identity for matching: two identifiers with the same key name
/// the same tables.
package struct LocaleKey: Sendable, Hashable, CustomStringConvertible {
    package let language: String
    package let script: String?
    package let region: String?
    /// Variants, then extension subtags.
    package let variants: [String]

    /// Creates a key.
    package init(language: String, script: String?, region: String?, variants: [String] = []) {
        self.language = language
        self.script = script
        self.region = region
        self.variants = variants
    }

    /// The key as a tag, with the script always written.
    package var tag: String {
        ([language] + [script, region].compactMap { $0 } + variants).joined(separator: "-")
    }

    package var description: String { tag }
}

extension String {
    var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    var replacingUnderscores: String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}
