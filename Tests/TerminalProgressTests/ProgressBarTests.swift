import Glibc
import Testing
import TerminalProgress

/// The bar on a real terminal (a pseudo-terminal this test opens), none on
/// a pipe, none for a short run, and no trace when the run ends; time is
/// the test's own clock.
@Suite struct ProgressBarTests {
    final class TestClock: @unchecked Sendable {
        var now: UInt64 = 0
        func advance(milliseconds: UInt64) { now += milliseconds * 1_000_000 }
    }

    /// A pseudo-terminal: what is written to its side `terminal` is read
    /// from `reader`.
    struct PseudoTerminal {
        let terminal: Int32
        let reader: Int32

        init() throws {
            // posix_openpt, unlockpt and ptsname, which Glibc's module does
            // not offer, as Linux does them: /dev/ptmx, then two ioctls
            // (TIOCSPTLCK and TIOCGPTN, the same on every Linux architecture
            // Swift runs on).
            let main = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            try #require(main >= 0)
            var unlock: Int32 = 0
            var number: UInt32 = 0
            try #require(ioctl(main, 0x4004_5431, &unlock) == 0 && ioctl(main, 0x8004_5430, &number) == 0)
            terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            try #require(terminal >= 0)
            // Bytes as written: no "\n" made "\r\n".
            var settings = termios()
            tcgetattr(terminal, &settings)
            cfmakeraw(&settings)
            tcsetattr(terminal, TCSANOW, &settings)
            reader = main
            _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
        }

        func written() -> String {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(reader, &buffer, buffer.count)
                guard count > 0 else { break }
                bytes += buffer[0..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        func close() {
            Glibc.close(terminal)
            Glibc.close(reader)
        }
    }

    @Test func aLongRunDrawsOnATerminalAndLeavesNoTrace() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let clock = TestClock()
        let bar = ProgressBar("coverage", total: 4, output: .descriptor(pty.terminal, width: 60), clock: { clock.now })
        bar.advance("de")
        #expect(pty.written().isEmpty, "drawn before the delay")
        clock.advance(milliseconds: 400)
        bar.advance("fr")
        let drawn = pty.written()
        #expect(drawn == "\r" + ProgressBar.line(label: "coverage", done: 2, total: 4, item: "fr", width: 60) + "\u{1B}[K")
        // Ten a second at most.
        clock.advance(milliseconds: 20)
        bar.advance("ja")
        #expect(pty.written().isEmpty)
        clock.advance(milliseconds: 100)
        bar.advance("ru")
        #expect(pty.written().contains("4/4 ru"))
        bar.finish()
        #expect(pty.written() == "\r\u{1B}[K")
    }

    @Test func aShortRunOrAPipeGetsNothing() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let clock = TestClock()
        let short = ProgressBar("export", total: 2, output: .descriptor(pty.terminal), clock: { clock.now })
        short.advance()
        clock.advance(milliseconds: 100)
        short.advance()
        short.finish()
        #expect(pty.written().isEmpty)

        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let piped = ProgressBar("export", total: 2, output: .descriptor(ends[1]), clock: { clock.now })
        clock.advance(milliseconds: 1000)
        piped.advance("a file")
        piped.finish()
        close(ends[1])
        var byte: UInt8 = 0
        #expect(read(ends[0], &byte, 1) == 0, "a pipe got the bar")
    }

    @Test func theLineFitsTheTerminalAndKeepsTheItemsEnd() {
        let line = ProgressBar.line(
            label: "extract", done: 3, total: 10, item: "Sources/App/Views/Settings/LanguagePicker.swift", width: 40)
        #expect(line.count == 39, "\(line)")
        #expect(line.hasSuffix("Picker.swift") && line.contains("…"))
        #expect(line.hasPrefix("extract [██░"))
        #expect(ProgressBar.line(label: "import", done: 7, total: 0, item: "", width: 80) == "import [░░░░░░░░░░░░░░░░░░░] 7")
    }
}
