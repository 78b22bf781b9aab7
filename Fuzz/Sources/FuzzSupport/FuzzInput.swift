import Foundation

/// Runs one fuzzer input. libFuzzer's `-timeout` catches hangs in
/// seconds; ``timed(_:_:)`` reports the slowest input in milliseconds when
/// the run ends, as the target "no input slower than a few ms" asks.
public func fuzzInput(_ start: UnsafeRawPointer?, _ count: Int, _ body: ([UInt8]) -> Void) -> CInt {
    body(count == 0 ? [] : Array(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}

/// Times lprojd's part of an input (not an oracle's, not the harness's).
public func timed<T>(_ size: Int, _ body: () -> T) -> T {
    let began = DispatchTime.now().uptimeNanoseconds
    let result = body()
    Slowest.note(DispatchTime.now().uptimeNanoseconds - began, size: size)
    return result
}

/// The slowest input of the run, printed at exit.
enum Slowest {
    static var nanoseconds: UInt64 = 0
    static var size = 0
    static var registered = false
    /// The first inputs open what every later one reuses (ICU's data, the
    /// YAML parser, the service's server): they are not counted.
    static var warmUp = 200

    static func note(_ elapsed: UInt64, size: Int) {
        guard warmUp == 0 else {
            warmUp -= 1
            return
        }
        if !registered {
            registered = true
            atexit {
                let text = String(format: "slowest input: %.3f ms (%d bytes)\n", Double(Slowest.nanoseconds) / 1e6, Slowest.size)
                FileHandle.standardError.write(text.data(using: .utf8)!)
            }
        }
        if elapsed > nanoseconds {
            nanoseconds = elapsed
            self.size = size
        }
    }
}

/// Reads fuzzer bytes as a sequence of small choices.
public struct Choices {
    private let bytes: [UInt8]
    private var index = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var isEmpty: Bool { index >= bytes.count }

    /// The next byte (0 past the end).
    public mutating func byte() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }

    /// A number below `limit`.
    public mutating func below(_ limit: Int) -> Int {
        guard limit > 1 else { return 0 }
        return (Int(byte()) << 8 | Int(byte())) % limit
    }

    /// The next `count` bytes as text (lossy UTF-8).
    public mutating func text(maximum: Int) -> String {
        let count = below(maximum + 1)
        let end = min(bytes.count, index + count)
        defer { index = max(index, end) }
        return index < end ? String(decoding: bytes[index..<end], as: UTF8.self) : ""
    }

    /// Everything not yet read.
    public mutating func rest() -> [UInt8] {
        defer { index = bytes.count }
        return index < bytes.count ? Array(bytes[index...]) : []
    }
}
