import LprojFormatStrings
import Testing

@Suite struct PseudoLocalizationTests {
    @Test func accentedLettersAboutFortyPercentLongerBetweenBrackets() {
        #expect(PseudoLocalization.accented.transform("Hello") == "[Ĥéļļö on]")
        #expect(PseudoLocalization.accented.transform("Save changes") == "[Šåṽé çĥåñĝéš one t]")
        // Digits, punctuation and letters beyond ASCII are kept.
        #expect(PseudoLocalization.accented.transform("Größe: 42!") == "[Ĝŕößé: 42! one ]")
    }

    @Test func conversionsReferencesAndPlaceholdersAreKeptByteForByte() {
        let value = "%1$@ sent {name} %2$lld files (%.1f%%) via %#@sites@, 100% %"
        let accented = PseudoLocalization.accented.transform(value)
        #expect(accented.hasPrefix("[%1$@ šéñţ {name} %2$lld ƒîļéš (%.1f%%) ṽîå %#@sites@, 100% %"))
        let bidirectional = PseudoLocalization.bidirectional.transform(value)
        for token in ["%1$@", "{name}", "%2$lld", "%.1f", "%%", "%#@sites@"] {
            #expect(accented.contains(token) && bidirectional.contains(token), "\(token)")
        }
        // Both take exactly the arguments the value took.
        for transformed in [accented, bidirectional] {
            #expect(FormatString(transformed).specifiers.map(\.text) == FormatString(value).specifiers.map(\.text))
            #expect(FormatString(transformed).variableReferences == FormatString(value).variableReferences)
            #expect(Placeholders.names(in: transformed) == ["name"])
        }
        // A lone `%` at the end prints nothing: it stays last, where nothing
        // can become its conversion.
        #expect(PseudoLocalization.accented.transform("Numeric %") == "[Ñûṁéŕîç  one ]%")
        #expect(PseudoLocalization.bidirectional.transform("Numeric %") == "\u{200F}\u{202E}Numeric\u{202C}\u{200F} %")
        #expect(FormatString(PseudoLocalization.accented.transform("50%")).specifiers.isEmpty)
        // Any unfinished conversion at the end stays last: `100% ` then
        // padding would read `% o`, an octal conversion.
        for text in ["Battery 100% ", "Progress %5", "Left %-", "Size %l", "Done %1$"] {
            for pseudo in PseudoLocalization.allCases {
                let transformed = pseudo.transform(text)
                #expect(
                    FormatString(transformed).specifiers.isEmpty
                        && transformed.hasSuffix(String(text.suffix(from: text.lastIndex(of: "%")!))), "\(text)")
            }
        }
        // Long values are padded in time linear in their length.
        let long = String(repeating: "word ", count: 200_000)
        #expect(PseudoLocalization.accented.transform(long).count > long.count * 13 / 10)
        // A placeholder right after a `%` (which the format reads as `%{`)
        // is still a placeholder (found by the fuzzer).
        #expect(Placeholders.names(in: PseudoLocalization.accented.transform("%{name} x")) == ["name"])
        // A combining mark after a conversion stays where it was.
        #expect(PseudoLocalization.accented.transform("%d\u{301}x").hasPrefix("[%d\u{301}ẋ"))
        // A brace that opens no placeholder is text.
        #expect(PseudoLocalization.accented.transform("{ok") == "[{öķ on]")
    }

    @Test func bidirectionalForcesEachWordAndArgumentRightToLeft() {
        let (rlm, rlo, pdf) = ("\u{200F}", "\u{202E}", "\u{202C}")
        #expect(
            PseudoLocalization.bidirectional.transform("Hi %@ there")
                == "\(rlm)\(rlo)Hi\(pdf)\(rlm) \(rlm)\(rlo)%@\(pdf)\(rlm) \(rlm)\(rlo)there\(pdf)\(rlm)")
        // Line breaks and runs of spaces stay as they were.
        #expect(PseudoLocalization.bidirectional.transform("a\n  b") == "\(rlm)\(rlo)a\(pdf)\(rlm)\n  \(rlm)\(rlo)b\(pdf)\(rlm)")
    }

    @Test func anEmptyValueStaysEmpty() {
        for pseudo in PseudoLocalization.allCases { #expect(pseudo.transform("") == "") }
        #expect(PseudoLocalization.accented.transform("%@") == "[%@]")
    }

    @Test func pluralEntriesKeepTheirCategoriesAndArguments() throws {
        let entry = try PluralFormat(
            formatKey: "%#@files@ in %@",
            variables: ["files": PluralVariable(valueTypeText: "lld", forms: [.one: "%lld file", .other: "%lld files", .zero: ""])])
        let accented = PseudoLocalization.accented.transform(entry)
        #expect(accented.formatKey == "[%#@files@ îñ %@ on]")
        #expect(accented.variables["files"]?.forms == [.one: "%lld ƒîļé on", .other: "%lld ƒîļéš one", .zero: ""])
        #expect(accented.variables["files"]?.valueTypeText == "lld")
        let bidirectional = PseudoLocalization.bidirectional.transform(entry)
        #expect(Set(bidirectional.variables["files"]!.forms.keys) == [.zero, .one, .other])
        #expect(bidirectional.variables["files"]?.forms[.one]?.contains("%lld") == true)
    }
}
