@testable import FuzzSupport
@testable import LprojExchange
import LprojTables

/// The strict XML reader and the XLIFF reader on anything, and what reads
/// imported into a small bundle: never a crash or a hang (the reader is
/// linear: no entity, no DTD, bounded depth, one stack per namespace
/// prefix); every error at a line of the input; an import writes only the
/// target language's tables, and nothing where anything is wrong.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzInput(start, count) { bytes in
        // XML ends a line at LF, CR or CRLF.
        var lines = 1
        for (index, byte) in bytes.enumerated()
        where byte == 0x0A || byte == 0x0D && bytes.indices.contains(index + 1) == false
            || byte == 0x0D && bytes[index + 1] != 0x0A
        {
            lines += 1
        }
        let read: Result<XLIFFDocument, XMLError> = timed(bytes.count) { Result { () throws(XMLError) in try XLIFFReader.read(bytes) } }
        let document: XLIFFDocument
        switch read {
        case .success(let read): document = read
        case .failure(let error):
            precondition(error.location.line >= 1 && error.location.line <= lines, "an error at \(error.location) of \(lines) lines")
            return
        }
        for language in ["de", "ru"] {
            guard let exchange = try? LocalizationExchange(bundle: ExchangeFixture.bundle, language: language) else { continue }
            let plan = timed(bytes.count) { exchange.importing(document, from: "fuzz.xliff") }
            ExchangeFixture.checkWrites(plan, language: language)
        }
    }
}
