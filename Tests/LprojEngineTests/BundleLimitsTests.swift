import LprojLocales
import Synchronization
import Testing

@testable import LprojEngine

/// What one bundle may make lprojd read and hold: a bundle over a limit is
/// refused before its files are read, keeps its last good version, and
/// says which limit it went over.
struct BundleLimitsTests {
    /// A tree that counts what is read from it.
    final class CountingTree: FileTree {
        let tree: Mutex<InMemoryFileTree>
        let bytesRead = Atomic<Int>(0)

        init(_ texts: [String: String]) { tree = Mutex(InMemoryFileTree(texts: texts)) }

        func set(_ path: String, _ text: String?) { tree.withLock { $0.files[path] = text.map { Array($0.utf8) } } }

        func entry(at path: String) -> FileTreeEntry? { tree.withLock { $0.entry(at: path) } }
        func names(in directory: String, limit: Int) throws(FileTreeError) -> [String] {
            let tree = tree.withLock { $0 }
            return try tree.names(in: directory, limit: limit)
        }
        func read(_ path: String, maximumSize: Int, within root: String?) throws(FileTreeError) -> [UInt8] {
            let tree = tree.withLock { $0 }
            let bytes = try tree.read(path, maximumSize: maximumSize, within: root)
            bytesRead.add(bytes.count, ordering: .relaxed)
            return bytes
        }
    }

    static func configuration(_ adjust: (inout BundleLimits) -> Void) throws -> BundleConfiguration {
        var configuration = BundleConfiguration(name: "app", directory: "app", developmentLocale: try LocaleIdentifier("en"))
        adjust(&configuration.limits)
        return configuration
    }

    static func table(_ keys: Int, prefix: String = "k") -> String {
        (0..<keys).map { "\"\(prefix)\($0)\" = \"value \($0)\";\n" }.joined()
    }

    /// One 1 KB table linked into many locale folders, as an attacker
    /// with write access to the folder would: refused from the listing.
    @Test func aBundleOverItsBytesIsRefusedBeforeAnythingIsRead() throws {
        let table = Self.table(40)
        var texts: [String: String] = [:]
        for locale in ["de", "fr", "es", "it", "ja", "ko", "nl", "pt", "ru", "sv"] { texts["app/\(locale).lproj/Big.strings"] = table }
        let files = CountingTree(texts)
        let limit = table.utf8.count * 4
        let bundle = BundleLoader(files: files).load(try Self.configuration { $0.bytes = limit })
        #expect(files.bytesRead.load(ordering: .relaxed) == 0)
        #expect(bundle.localizations.isEmpty)
        let problem = try #require(bundle.problems.first { $0.code == "bundle-limit" })
        #expect(
            problem.message
                == "the bundle is not read: its table files hold \(table.utf8.count * 10) bytes, over its limit of \(limit) (max-bundle-bytes); it serves nothing"
        )
    }

    @Test func eachLimitIsCountedAndNamed() throws {
        var texts: [String: String] = [:]
        for locale in ["de", "fr", "es"] {
            for table in 0..<3 { texts["app/\(locale).lproj/T\(table).strings"] = Self.table(10) }
        }
        let files = InMemoryFileTree(texts: texts)
        func limit(_ adjust: (inout BundleLimits) -> Void) throws -> BundleLimitExceeded? {
            BundleLoader(files: files).loadWithinLimits(try Self.configuration(adjust)).exceeded
        }
        #expect(try limit { _ in } == nil)
        #expect(try limit { $0.tables = 8 } == BundleLimitExceeded(.tables, maximum: 8, found: 9))
        #expect(try limit { $0.locales = 2 } == BundleLimitExceeded(.locales, maximum: 2, found: 3))
        #expect(try limit { $0.entries = 89 } == BundleLimitExceeded(.entries, maximum: 89, found: 90))
        // A folder holding more names than lprojd lists.
        #expect(
            try limit {
                $0.tables = 1
                $0.locales = 1
            }?.limit == .locales)
        var crowded = texts
        for index in 0..<200 { crowded["app/de.lproj/junk\(index).txt"] = "x" }
        let crowdedLimit = BundleLoader(files: InMemoryFileTree(texts: crowded)).loadWithinLimits(
            try Self.configuration {
                $0.tables = 20
                $0.locales = 10
            })
        #expect(crowdedLimit.exceeded == BundleLimitExceeded(.directoryEntries, maximum: 20 + 10 + 64))
    }

    /// A bundle that grows past its limit keeps its last good version, and
    /// reloads again once back within.
    @Test func aBundleThatGrowsPastItsLimitKeepsItsLastGoodVersion() throws {
        let files = CountingTree(["app/de.lproj/Localizable.strings": "\"hello\" = \"Hallo\";\n"])
        let configuration = try Self.configuration { $0.bytes = 4096 }
        let first = BundleLoader(files: files).load(configuration)
        #expect(first.fileSizes == ["de.lproj/Localizable.strings": 19])
        // One file grows past the limit: refused, nothing of it read.
        files.set("app/de.lproj/Localizable.strings", "\"hello\" = \"Servus\";\n" + Self.table(200))
        let before = files.bytesRead.load(ordering: .relaxed)
        var changes = BundleChanges()
        changes.file("Localizable.strings", in: "de.lproj")
        let (refused, summary) = BundleLoader(files: files).update(first, with: changes)
        #expect(summary.limitExceeded?.limit == .bytes)
        #expect(files.bytesRead.load(ordering: .relaxed) == before)
        #expect(refused.lookup("hello", locale: try refused.resolve(locale: "de")).value == "Hallo")
        #expect(refused.problems.map(\.code) == ["bundle-limit"])
        #expect(refused.problems[0].message.hasSuffix("it keeps its last good version"))
        // A new folder that would take it past the limit: refused too.
        files.set("app/de.lproj/Localizable.strings", "\"hello\" = \"Servus\";\n")
        files.set("app/fr.lproj/Big.strings", Self.table(200))
        var both = BundleChanges()
        both.file("Localizable.strings", in: "de.lproj")
        both.folder("fr.lproj")
        let (stillRefused, again) = BundleLoader(files: files).update(refused, with: both)
        #expect(again.limitExceeded?.limit == .bytes)
        #expect(stillRefused.localizations.map(\.folderName) == ["de.lproj"])
        // Back within: read, and the problem is gone.
        files.set("app/fr.lproj/Big.strings", nil)
        let (fixed, repair) = BundleLoader(files: files).update(stillRefused, with: both)
        #expect(repair.limitExceeded == nil)
        #expect(fixed.problems.isEmpty)
        #expect(fixed.lookup("hello", locale: try fixed.resolve(locale: "de")).value == "Servus")
        #expect(fixed.fileSizes == ["de.lproj/Localizable.strings": 20])
    }

    /// What a bundle holds is counted file by file as it changes: a
    /// deleted table and a removed folder give their bytes back.
    @Test func sizesFollowTheFiles() throws {
        let files = CountingTree([
            "app/de.lproj/A.strings": "\"a\" = \"1\";\n", "app/de.lproj/B.strings": "\"b\" = \"22\";\n",
            "app/fr.lproj/A.strings": "\"a\" = \"333\";\n",
        ])
        let configuration = try Self.configuration { _ in }
        let first = BundleLoader(files: files).load(configuration)
        #expect(first.byteCount == 11 + 12 + 13)
        files.set("app/de.lproj/B.strings", nil)
        var changes = BundleChanges()
        changes.file("B.strings", in: "de.lproj")
        let (second, _) = BundleLoader(files: files).update(first, with: changes)
        #expect(second.fileSizes == ["de.lproj/A.strings": 11, "fr.lproj/A.strings": 13])
        files.set("app/fr.lproj/A.strings", nil)
        var gone = BundleChanges()
        gone.folder("fr.lproj")
        let (third, _) = BundleLoader(files: files).update(second, with: gone)
        #expect(third.fileSizes == ["de.lproj/A.strings": 11])
    }
}
