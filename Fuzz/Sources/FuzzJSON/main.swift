import Foundation
import FuzzSupport
import VarlinkProtocol

/// The JSON tokenizer, the parser built on it and the Varlink call decoder
/// on anything: no crash; what the parser accepts is JSON that Foundation
/// accepts too; a value that parses writes back as JSON that parses to the
/// same value; and parsing stays linear (the slowest input is reported at
/// exit). The String Catalog reader, on the same tokenizer, is FuzzCatalog's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzInput(start, count) { bytes in
        if let value = timed(bytes.count, { try? JSONParser.parse(bytes) }) {
            precondition(
                (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil, "accepted what is not JSON")
            let written = JSONWriter.encode(value)
            guard let again = try? JSONParser.parse(written) else { fatalError("the writer wrote what the parser refuses: \(written)") }
            precondition(again == value, "a value changed through writing and parsing again")
        }
        _ = timed(bytes.count) { bytes.withUnsafeBytes { try? VarlinkCall.decode($0) } }
        _ = bytes.withUnsafeBytes { try? VarlinkReply.decode($0) }
    }
}
