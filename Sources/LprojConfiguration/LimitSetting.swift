internal import ClientBudget
internal import Foundation

/// The settings of the configuration's `limits:` section, each with the
/// limit it sets. Their names are the README's and `lprojd.conf`'s.
enum LimitSetting: String, CaseIterable {
    case maxMessageSize = "max-message-size"
    case maxReplySize = "max-reply-size"
    case maxConnections = "max-connections"
    case maxConnectionsPerUID = "max-connections-per-uid"
    case maxSubscriptionsPerUID = "max-subscriptions-per-uid"
    case maxSubscriberQueue = "max-subscriber-queue"
    case maxTableFileSize = "max-table-file-size"
    case maxBundleBytes = "max-bundle-bytes"
    case maxBundleTables = "max-bundle-tables"
    case maxBundleLocales = "max-bundle-locales"
    case maxBundleEntries = "max-bundle-entries"
    case maxAddedStrings = "max-added-strings"
    case maxAddedStringLength = "max-added-string-length"
    case maxKeyLength = "max-key-length"
    case maxValueLength = "max-value-length"
    case incompleteMessageTimeout = "incomplete-message-timeout"
    case maxMemoryPerUID = "max-memory-per-uid"
    case maxMemory = "max-memory"
    case maxInputPerUID = "max-input-bytes-per-uid"
    case maxInput = "max-input-bytes"
    case maxOutputPerUID = "max-output-bytes-per-uid"
    case maxOutput = "max-output-bytes"
    case maxAddedStringBytesPerUID = "max-added-string-bytes-per-uid"
    case maxAddedStringBytes = "max-added-string-bytes"
    case maxSavedStatePerUID = "max-saved-state-bytes-per-uid"
    case maxSavedState = "max-saved-state-bytes"
    case maxCachePerUID = "max-cache-bytes-per-uid"
    case maxCache = "max-cache-bytes"
    case maxChangesPerSecondPerUID = "max-changes-per-second-per-uid"

    func apply(_ value: Int, to limits: inout DaemonConfiguration.Limits) {
        switch self {
        case .maxMessageSize: limits.service.server.maximumMessageSize = value
        case .maxReplySize: limits.service.server.maximumReplySize = value
        case .maxConnections: limits.service.server.maximumConnections = value
        case .maxConnectionsPerUID: limits.service.server.maximumConnectionsPerUID = value
        case .maxSubscriptionsPerUID: limits.service.server.maximumStreamsPerUID = value
        case .maxSubscriberQueue: limits.service.server.maximumStreamQueueBytes = value
        case .maxTableFileSize: limits.bundle.fileSize = value
        case .maxBundleBytes: limits.bundle.bytes = value
        case .maxBundleTables: limits.bundle.tables = value
        case .maxBundleLocales: limits.bundle.locales = value
        case .maxBundleEntries: limits.bundle.entries = value
        case .maxAddedStrings: limits.service.addedStrings.maximumStrings = value
        case .maxAddedStringLength: limits.service.addedStrings.maximumLength = value
        case .maxKeyLength: limits.service.requests.maximumKeyLength = value
        case .maxValueLength: limits.service.requests.maximumValueLength = value
        case .incompleteMessageTimeout: limits.service.server.incompleteMessageTimeout = .seconds(value)
        case .maxMemoryPerUID: limits.budget.memoryPerUID = value
        case .maxMemory: limits.budget.memory = value
        case .maxInputPerUID: limits.budget.perUID[.input] = value
        case .maxInput: limits.budget.total[.input] = value
        case .maxOutputPerUID: limits.budget.perUID[.output] = value
        case .maxOutput: limits.budget.total[.output] = value
        case .maxAddedStringBytesPerUID: limits.budget.perUID[.addedStrings] = value
        case .maxAddedStringBytes: limits.budget.total[.addedStrings] = value
        case .maxSavedStatePerUID: limits.budget.perUID[.savedState] = value
        case .maxSavedState: limits.budget.total[.savedState] = value
        case .maxCachePerUID: limits.budget.perUID[.caches] = value
        case .maxCache: limits.budget.total[.caches] = value
        case .maxChangesPerSecondPerUID: limits.service.requests.changesPerSecondPerUID = value
        }
    }
}

/// A limit as written: a number, or bytes with a unit ("16 MiB", "64KiB").
struct ByteCount: Decodable, Sendable {
    let text: String
    let bytes: Int?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            text = String(number)
            bytes = number
            return
        }
        text = try container.decode(String.self)
        bytes = Self.parse(text)
    }

    /// "16 MiB" → 16777216; "512" → 512; units KiB, MiB, GiB (and k, M, G
    /// as the same binary multiples).
    static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isNumber }
        guard let number = Int(digits) else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let multiplier: Int
        switch unit {
        case "", "B": multiplier = 1
        case "KiB", "K", "k", "KB", "kB": multiplier = 1 << 10
        case "MiB", "M", "MB": multiplier = 1 << 20
        case "GiB", "G", "GB": multiplier = 1 << 30
        default: return nil
        }
        let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : product
    }
}
