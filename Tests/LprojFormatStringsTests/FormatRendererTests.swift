import Foundation
import LprojLocales
import Testing
@testable import LprojFormatStrings

@Suite struct FormatRendererTests {
    func renderer(_ tag: String, plurals: String? = nil) throws -> FormatRenderer {
        let locale = try LocaleIdentifier(tag)
        let rules = try #require(PluralRules.forLocale(LocaleIdentifier(plurals ?? tag)))
        return FormatRenderer(numbers: ICUNumberRenderer(locale: locale), plurals: rules)
    }

    func render(
        _ format: String, _ arguments: [FormatArgument], locale: String = "en", variables: [String: PluralVariable] = [:],
        placeholders: [String: String] = [:]
    ) throws -> String {
        try renderer(locale).render(FormatString(format), arguments: arguments, variables: variables, placeholders: placeholders)
    }

    @Test func integersAreLocalized() throws {
        #expect(try render("%d files", [.integer(1234)]) == "1,234 files")
        #expect(try render("%ld|%lld|%i|%u", [.integer(-5), .integer(7), .integer(8), .integer(9)]) == "-5|7|8|9")
        #expect(try render("%d", [.integer(1234)], locale: "de") == "1.234")
        #expect(try render("%d", [.integer(1234)], locale: "ar") == "١٬٢٣٤")
        #expect(try render("%05d|%.3d|%+d", [.integer(42), .integer(7), .integer(3)]) == "00,042|007|+3")
    }

    @Test func decimalSeparatorFollowsTheLocale() throws {
        #expect(try render("%.1f", [.float(1.5)], locale: "de") == "1,5")
        #expect(try render("%.1f", [.float(1.5)], locale: "en") == "1.5")
        #expect(try render("%f", [.float(2.5)]) == "2.500000")
        #expect(try render("%.2f", [.integer(3)], locale: "fr") == "3,00")
        #expect(try render("%e", [.float(1500)]) == "1.500000E+03")
        #expect(try render("%g|%g", [.float(0.5), .float(1234567)]) == "0.5|1.23457E+06")
    }

    /// `%g` picks scientific notation by the exponent after rounding, as C does.
    @Test func generalNotationDecidesAfterRounding() throws {
        #expect(try render("%g|%g|%g", [.float(1e6), .float(999_999.5), .float(999_999.4)]) == "1E+06|1E+06|999,999")
        #expect(try render("%g|%g|%g", [.float(0.0001), .float(0.000_099_999_99), .float(0.000_099_999)]) == "0.0001|0.0001|9.9999E-05")
        #expect(try render("%.2g|%.2g", [.float(99.5), .float(99.4)]) == "1E+02|99")
        #expect(FormatRenderer.decimalExponent(9.5, significantDigits: 1) == 1)
        #expect(try render("%@", [.float(2.5)], locale: "de") == "2,5")
    }

    @Test func cConversionsStayC() throws {
        #expect(
            try render("%x|%X|%#x|%o|%#o|%08x", [.integer(255), .integer(255), .integer(255), .integer(8), .integer(8), .integer(255)])
                == "ff|FF|0xff|10|010|000000ff")
        #expect(try render("%x", [.integer(-1)]) == "ffffffff")
        #expect(try render("%lx", [.integer(-1)]) == "ffffffffffffffff")
    }

    @Test func stringsCharactersAndPadding() throws {
        #expect(
            try render("%c%c|%s|%.2s|%@", [.integer(65), .string("é"), .string("hi"), .string("hello"), .string("obj")]) == "Aé|hi|he|obj")
        #expect(try render("[%5s][%-5s][%*d]", [.string("ab"), .string("ab"), .integer(4), .integer(7)]) == "[   ab][ab   ][   7]")
        #expect(try render("100%% sure", []) == "100% sure")
        #expect(try render("%y and 5%", []) == "y and 5")
    }

    @Test func positionalArguments() throws {
        #expect(try render("%2$@ before %1$@", [.string("A"), .string("B")]) == "B before A")
        #expect(try render("%2$d %1$@ %2$d", [.string("x"), .integer(3)]) == "3 x 3")
    }

    @Test func mismatchesAreClearErrors() throws {
        #expect(throws: FormatError.argumentMismatch(position: 1, specifier: "%d", expected: .integer, actual: "string")) {
            try render("%d", [.string("x")])
        }
        #expect(throws: FormatError.argumentMismatch(position: 2, specifier: "%d", expected: .integer, actual: "float")) {
            try render("%@ %d", [.string("x"), .float(1.5)])
        }
        #expect(throws: FormatError.missingArgument(position: 2, specifier: "%@", given: 1)) {
            try render("%d %@", [.integer(1)])
        }
        #expect(throws: FormatError.unsupportedConversion(specifier: "%p")) { try render("%p", [.integer(1)]) }
        #expect(throws: FormatError.missingArgument(position: 1, specifier: "%d", given: 0)) { try render("%d", []) }
        #expect(throws: FormatError.self) { try render("%c", [.string("ab")]) }
    }

    @Test func extraArgumentsAreIgnored() throws {
        #expect(try render("no numbers", [.integer(1)]) == "no numbers")
    }

    // MARK: Plurals

    static let files = PluralVariable(valueTypeText: "d", forms: [.one: "%d file", .other: "%d files", .zero: "no files"])
    static let folders = PluralVariable(valueTypeText: "%ld", forms: [.one: "one folder", .other: "%d folders"])

    @Test func pluralFormsFollowCLDRAndApple() throws {
        let variables = ["files": Self.files, "folders": Self.folders]
        #expect(try render("%#@files@", [.integer(1)], variables: variables) == "1 file")
        #expect(try render("%#@files@", [.integer(1200)], variables: variables) == "1,200 files")
        // Apple's rule: an explicit zero form wins for 0, though English has no zero category.
        #expect(try render("%#@files@", [.integer(0)], variables: variables) == "no files")
        #expect(try render("%#@files@ in %#@folders@", [.integer(3), .integer(1)], variables: variables) == "3 files in one folder")
        #expect(try render("%#@files@ in %#@folders@", [.integer(1), .integer(2)], variables: variables) == "1 file in 2 folders")
    }

    @Test func missingCategoriesFallBackToOther() throws {
        let variable = PluralVariable(valueTypeText: "d", forms: [.one: "%d plik", .other: "%d plików"])
        let polish = try renderer("pl")
        #expect(try polish.render(FormatString("%#@n@"), arguments: [.integer(3)], variables: ["n": variable]) == "3 plików")  // no "few"
        #expect(try polish.render(FormatString("%#@n@"), arguments: [.integer(1)], variables: ["n": variable]) == "1 plik")
    }

    @Test func decimalsChooseByVisibleFractionDigits() throws {
        let variable = PluralVariable(valueTypeText: "f", forms: [.one: "%.1f mile", .other: "%.1f miles"])
        #expect(try render("%#@d@", [.float(1, fractionDigits: 0)], variables: ["d": variable]) == "1.0 mile")
        #expect(try render("%#@d@", [.float(1, fractionDigits: 1)], variables: ["d": variable]) == "1.0 miles")
        #expect(try render("%#@d@", [.float(1.5)], variables: ["d": variable]) == "1.5 miles")
        let explicit = PluralVariable(valueTypeText: ".1f", forms: [.one: "%.1f mile", .other: "%.1f miles"])
        #expect(try render("%#@d@", [.float(1, fractionDigits: 0)], variables: ["d": explicit]) == "1.0 miles")
    }

    /// The DuckDuckGo shape: positional variables nested in another's forms,
    /// and an unnumbered %d inside a form taking the variable's own argument.
    @Test func nestedPositionalVariables() throws {
        let variables = [
            "passwords": PluralVariable(
                valueTypeText: "d",
                forms: [
                    .one: "Your password will be deleted. Keep access to %2$#@accounts@.",
                    .other: "%1$d passwords will be deleted. Keep access to %2$#@accounts@.",
                ]),
            "accounts": PluralVariable(valueTypeText: "d", forms: [.one: "your account", .other: "your %d accounts"]),
            "count": PluralVariable(
                valueTypeText: "d", forms: [.one: "*%2$@, %3$@* and *1 other*", .other: "*%2$@, %3$@* and *%d others*"]),
        ]
        #expect(
            try render("%1$#@passwords@", [.integer(5), .integer(2)], variables: variables)
                == "5 passwords will be deleted. Keep access to your 2 accounts.")
        #expect(
            try render("%1$#@passwords@", [.integer(1), .integer(1)], variables: variables)
                == "Your password will be deleted. Keep access to your account.")
        #expect(try render("%1#@count@", [.integer(4), .string("A"), .string("B")], variables: variables) == "*A, B* and *4 others*")
    }

    @Test func pluralErrors() throws {
        #expect(throws: FormatError.unknownVariable(name: "nope")) { try render("%#@nope@", [.integer(1)]) }
        #expect(throws: FormatError.argumentMismatch(position: 1, specifier: "%#@files@", expected: .pluralNumber, actual: "string")) {
            try render("%#@files@", [.string("x")], variables: ["files": Self.files])
        }
        #expect(throws: FormatError.argumentMismatch(position: 1, specifier: "%#@files@", expected: .integer, actual: "float")) {
            try render("%#@files@", [.float(1.5)], variables: ["files": Self.files])
        }
        #expect(throws: FormatError.malformedVariable(text: "%# @sites ")) { try render("%# @sites @", [.integer(1)]) }
        let cycle = PluralVariable(valueTypeText: "d", forms: [.other: "again %#@loop@"])
        #expect(throws: FormatError.self) { try render("%#@loop@", Array(repeating: .integer(1), count: 40), variables: ["loop": cycle]) }
    }

    // MARK: Work

    /// `%.4096g` writes little but computes thousands of digits: a format
    /// that repeats it stops once its work is spent, however small its
    /// output, and the work is counted in plural forms too.
    @Test func workThatNoOutputLimitSeesIsBounded() throws {
        let precise = String(repeating: "%1$.4096g", count: 7_200)
        #expect(throws: FormatError.tooMuchWork(maximumWork: FormatRenderer.maximumWork)) {
            try render(precise, [.float(0.1)])
        }
        let wide = PluralVariable(valueTypeText: "d", forms: [.other: String(repeating: "%1$.4096f", count: 100)])
        #expect(throws: FormatError.tooMuchWork(maximumWork: FormatRenderer.maximumWork)) {
            try render("%#@n@", [.integer(1)], variables: ["n": wide])
        }
        // What stays within the budget is formatted as before: seven precise floats, or nine hundred numbers.
        let seven = try render(String(repeating: "%1$.4096g|", count: 7), [.float(0.5)])
        #expect(seven == String(repeating: "0.5|", count: 7))
        #expect(try render(String(repeating: "%1$d", count: 900), [.integer(1)]) == String(repeating: "1", count: 900))
        // Plural forms chosen cost work too, though they write nothing.
        let empty = PluralVariable(valueTypeText: "d", forms: [.other: ""])
        let variables = Dictionary(uniqueKeysWithValues: (0..<2_000).map { ("v\($0)", empty) })
        let chosen = (0..<2_000).map { "%1$#@v\($0)@" }.joined()
        #expect(throws: FormatError.tooMuchWork(maximumWork: FormatRenderer.maximumWork)) {
            try render(chosen, [.integer(1)], variables: variables)
        }
    }

    /// The exponent `%g` decides by is read from at most 17 digits: beyond
    /// that, no rounding reaches the next power of ten.
    @Test func theExponentOfManyDigitsIsThatOfSeventeen() {
        for value in [
            0.1, 9.999_999_999_999_999e22, 1e22, 999_999.999_999_999_9, Double.leastNonzeroMagnitude, 1.797_693_134_862_315_7e308,
            0.000_099_999_999_999_999,
        ] {
            for digits in [17, 18, 30, 400, 4096] {
                let exact = String(format: "%.\(digits - 1)e", value)
                let exponent = Int(exact[exact.index(after: exact.lastIndex(of: "e")!)...])!
                #expect(FormatRenderer.decimalExponent(value, significantDigits: digits) == exponent, "\(value) at \(digits) digits")
            }
        }
    }

    // MARK: Placeholders

    @Test func placeholdersFillTheFormatsOwnText() throws {
        #expect(try render("Hello {name}, %d new", [.integer(3)], placeholders: ["name": "Ada"]) == "Hello Ada, 3 new")
        // An argument's text is never read as a placeholder, nor a value's.
        #expect(
            try render("%@ says {greeting}", [.string("{greeting}")], placeholders: ["greeting": "hi {name}", "name": "x"])
                == "{greeting} says hi {name}")
        #expect(
            Placeholders.substitute(in: "{unknown} {a}{b} {} {1x} {a.b-c}", values: ["a": "1", "b": "2", "a.b-c": "3"])
                == "{unknown} 12 {} {1x} 3")
        #expect(Placeholders.names(in: "{a} and {b_2}") == ["a", "b_2"])
    }
}

@Suite struct PluralFormatValidationTests {
    @Test func referencesMustExistAndHaveOther() {
        let ok = PluralVariable(valueTypeText: "d", forms: [.other: "%d"])
        #expect(
            throws: PluralFormatError(
                path: "NSStringLocalizedFormatKey", message: "refers to the variable 'b', which the entry does not define")
        ) {
            try PluralFormat(formatKey: "%#@a@ %#@b@", variables: ["a": ok])
        }
        #expect(throws: PluralFormatError(path: "a", message: "the variable has no 'other' form, which every plural variable needs")) {
            try PluralFormat(formatKey: "%#@a@", variables: ["a": PluralVariable(valueTypeText: "d", forms: [.one: "x"])])
        }
        #expect(throws: PluralFormatError.self) { try PluralFormat(formatKey: "%# @sites @", variables: ["sites": ok]) }
        let loop = PluralVariable(valueTypeText: "d", forms: [.other: "%#@a@"])
        #expect(throws: PluralFormatError(path: "a/other", message: "the variable 'a' refers to itself")) {
            try PluralFormat(formatKey: "%#@a@", variables: ["a": loop])
        }
        #expect(throws: Never.self) { try PluralFormat(formatKey: "%#@a@", variables: ["a": ok]) }
    }

    @Test func argumentSignaturesCoverPluralForms() {
        let variables = ["n": PluralVariable(valueTypeText: "d", forms: [.one: "one in %2$@", .other: "%d in %2$@"])]
        let signature = ArgumentSignature(FormatString("%#@n@"), variables: variables)
        #expect(signature.argumentCount == 2)
        #expect(signature.kind(at: 1)?.kind == .integer)
        #expect(signature.kind(at: 2)?.kind == .object)
        let swapped = ArgumentSignature(FormatString("%@ ... %d"))
        #expect(swapped.kind(at: 1)?.kind == .object && swapped.kind(at: 2)?.kind == .integer)
    }
}
