public import Foundation
public import LprojTables

/// What a `.strings` file means, compared byte for byte: keys and string
/// values as UTF-8, so that canonically equivalent but different strings
/// ("é" and "e\u{301}") count as different, as they do in Core Foundation.
/// (The tests and the `.strings` fuzzer share it: Tests/LprojTablesOracle.)
public enum TableMeaning: Equatable, CustomStringConvertible {
    case table(strings: [[UInt8]: [UInt8]], others: [[UInt8]: PropertyListValue])
    case failure(String)

    public var isFailure: Bool { if case .failure = self { return true } else { return false } }

    public var description: String {
        switch self {
        case .failure(let message): return "failure(\(message))"
        case .table(let strings, let others):
            let shown = strings.prefix(5).map {
                "\(String(decoding: $0.key, as: UTF8.self).debugDescription)=\(String(decoding: $0.value, as: UTF8.self).debugDescription)"
            }
            return
                "table(\(strings.count) strings: \(shown.joined(separator: ", "))\(strings.count > 5 ? ", ..." : ""); \(others.count) others)"
        }
    }

    public static func == (lhs: TableMeaning, rhs: TableMeaning) -> Bool {
        switch (lhs, rhs) {
        case (.failure, .failure): return true
        case let (.table(a, b), .table(c, d)):
            if a == c && b == d { return true }
            return canonicallyCompatible(combined(a, b), combined(c, d))
        default: return false
        }
    }

    /// Foundation on Linux returns a Swift `Dictionary<AnyHashable, Any>`, so
    /// keys that are canonically equivalent ("é" and "e\u{301}") merge while
    /// bridging, with an arbitrary winner. Core Foundation's own dictionary,
    /// like Apple's NSDictionary, keeps both, and so does lprojd. This accepts
    /// exactly that difference: `ours` keeps distinct keys that `merged`
    /// holds once, with one of their values.
    enum Entry: Equatable {
        case string([UInt8])
        case other(PropertyListValue)
    }

    static func combined(_ strings: [[UInt8]: [UInt8]], _ others: [[UInt8]: PropertyListValue]) -> [[UInt8]: Entry] {
        var result = strings.mapValues(Entry.string)
        for (key, value) in others { result[key] = .other(value) }
        return result
    }

    static func canonicallyCompatible(_ ours: [[UInt8]: Entry], _ reference: [[UInt8]: Entry]) -> Bool {
        func grouped(_ entries: [[UInt8]: Entry]) -> [String: [([UInt8], Entry)]] {
            var groups: [String: [([UInt8], Entry)]] = [:]
            for (key, entry) in entries { groups[String(decoding: key, as: UTF8.self), default: []].append((key, entry)) }
            return groups
        }
        let left = grouped(ours), right = grouped(reference)
        guard Set(left.keys) == Set(right.keys) else { return false }
        for (key, members) in left {
            let others = right[key]!
            let twins = members.count > 1 || others.count > 1 || members[0].0 != others[0].0
            if !twins {
                guard members[0].1 == others[0].1 else { return false }
                continue
            }
            // Twins were merged somewhere: some surviving value must agree.
            guard others.contains(where: { other in members.contains { $0.1 == other.1 } }) else { return false }
        }
        return true
    }
}

public enum FoundationReference {
    /// What `PropertyListSerialization` makes of the bytes, as a strings table.
    public static func meaning(of bytes: [UInt8]) -> TableMeaning {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            return .failure("\(error)")
        }
        // Enumerate as NSDictionary so that keys are not merged by Swift's
        // canonical-equivalence String comparison.
        guard let dictionary = object as? NSDictionary else { return .failure("not a dictionary: \(type(of: object))") }
        var strings: [[UInt8]: [UInt8]] = [:]
        var others: [[UInt8]: PropertyListValue] = [:]
        for (key, value) in dictionary {
            let keyBytes = Array((key as! String).utf8)
            if let string = value as? String {
                strings[keyBytes] = Array(string.utf8)
            } else {
                others[keyBytes] = PropertyListValue(foundation: value)
            }
        }
        return .table(strings: strings, others: others)
    }

    /// What lprojd's parser makes of the bytes.
    public static func ours(_ bytes: [UInt8]) -> TableMeaning {
        do {
            let file = try StringsParser().parse(bytes)
            var strings: [[UInt8]: [UInt8]] = [:]
            for index in 0..<file.table.count {
                strings[file.table.withKeyUTF8(at: index) { Array($0) }] = file.table.withValueUTF8(at: index) { Array($0) }
            }
            var others: [[UInt8]: PropertyListValue] = [:]
            for (key, value) in file.otherValues { others[Array(key.utf8)] = value }
            return .table(strings: strings, others: others)
        } catch {
            return .failure("\(error)")
        }
    }

    /// Whether Foundation is known to differ on these bytes by design:
    /// Apple loads an empty file (or a lone byte order mark) as an empty
    /// table, which Foundation's parser alone rejects.
    public static func isDocumentedDeviation(_ bytes: [UInt8]) -> Bool {
        bytes.isEmpty || bytes == [0xEF, 0xBB, 0xBF] || bytes == [0xFF, 0xFE] || bytes == [0xFE, 0xFF]
    }

    /// Whether lprojd refused what Foundation accepts because it nests
    /// deeper than lprojd allows (128 levels, against Foundation's 512): the
    /// third documented deviation.
    public static func isNestingDeviation(ours: TableMeaning, reference: TableMeaning) -> Bool {
        guard case .failure(let message) = ours, !reference.isFailure else { return false }
        return message.contains("nested more than")
    }
}

/// The shared corpus of real tables, beside the checkout at `../shared/corpus`.
public enum Corpus {
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }()

    public static func files(withExtension pathExtension: String) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == pathExtension }.sorted { $0.path < $1.path }
    }
}

/// Files the tests keep in this repository, under `Tests/Fixtures`.
public enum Fixtures {
    public static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
}
