@testable import FuzzSupport
@testable import LprojExchange
import LprojTables

/// The PO reader on anything, and what reads imported into a small bundle:
/// never a crash or a hang; every error at a line of the input; what reads
/// writes back (POWriter) to a file that reads as the same messages; an
/// import writes only the target language's tables.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzInput(start, count) { bytes in
        let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        let read: Result<PODocument, XMLError> = timed(bytes.count) { Result { () throws(XMLError) in try POReader.read(bytes) } }
        let document: PODocument
        switch read {
        case .success(let read): document = read
        case .failure(let error):
            precondition(error.location.line >= 1 && error.location.line <= lines, "an error at \(error.location) of \(lines) lines")
            return
        }
        let written = POWriter.write(document)
        let again = try? POReader.read(written)
        precondition(again?.messages.map(\.id) == document.messages.map(\.id), "a PO file written back reads otherwise")
        precondition(again?.messages.map(\.strings) == document.messages.map(\.strings), "a PO file written back reads otherwise")
        for language in ["de", "ru"] {
            guard let exchange = try? LocalizationExchange(bundle: ExchangeFixture.bundle, language: language) else { continue }
            let plan = timed(bytes.count) { exchange.importing(document, from: "fuzz.po") }
            ExchangeFixture.checkWrites(plan, language: language)
        }
    }
}
