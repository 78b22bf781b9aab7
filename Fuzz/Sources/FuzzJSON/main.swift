import FuzzSupport
import VarlinkProtocol

/// The JSON parser and the Varlink call decoder on anything: no crash, a
/// value that parses writes back as JSON that parses to the same value,
/// and parsing stays linear (the slowest input is reported at exit).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzInput(start, count) { bytes in
        if let value = timed(bytes.count, { try? JSONParser.parse(bytes) }) {
            let written = JSONWriter.encode(value)
            guard let again = try? JSONParser.parse(written) else { fatalError("the writer wrote what the parser refuses: \(written)") }
            precondition(again == value, "a value changed through writing and parsing again")
        }
        _ = timed(bytes.count) { bytes.withUnsafeBytes { try? VarlinkCall.decode($0) } }
        _ = bytes.withUnsafeBytes { try? VarlinkReply.decode($0) }
    }
}
