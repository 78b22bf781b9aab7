package import Logging

/// A swift-log handler that writes structured entries to the journal.
///
/// Each entry carries `MESSAGE`, `PRIORITY` (syslog's scale), the source
/// location (`CODE_FILE`, `CODE_LINE`, `CODE_FUNC`), `SYSLOG_IDENTIFIER`,
/// and every metadata value as a field of its own, so that
/// `journalctl LPROJD_BUNDLE=demo` finds one bundle's entries. Metadata keys
/// become `LPROJD_` fields: `bundle.name` → `LPROJD_BUNDLE`, `client.id` →
/// `LPROJD_CLIENT`, any other `a.b` → `LPROJD_A_B`. If the journal refuses
/// an entry, the line goes to standard error instead of being lost.
package struct JournalLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let identifier: String
    private let sink: any JournalSink
    private let threshold: LogLevelControl
    private var ownLevel: Logger.Level?
    private let fallback: PlainLogHandler

    /// - Parameters:
    ///   - identifier: `SYSLOG_IDENTIFIER`, the name `journalctl -t` uses.
    ///   - threshold: the daemon-wide level (`--log-level`), changed on reload.
    ///   - fallback: where a line goes when the journal refuses it.
    package init(
        label: String, identifier: String, sink: any JournalSink = SystemJournal(), threshold: LogLevelControl,
        fallback: @escaping @Sendable (String) -> Void = PlainLogHandler.writeToStandardError
    ) {
        self.label = label
        self.identifier = identifier
        self.sink = sink
        self.threshold = threshold
        self.fallback = PlainLogHandler(label: label, threshold: threshold, write: fallback)
    }

    /// The level set on this logger, or else the daemon-wide one.
    package var logLevel: Logger.Level {
        get { ownLevel ?? threshold.level }
        set { ownLevel = newValue }
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let fields = fields(for: event)
        if !sink.send(fields) {
            var fallback = self.fallback
            fallback.metadata = metadata
            fallback.metadataProvider = metadataProvider
            fallback.log(event: event)
        }
    }

    /// The journal fields of one entry.
    package func fields(for event: LogEvent) -> [JournalField] {
        var fields = [
            JournalField("MESSAGE", event.message.description),
            JournalField("PRIORITY", String(Self.priority(event.level))),
            JournalField("SYSLOG_IDENTIFIER", identifier),
            JournalField("CODE_FILE", event.file),
            JournalField("CODE_LINE", String(event.line)),
            JournalField("CODE_FUNC", event.function),
            JournalField("LPROJD_LOGGER", label),
        ]
        if let error = event.error {
            fields.append(JournalField("LPROJD_ERROR", "\(error)"))
        }
        let merged = Self.merge(metadata, metadataProvider?.get(), event.metadata)
        for key in merged.keys.sorted() {
            guard let name = Self.fieldName(forMetadataKey: key) else { continue }
            fields.append(JournalField(name, merged[key]!.description))
        }
        return fields
    }

    /// syslog's priorities, which journald and `journalctl -p` use.
    package static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// The journal field for a metadata key, or nil when nothing of the key
    /// is usable. Journal field names are upper-case letters, digits and
    /// `_`, at most 64 bytes, not starting with `_` (reserved for journald's
    /// trusted fields) or a digit.
    package static func fieldName(forMetadataKey key: String) -> String? {
        switch key {
        case "bundle.name": return "LPROJD_BUNDLE"
        case "client.id": return "LPROJD_CLIENT"
        default: break
        }
        var name = "LPROJD_"
        var lastWasSeparator = true
        for scalar in key.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9":
                name.unicodeScalars.append(contentsOf: String(scalar).uppercased().unicodeScalars)
                lastWasSeparator = false
            default:
                if !lastWasSeparator { name.append("_") }
                lastWasSeparator = true
            }
        }
        while name.hasSuffix("_") { name.removeLast() }
        guard name.count > "LPROJD_".count else { return nil }
        return String(name.prefix(64))
    }

    static func merge(_ layers: Logger.Metadata?...) -> Logger.Metadata {
        var merged: Logger.Metadata = [:]
        for layer in layers {
            guard let layer else { continue }
            merged.merge(layer) { _, new in new }
        }
        return merged
    }
}
