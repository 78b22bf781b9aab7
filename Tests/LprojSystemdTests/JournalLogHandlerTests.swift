import Logging
import LprojSystemd
import Synchronization
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// Records what would have gone to the journal.
final class RecordingJournal: JournalSink {
    private let entries = Mutex<[[JournalField]]>([])
    private let accepts: Bool

    init(accepts: Bool = true) {
        self.accepts = accepts
    }

    func send(_ fields: [JournalField]) -> Bool {
        entries.withLock { $0.append(fields) }
        return accepts
    }

    var recorded: [[JournalField]] { entries.withLock { $0 } }

    /// The last entry's fields by name (each name appears once).
    var last: [String: String] {
        Dictionary((recorded.last ?? []).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

final class LineCollector: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var lines: [String] { storage.withLock { $0 } }
}

@Suite struct JournalLogHandlerTests {
    func logger(_ journal: RecordingJournal, threshold: LogLevelControl = LogLevelControl(.trace)) -> Logger {
        Logger(label: "lprojd.test") { label in JournalLogHandler(label: label, identifier: "lprojd", sink: journal, threshold: threshold) }
    }

    @Test func anEntryCarriesTheMessageItsPriorityAndWhereItWasLogged() {
        let journal = RecordingJournal()
        let logger = logger(journal)
        let line = #line + 1
        logger.warning("reloaded Localizable", metadata: ["bundle.name": "demo", "client.id": "org.example.App"])
        let fields = journal.last
        #expect(fields["MESSAGE"] == "reloaded Localizable")
        #expect(fields["PRIORITY"] == "4")
        #expect(fields["SYSLOG_IDENTIFIER"] == "lprojd")
        #expect(fields["CODE_FILE"]?.hasSuffix("JournalLogHandlerTests.swift") == true)
        #expect(fields["CODE_LINE"] == String(line))
        #expect(fields["CODE_FUNC"] == "anEntryCarriesTheMessageItsPriorityAndWhereItWasLogged()")
        #expect(fields["LPROJD_BUNDLE"] == "demo")
        #expect(fields["LPROJD_CLIENT"] == "org.example.App")
        #expect(fields["LPROJD_LOGGER"] == "lprojd.test")
        // Each field once: journald would keep duplicates as several values.
        #expect(Set(journal.recorded.last!.map(\.name)).count == journal.recorded.last!.count)
    }

    @Test func prioritiesFollowSyslog() {
        let journal = RecordingJournal()
        let logger = logger(journal)
        logger.trace("t")
        logger.debug("d")
        logger.info("i")
        logger.notice("n")
        logger.warning("w")
        logger.error("e")
        logger.critical("c")
        #expect(journal.recorded.map { entry in entry.first { $0.name == "PRIORITY" }!.value } == ["7", "7", "6", "5", "4", "3", "2"])
    }

    @Test func metadataFromTheLoggerTheProviderAndTheCallAreMerged() {
        let journal = RecordingJournal()
        var handler = JournalLogHandler(label: "lprojd", identifier: "lprojd", sink: journal, threshold: LogLevelControl(.info))
        handler.metadataProvider = .init { ["request.id": "17"] }
        var logger = Logger(label: "lprojd") { _ in handler }
        logger[metadataKey: "bundle.name"] = "demo"
        logger.info("call", metadata: ["client.uid": "1000", "bundle.name": "other"])
        let fields = journal.last
        #expect(fields["LPROJD_REQUEST_ID"] == "17")
        #expect(fields["LPROJD_CLIENT_UID"] == "1000")
        // The call's own metadata wins over the logger's.
        #expect(fields["LPROJD_BUNDLE"] == "other")
    }

    @Test func metadataKeysBecomeValidFieldNames() {
        #expect(JournalLogHandler.fieldName(forMetadataKey: "bundle.name") == "LPROJD_BUNDLE")
        #expect(JournalLogHandler.fieldName(forMetadataKey: "generation") == "LPROJD_GENERATION")
        #expect(JournalLogHandler.fieldName(forMetadataKey: "client.pid") == "LPROJD_CLIENT_PID")
        #expect(JournalLogHandler.fieldName(forMetadataKey: "__weird--key__") == "LPROJD_WEIRD_KEY")
        #expect(JournalLogHandler.fieldName(forMetadataKey: "größe") == "LPROJD_GR_E")
        #expect(JournalLogHandler.fieldName(forMetadataKey: "...") == nil)
        let long = JournalLogHandler.fieldName(forMetadataKey: String(repeating: "a", count: 200))!
        #expect(long.count == 64)
    }

    @Test func theThresholdIsDaemonWideAndChangesForExistingLoggers() {
        let journal = RecordingJournal()
        let threshold = LogLevelControl(.info)
        let logger = logger(journal, threshold: threshold)
        logger.debug("hidden")
        #expect(journal.recorded.isEmpty)
        threshold.level = .debug
        logger.debug("shown")
        #expect(journal.last["MESSAGE"] == "shown")
        threshold.level = .error
        logger.warning("hidden again")
        #expect(journal.recorded.count == 1)
        // A level set on one logger stays that logger's own.
        var verbose = logger
        verbose.logLevel = .trace
        verbose.debug("verbose")
        logger.debug("not this one")
        #expect(journal.recorded.map { $0[0].value } == ["shown", "verbose"])
    }

    @Test func plainLinesCarryLevelLabelMessageAndMetadata() {
        let lines = LineCollector()
        let logger = Logger(label: "lprojd") { label in
            PlainLogHandler(label: label, threshold: LogLevelControl(.info), write: lines.append)
        }
        logger.notice("listening on /run/x", metadata: ["bundle.name": "demo", "a": "1"])
        let line = try! #require(lines.lines.first)
        #expect(line.hasSuffix(" notice lprojd: listening on /run/x a=1 bundle.name=demo\n"))
        // 2026-11-22T10:00:00.123Z
        #expect(line.prefix(24).wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
    }

    @Test func aRefusedEntryIsWrittenAsAPlainLineInstead() {
        let journal = RecordingJournal(accepts: false)
        let lines = LineCollector()
        let logger = Logger(label: "lprojd") { label in
            JournalLogHandler(label: label, identifier: "lprojd", sink: journal, threshold: LogLevelControl(.info), fallback: lines.append)
        }
        logger.error("the journal is gone", metadata: ["bundle.name": "demo"])
        #expect(journal.recorded.count == 1)
        #expect(lines.lines.count == 1)
        #expect(lines.lines.first?.hasSuffix(" error lprojd: the journal is gone bundle.name=demo\n") == true)
    }
}

@Suite struct JournalStreamTests {
    @Test func matchesOnlyTheStreamItNames() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        var info = stat()
        #expect(fstat(ends[1], &info) == 0)
        let value = "\(info.st_dev):\(info.st_ino)"
        #expect(JournalStream.matches(value, descriptor: ends[1]))
        // Both ends of a pipe are one inode; another file is not.
        #expect(JournalStream.matches(value, descriptor: ends[0]))
        let other = open("/dev/null", O_WRONLY)
        defer { close(other) }
        #expect(!JournalStream.matches(value, descriptor: other))
        #expect(!JournalStream.matches("\(info.st_dev):\(info.st_ino + 1)", descriptor: ends[1]))
        #expect(!JournalStream.matches("garbage", descriptor: ends[1]))
        #expect(!JournalStream.matches("1:2:3", descriptor: ends[1]))
        #expect(!JournalStream.isStandardErrorConnected(environment: [:]))
    }
}
