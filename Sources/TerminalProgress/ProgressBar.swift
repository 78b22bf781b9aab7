import Glibc

/// A progress bar on a terminal while a long run goes on (extraction over a
/// large tree, coverage of many locales, an export or an import), as a
/// person watching expects: nothing at all when standard error is not a
/// terminal (a pipe, a file, CI's log), nothing for a run too short to need
/// it, and no trace once the run ends, so that the results printed after it
/// stand alone.
///
/// One line, `label [█████░░░░░] 12/40 item`, fitted to the terminal's
/// width and redrawn at most ten times a second. It is used from one thread.
public final class ProgressBar {
    /// Where the bar is drawn.
    public struct Output {
        let descriptor: Int32
        let enabled: Bool
        let width: () -> Int

        /// Standard error, when it is a terminal that can redraw a line
        /// (`TERM` neither unset nor `dumb`).
        public static func standardError() -> Output {
            let term = getenv("TERM").map { String(cString: $0) } ?? ""
            return Output(
                descriptor: STDERR_FILENO, enabled: isatty(STDERR_FILENO) == 1 && !term.isEmpty && term != "dumb",
                width: { Output.columns(of: STDERR_FILENO) })
        }

        /// A descriptor of the caller's: drawn to when it is a terminal, or
        /// always when `force` (tests), `width` columns wide.
        public static func descriptor(_ descriptor: Int32, force: Bool = false, width: Int? = nil) -> Output {
            Output(
                descriptor: descriptor, enabled: force || isatty(descriptor) == 1,
                width: { width ?? Output.columns(of: descriptor) })
        }

        static func columns(of descriptor: Int32) -> Int {
            var size = winsize()
            guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
            return Int(size.ws_col)
        }
    }

    /// Nanoseconds on a monotonic clock.
    public typealias Clock = () -> UInt64

    /// A run shorter than this shows no bar at all.
    public static let delay: UInt64 = 300_000_000
    /// The shortest time between two drawings.
    public static let interval: UInt64 = 100_000_000

    private let label: String
    private var total: Int
    private var done = 0
    private let output: Output
    private let clock: Clock
    private let started: UInt64
    private var lastDrawn: UInt64?

    /// A bar for `total` steps (0 when not known yet: see `expect`).
    public init(_ label: String, total: Int, output: Output = .standardError(), clock: @escaping Clock = ProgressBar.monotonic) {
        self.label = label
        self.total = max(0, total)
        self.output = output
        self.clock = clock
        self.started = clock()
    }

    /// The steps done so far.
    public var completed: Int { done }

    /// Sets the number of steps, once it is known.
    public func expect(_ total: Int) {
        self.total = max(0, total)
    }

    /// Counts `steps` done, the last one about `item` (a file's name, a
    /// locale), and redraws when it is time to.
    public func advance(_ item: String = "", by steps: Int = 1) {
        done += steps
        guard output.enabled else { return }
        let now = clock()
        guard now &- started >= Self.delay else { return }
        if let lastDrawn, now &- lastDrawn < Self.interval { return }
        lastDrawn = now
        write("\r" + Self.line(label: label, done: done, total: total, item: item, width: output.width()) + "\u{1B}[K")
    }

    /// Erases the bar, if it was drawn: what is printed next starts a clean line.
    public func finish() {
        guard lastDrawn != nil else { return }
        lastDrawn = nil
        write("\r\u{1B}[K")
    }

    deinit { finish() }

    /// The line drawn, at most `width - 1` columns (a terminal that wraps at
    /// its last column would start a new line).
    public static func line(label: String, done: Int, total: Int, item: String, width: Int) -> String {
        let count = total > 0 ? "\(min(done, total))/\(total)" : "\(done)"
        let room = max(10, width - 1)
        let barWidth = min(30, max(5, room / 4))
        var filled = 0
        if total > 0 { filled = min(barWidth, barWidth * min(done, total) / total) }
        let bar = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "]"
        var text = "\(label) \(bar) \(count)"
        if !item.isEmpty { text += " \(item)" }
        guard text.count > room else { return text }
        // The item's end says most (a file's name): keep it.
        let head = "\(label) \(bar) \(count) "
        let left = room - head.count - 1
        guard left > 0 else { return String(text.prefix(room)) }
        return head + "…" + String(item.suffix(left))
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    public static func monotonic() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(output.descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
