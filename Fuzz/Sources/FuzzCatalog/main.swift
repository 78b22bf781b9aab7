import Foundation
import FuzzSupport
import LprojFormatStrings
import LprojTables

/// The String Catalog reader and compiler on anything: never a crash or a
/// hang; what it accepts is JSON that Foundation accepts too; every plural
/// entry it compiles refers only to variables with an `other` form, and
/// renders within the output limit; and the one-pass loader gives the
/// same tables and diagnostics as the parser and the compiler.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzInput(start, count) { bytes in
        guard let file = timed(bytes.count, { try? StringCatalogParser().parse(bytes) }) else { return }
        precondition(
            (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil, "accepted what is not JSON")
        for includesAllStates in [false, true] {
            let compiler = StringCatalogCompiler(includesAllStates: includesAllStates)
            let compilation = timed(bytes.count, { compiler.compile(file.catalog) })
            // The one-pass loader lprojd uses means exactly the same.
            let loaded = timed(bytes.count, { try? StringCatalogLoader(compiler: compiler).load(bytes) })
            precondition(loaded?.compilation.tables.map(\.language) == compilation.tables.map(\.language), "the loader's languages differ")
            for (table, expected) in zip(loaded!.compilation.tables, compilation.tables) {
                precondition(table.strings.dictionary == expected.strings.dictionary, "\(table.language): the loader's strings differ")
                precondition(table.plurals == expected.plurals, "\(table.language): the loader's plural entries differ")
            }
            precondition(Set(loaded!.compilation.diagnostics) == Set(compilation.diagnostics), "the loader's diagnostics differ")
            // As a multiset: the parser reports a variation's cases in its dictionary's order.
            precondition(
                loaded!.readingDiagnostics.map(\.description).sorted() == file.diagnostics.map(\.description).sorted(),
                "the loader's reading diagnostics differ")
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
