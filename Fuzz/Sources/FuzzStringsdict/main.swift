import FuzzSupport
import LprojFormatStrings
@testable import LprojLocales
import LprojTables

/// The `.stringsdict` validator on anything (the seeds are real files): it
/// reports and never crashes or hangs; every variable an entry it keeps
/// refers to has an `other` form, and the entry renders within the output
/// limit. (Variables it does not refer to may be anything: Foundation
/// ignores them too.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzInput(start, count) { bytes in
        guard let file = timed(bytes.count, { try? StringsdictParser().parse(bytes) }) else { return }
        let renderer = FormatRenderer(numbers: POSIXNumberRenderer(), plurals: RootPluralRules())
        for (key, entry) in file.entries {
            for reference in entry.format.variableReferences {
                precondition(entry.variables[reference.name]?.forms[.other] != nil, "\(key): a variable it refers to has no other form")
            }
            for value in [0, 1, 2, 5, 21] {
                let arguments = Array(repeating: FormatArgument.integer(Int64(value)), count: 4)
                if let text = timed(
                    bytes.count,
                    { try? renderer.render(entry.format, arguments: arguments, variables: entry.variables, maximumBytes: 4096) })
                {
                    precondition(text.utf8.count <= 4096, "\(key): rendered past the limit")
                }
            }
        }
    }
}
