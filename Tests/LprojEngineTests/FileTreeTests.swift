import LprojLocales
import Testing
@testable import LprojEngine

/// The engine reads only what its `FileTree` gives it: a bundle held in
/// memory loads, reloads and reports as one on disk does.
struct FileTreeTests {
    static func configuration(maximumFileSize: Int = 1 << 20) throws -> BundleConfiguration {
        BundleConfiguration(
            name: "memory", directory: "app", developmentLocale: try LocaleIdentifier("en"), maximumFileSize: maximumFileSize)
    }

    @Test func aBundleInMemoryLoadsWithoutTheDisk() throws {
        let files = InMemoryFileTree(texts: [
            "app/en.lproj/Localizable.strings": "\"hello\" = \"Hello\";\n",
            "app/de.lproj/Localizable.strings": "\"hello\" = \"Hallo\";\n",
            "app/de.lproj/notes.txt": "not a table",
            "app/README.lproj.txt": "not a folder",
            "app/fr.lproj": "a file named like a folder",
        ])
        let bundle = BundleLoader(files: files).load(try Self.configuration())
        #expect(bundle.localizations.map(\.folderName).sorted() == ["de.lproj", "en.lproj"])
        #expect(bundle.lookup("hello", locale: try bundle.resolve(locale: "de")).value == "Hallo")
        #expect(bundle.problems.isEmpty && bundle.fileReports.isEmpty)
    }

    @Test func aChangedFileIsReadAgainAndAFailedOneKeepsItsLastGoodTable() throws {
        var files = InMemoryFileTree(texts: ["app/de.lproj/Localizable.strings": "\"hello\" = \"Hallo\";\n"])
        let first = BundleLoader(files: files).load(try Self.configuration())
        var changes = BundleChanges()
        changes.file("Localizable.strings", in: "de.lproj")
        files.files["app/de.lproj/Localizable.strings"] = Array("\"hello\" = \"kaputt\n".utf8)
        let (broken, failure) = BundleLoader(files: files).update(first, with: changes)
        #expect(failure.reports.map(\.path) == ["de.lproj/Localizable.strings"] && failure.reports[0].failed)
        #expect(broken.lookup("hello", locale: try broken.resolve(locale: "de")).value == "Hallo")
        files.files["app/de.lproj/Localizable.strings"] = Array("\"hello\" = \"Servus\";\n".utf8)
        let (fixed, repair) = BundleLoader(files: files).update(broken, with: changes)
        #expect(repair.tables == ["Localizable"] && repair.locales == ["de"])
        #expect(fixed.lookup("hello", locale: try fixed.resolve(locale: "de")).value == "Servus")
    }

    @Test func aFileOverTheLimitIsReportedNotRead() throws {
        let files = InMemoryFileTree(texts: ["app/en.lproj/Big.strings": String(repeating: "\"k\" = \"v\";\n", count: 100)])
        let bundle = BundleLoader(files: files).load(try Self.configuration(maximumFileSize: 64))
        let report = try #require(bundle.fileReports.first)
        #expect(report.failed && report.diagnostics.first?.code == "too-large")
        #expect(report.diagnostics.first?.message == "the file has 1100 bytes, more than the limit of 64")
    }

    @Test func aMissingBundleIsAProblemNotACrash() throws {
        let bundle = BundleLoader(files: InMemoryFileTree()).load(try Self.configuration())
        #expect(bundle.problems.map(\.code) == ["bundle-missing"])
    }

    @Test func pathsJoinAndSplitAsWritten() {
        #expect(TreePath.join("a/", "b", "c") == "a/b/c")
        #expect(TreePath.join("", "b") == "b")
        #expect(TreePath.lastComponent("a/fr.lproj/") == "fr.lproj")
        #expect(TreePath.parent("/a/fr.lproj/x.strings") == "/a/fr.lproj")
        #expect(TreePath.parent("x.strings") == ".")
        #expect(TreePath.parent("/x") == "/")
    }
}
