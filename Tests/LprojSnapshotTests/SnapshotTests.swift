import Foundation
import LprojEngine
import LprojFiles
import LprojFormatStrings
import LprojLocales
import Testing

@testable import LprojSnapshot

/// Snapshots say exactly what lprojd's lookups say, in every locale of the
/// demo and of the shared corpus's real bundles; and a snapshot that is
/// truncated, corrupted or hostile is refused or answers nothing, never
/// reading outside its bytes.
@Suite struct SnapshotTests {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { url.deleteLastPathComponent() }
        return url
    }()

    /// Every folder holding `.lproj` folders or a String Catalog: the demo,
    /// and each bundle of the shared corpus.
    static var bundleDirectories: [URL] {
        var found = [root.appendingPathComponent("Examples/DemoApp")]
        let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        let enumerator = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil)
        var seen = Set<String>()
        while let url = enumerator?.nextObject() as? URL {
            let parent = url.deletingLastPathComponent()
            guard url.pathExtension == "lproj" || url.pathExtension == "xcstrings", seen.insert(parent.path).inserted else { continue }
            found.append(parent)
        }
        return found
    }

    static func load(_ directory: URL) throws -> LoadedBundle {
        let name = directory.lastPathComponent.filter { $0.isLetter || $0.isNumber }
        return BundleLoader().load(
            BundleConfiguration(name: name.isEmpty ? "b" : name, directory: directory.path, developmentLocale: try LocaleIdentifier("en")))
    }

    @Test func everyValueIsTheLookupsInEveryLocale() throws {
        var checked = 0, plurals = 0
        let directories = Self.bundleDirectories
        #expect(directories.count > 5, "the shared corpus is missing: \(directories)")
        for directory in directories {
            let bundle = try Self.load(directory)
            for locale in bundle.supportedLocales {
                let resolved = try bundle.resolve(locale: locale)
                let content = SnapshotContent(bundle: bundle, locale: resolved, generation: 7)
                let snapshot = try Snapshot(bytes: try SnapshotWriter.bytes(of: content))
                #expect(snapshot.locale == locale.tag && snapshot.bundle == bundle.name && snapshot.generation == 7)
                for table in bundle.tableNames {
                    let expected = bundle.resolvedTable(table, locale: resolved).entries
                    #expect(content.tables[table]?.count == expected.count)
                    for (key, entry) in expected {
                        let found = bundle.lookup(key, table: table, locale: resolved)
                        let mapped = snapshot.lookup(key, table: table)
                        #expect(
                            snapshot.value(key, table: table) == found.value, "\(directory.lastPathComponent) \(locale) \(table) \(key)")
                        #expect(mapped?.source == entry.source)
                        if let plural = found.plural {
                            #expect(try mapped?.plural?.pluralFormat() == plural, "\(key)")
                            plurals += 1
                        } else {
                            #expect(mapped?.plural == nil)
                        }
                        checked += 1
                    }
                }
                #expect(snapshot.lookup("no such key \(checked)", table: "Localizable") == nil)
            }
        }
        #expect(checked > 10_000 && plurals > 20, "\(checked) values, \(plurals) plural entries")
    }

    static func sample() -> SnapshotContent {
        let plural = SnapshotContent.Plural(
            formatKey: "%#@files@", locale: "ru",
            variables: [
                "files": .init(valueType: "d", forms: ["one": "%d файл", "few": "%d файла", "many": "%d файлов", "other": "%d файла"])
            ])
        return SnapshotContent(
            bundle: "demo", locale: "ru", developmentLocale: "en", pluralRulesLocale: "ru", generation: 3,
            tables: [
                "Localizable": [
                    "welcome.title": .init(value: "Добро пожаловать", source: "ru"),
                    "files.selected": .init(value: "%#@files@", source: "ru", plural: plural, signature: "n"),
                    "greeting": .init(value: "Hello, %@ (%d)", source: "en", signature: "@i"),
                    "": .init(value: "empty key", source: "en"),
                ],
                "Menu": ["file": .init(value: "Файл", source: "ru")],
            ])
    }

    @Test func whatIsWrittenIsReadBackTheSameAndAlwaysTheSameBytes() throws {
        let content = Self.sample()
        let bytes = try SnapshotWriter.bytes(of: content)
        #expect(try SnapshotWriter.bytes(of: content) == bytes, "reproducible")
        let snapshot = try Snapshot(bytes: bytes)
        try snapshot.verify()
        #expect(try snapshot.content() == content)
        #expect(snapshot.value("file", table: "Menu") == "Файл")
        #expect(snapshot.value("file", table: "Localizable") == nil)
        #expect(snapshot.value("", table: "Localizable") == "empty key")
        #expect(snapshot.lookup("greeting")?.signature == "@i")
        #expect(snapshot.pluralRulesLocale == "ru" && snapshot.developmentLocale == "en")
    }

    @Test func aTruncatedOrCorruptedSnapshotIsRefusedOrAnswersNothingItGarbles() throws {
        let bytes = try SnapshotWriter.bytes(of: Self.sample())
        // Every truncation is refused at opening.
        for length in 0..<bytes.count {
            #expect(throws: SnapshotError.self) { try Snapshot(bytes: Array(bytes[0..<length])) }
        }
        // Every byte flipped: refused at opening, or found by verify (the
        // checksum), and no lookup reads outside the bytes (the address
        // sanitizer and the fuzzer check that part).
        for position in 0..<bytes.count {
            var corrupted = bytes
            corrupted[position] ^= 0x5A
            guard let snapshot = try? Snapshot(bytes: corrupted) else { continue }
            for key in ["welcome.title", "files.selected", "greeting", "", "missing"] { _ = snapshot.lookup(key) }
            _ = snapshot.lookup("file", table: "Menu")
            #expect(throws: SnapshotError.self, "byte \(position) flipped went unnoticed") { try snapshot.verify() }
        }
    }

    @Test func anIndexWithNoEmptyBucketEndsItsSearch() throws {
        var bytes = try SnapshotWriter.bytes(of: Self.sample())
        let snapshot = try Snapshot(bytes: bytes)
        // Every bucket names entry 1: a lookup of a missing key probes each once and stops.
        let buckets = Int(bytes[SnapshotLayout.bucketCount]) | Int(bytes[SnapshotLayout.bucketCount + 1]) << 8
        let index = Int(bytes[SnapshotLayout.indexOffset]) | Int(bytes[SnapshotLayout.indexOffset + 1]) << 8
        for bucket in 0..<buckets { bytes[index + 4 * bucket] = 1 }
        let hostile = try Snapshot(bytes: bytes)
        #expect(hostile.lookup("missing") == nil)
        #expect(throws: SnapshotError.self) { try hostile.verify() }
        #expect(snapshot.lookup("missing") == nil)
    }

    @Test func aFileIsMappedWhenOnlyItsOwnerCanWriteItAndReadOtherwise() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ru.lprojsnap").path
        try Data(try SnapshotWriter.bytes(of: Self.sample())).write(to: URL(fileURLWithPath: path))
        for mode in [0o644, 0o666] as [mode_t] {
            chmod(path, mode)
            let snapshot = try Snapshot.open(path: path)
            #expect(snapshot.value("welcome.title") == "Добро пожаловать")
        }
        #expect(throws: SnapshotError.self) { try Snapshot.open(path: directory.path) }
        #expect(throws: SnapshotError.self) { try Snapshot.open(path: path, maximumSize: 100) }
        #expect(throws: SnapshotError.self) { try Snapshot.open(path: directory.appendingPathComponent("missing").path) }
    }
}
