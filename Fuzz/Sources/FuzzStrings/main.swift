import FuzzSupport
import LprojTablesOracle

/// The `.strings` parser against Foundation's PropertyListSerialization:
/// where Foundation reads the bytes, lprojd must read the same table (but
/// for the deviations the README documents); where it does not, lprojd
/// must fail too. A disagreement is a crash, which libFuzzer keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzInput(start, count) { bytes in
        if FoundationReference.isDocumentedDeviation(bytes) { return }
        let ours = timed(bytes.count) { FoundationReference.ours(bytes) }
        let reference = FoundationReference.meaning(of: bytes)
        if FoundationReference.isNestingDeviation(ours: ours, reference: reference) { return }
        if ours != reference {
            fatalError("lprojd and Foundation disagree:\nours \(ours)\nFoundation \(reference)")
        }
    }
}
