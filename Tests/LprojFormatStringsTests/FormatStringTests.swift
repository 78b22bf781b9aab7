import Testing
@testable import LprojFormatStrings

@Suite struct FormatStringTests {
    func conversions(_ text: String) -> [String] {
        FormatString(text).specifiers.map { "\($0.conversion.rawValue)" }
    }

    @Test func everyListedConversionParses() {
        let format = FormatString("%d %i %u %ld %lu %lld %llu %f %e %g %x %X %o %c %s %@ %%")
        #expect(
            format.specifiers.map(\.text) == [
                "%d", "%i", "%u", "%ld", "%lu", "%lld", "%llu", "%f", "%e", "%g", "%x", "%X", "%o", "%c", "%s", "%@",
            ])
        #expect(format.specifiers[3].length == .long)
        #expect(format.specifiers[5].length == .longLong)
        #expect(format.segments.last == .unknown(text: "%%", printed: "%"))
    }

    @Test func flagsWidthPrecisionAndPositions() {
        let specifier = FormatString("%2$-+08.3f").specifiers[0]
        #expect(specifier.position == 2)
        #expect(specifier.leftJustified && specifier.alwaysSign && !specifier.zeroPadded)
        #expect(specifier.width == .fixed(8))
        #expect(specifier.precision == .fixed(3))
        #expect(FormatString("%*.*d").specifiers[0].width == .argument(position: nil))
        #expect(FormatString("%1$@ %2$d").specifiers.map(\.position) == [1, 2])
    }

    @Test func pluralVariables() {
        #expect(FormatString("%#@files@").variableReferences.map(\.name) == ["files"])
        let positional = FormatString("%1$#@passwords@").variableReferences[0]
        #expect(positional.position == 1 && !positional.hasPositionWithoutDollar)
        let tolerated = FormatString("%1#@count@").variableReferences[0]
        #expect(tolerated.name == "count" && tolerated.position == 1 && tolerated.hasPositionWithoutDollar)
        #expect(FormatString("%#@a@ and %#@b@").variableReferences.map(\.name) == ["a", "b"])
    }

    @Test func malformedReferencesAreKept() {
        #expect(FormatString("%# @sites @").segments.first == .malformedVariable(text: "%# @sites "))
        #expect(FormatString("%#@unclosed").segments.contains { if case .malformedVariable = $0 { true } else { false } })
    }

    @Test func oddities() {
        #expect(FormatString("100%").segments.last == .incomplete(text: "%"))
        #expect(FormatString("%y").segments == [.unknown(text: "%y", printed: "y")])
        #expect(!FormatString("50%% off").hasArguments)
        #expect(FormatString("plain").segments == [.literal("plain")])
    }
}
