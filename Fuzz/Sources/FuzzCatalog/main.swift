import Foundation
import FuzzSupport
import LprojFormat
import LprojTables

/// The String Catalog reader and compiler on anything: never a crash or a
/// hang; what it accepts is JSON that Foundation accepts too; every plural
/// entry it compiles refers only to variables with an `other` form, and
/// renders within the output limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzInput(start, count) { bytes in
        guard let file = timed(bytes.count, { try? StringCatalogParser().parse(bytes) }) else { return }
        precondition(
            (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil, "accepted what is not JSON")
        for includesAllStates in [false, true] {
            let compilation = timed(bytes.count, { StringCatalogCompiler(includesAllStates: includesAllStates).compile(file.catalog) })
            let renderer = FormatRenderer(numbers: POSIXNumberRenderer(), plurals: RootPluralRules())
            for table in compilation.tables {
                for (key, entry) in table.plurals {
                    for reference in entry.format.variableReferences {
                        precondition(
                            entry.variables[reference.name]?.forms[.other] != nil, "\(key): a variable it refers to has no other form")
                    }
                    let arguments = Array(repeating: FormatArgument.integer(3), count: 4)
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
}
