import FuzzSupport
@testable import LprojConfiguration
@testable import LprojLimits

/// The configuration reader on anything: a configuration or one clear
/// problem, never a crash; and every limit it accepts is positive.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzInput(start, count) { bytes in
        do {
            let configuration = try timed(bytes.count) {
                Result {
                    try ConfigurationFile.parse(String(decoding: bytes, as: UTF8.self), name: "fuzz.conf", baseDirectory: "/etc/lprojd")
                }
            }.get()
            let server = configuration.limits.service.server
            precondition(server.maximumMessageSize > 0 && server.maximumConnections > 0 && server.maximumConnectionsPerUID > 0)
        } catch {
            precondition(!"\(error)".isEmpty)
        }
    }
}
