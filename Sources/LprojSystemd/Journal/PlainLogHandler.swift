#if canImport(Glibc)
    import Glibc
#endif
package import Logging
import Synchronization

/// The daemon-wide log level (`--log-level`), which a configuration reload
/// may change while loggers already exist.
package final class LogLevelControl: Sendable {
    private let raw: Atomic<UInt8>

    package init(_ level: Logger.Level) {
        raw = Atomic(Self.code(level))
    }

    package var level: Logger.Level {
        get { Self.level(raw.load(ordering: .relaxed)) }
        set { raw.store(Self.code(newValue), ordering: .relaxed) }
    }

    private static let order: [Logger.Level] = [.trace, .debug, .info, .notice, .warning, .error, .critical]
    private static func code(_ level: Logger.Level) -> UInt8 { UInt8(order.firstIndex(of: level)!) }
    private static func level(_ code: UInt8) -> Logger.Level { order[Int(code)] }
}

/// Plain lines on standard error, one per entry:
/// `2026-11-22T10:00:00Z info lprojd: message key=value`. This is what the
/// daemon writes when it runs in a terminal, or under a service manager
/// that is not journald.
package struct PlainLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let threshold: LogLevelControl
    private var ownLevel: Logger.Level?
    private let write: @Sendable (String) -> Void

    package init(
        label: String, threshold: LogLevelControl, write: @escaping @Sendable (String) -> Void = PlainLogHandler.writeToStandardError
    ) {
        self.label = label
        self.threshold = threshold
        self.write = write
    }

    package var logLevel: Logger.Level {
        get { ownLevel ?? threshold.level }
        set { ownLevel = newValue }
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var line = "\(Self.timestamp()) \(event.level) \(label): \(event.message)"
        let merged = JournalLogHandler.merge(metadata, metadataProvider?.get(), event.metadata)
        for key in merged.keys.sorted() { line += " \(key)=\(merged[key]!)" }
        if let error = event.error { line += " error=\(error)" }
        write(line + "\n")
    }

    /// One `write(2)` per line, so that lines from several threads never
    /// interleave.
    package static let writeToStandardError: @Sendable (String) -> Void = { line in
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = Int(now.tv_nsec / 1_000_000)
        let fraction = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)Z"
    }
}
