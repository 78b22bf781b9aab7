import Foundation
import LprojEngine
import Testing
@testable import LprojConfiguration

/// One drop-in file: what it says, and each mistake at its line and column.
@Suite struct DropInFileTests {
    static let path = "/usr/share/lprojd/bundles.d/org.example.Editor.conf"

    static func parse(_ text: String, path: String = path) throws(ConfigurationError) -> DropInFile.Content {
        try DropInFile.parse(text, path: path, limits: BundleLimits(fileSize: 1234))
    }

    @Test func theFilesNameIsTheBundlesAndARelativeDirectoryIsRelativeToTheFile() throws {
        let content = try Self.parse("directory: ../../org.example.Editor/Resources\ndevelopment-locale: de\npseudo-locales: true\n")
        guard case .bundle(let bundle) = content else {
            Issue.record("not a bundle: \(content)")
            return
        }
        #expect(bundle.name == "org.example.Editor")
        #expect(bundle.directory == "/usr/share/org.example.Editor/Resources")
        #expect(bundle.developmentLocale.tag == "de" && bundle.pseudoLocales && bundle.maximumFileSize == 1234)
        guard case .bundle(let absolute) = try Self.parse("name: org.example.Editor\ndirectory: /opt/editor/Resources\n") else {
            Issue.record("not a bundle")
            return
        }
        #expect(absolute.directory == "/opt/editor/Resources")
    }

    @Test func aDropInSaysWhatAnEntryOfLprojdConfSays() throws {
        let entry = "directory: /opt/e\ndevelopment-locale: fr\ncustom-locales: {x-pirate: en}\ncatalog-conflicts: lproj\n"
        let indented = entry.split(separator: "\n").map { "    \($0)" }.joined(separator: "\n")
        let file = try ConfigurationFile.parse("bundles:\n  - name: org.example.Editor\n\(indented)\n", name: "x", baseDirectory: "/")
        #expect(try DropInFile.parse(entry, path: Self.path, limits: BundleLimits()) == .bundle(file.bundles[0]))
    }

    @Test func anEmptyFileMasksItsBundle() throws {
        #expect(try Self.parse("") == .masked)
        #expect(try Self.parse("# masked by the administrator\n") == .masked)
    }

    @Test(arguments: [
        // (text, line, column, what the message says)
        ("directory: /x\nname: org.example.Other\n", 2, 7, "'org.example.Other' is not the file's name"),
        ("directory: /x\ndirectry: /y\n", 2, 1, "directry: unknown setting 'directry'"),
        ("development-locale: de\n", 1, 1, "'directory' is missing"),
        ("directory: /x\ndevelopment-locale: '../x'\n", 2, 21, "development-locale:"),
        ("directory: /x\ncustom-locales:\n  tlh: xx-nonsense\n", 3, 8, "custom-locales.tlh:"),
        ("directory: /x\npseudo-locales: maybe\n", 2, 17, "pseudo-locales:"),
        ("directory: /x\ncatalog-conflicts: both\n", 2, 20, "'both' is not one of catalog, lproj"),
        ("directory: [/x\n", 2, 1, "did not find expected ',' or ']'"),
        ("- directory: /x\n", 1, 1, "not a list"),
        ("directory: /x\ndirectory: /y\n", 1, 1, "'directory' given twice"),
    ])
    func mistakesSayFileLineAndColumn(_ text: String, _ line: Int, _ column: Int, _ expected: String) {
        do {
            let content = try Self.parse(text)
            Issue.record("accepted: \(text) as \(content)")
        } catch {
            #expect(error.file == Self.path)
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.description.hasPrefix("\(Self.path):\(line):\(column): "), "\(error)")
            #expect(error.message.contains(expected), "\(error)")
        }
    }

    @Test func aFileNameThatIsNoBundleNameIsAnError() {
        #expect(throws: ConfigurationError.self) { try Self.parse("directory: /x\n", path: "/d/my editor.conf") }
    }

    @Test func onlyConfFilesThatAreNotHiddenAreDropIns() {
        #expect(DropInFile.bundleName(ofFile: "org.example.Editor.conf") == "org.example.Editor")
        for name in [
            "org.example.Editor.conf.dpkg-new", "org.example.Editor.conf~", ".org.example.Editor.conf.swp", ".hidden.conf", ".conf", "x",
        ] {
            #expect(DropInFile.bundleName(ofFile: name) == nil, "\(name)")
        }
    }

    @Test func lprojdConfsMistakesSayTheirLineAndColumnToo() {
        do {
            _ = try ConfigurationFile.parse(
                "bundles:\n  - name: demo\n    directry: Examples/DemoApp\n", name: "typo.conf", baseDirectory: "/")
            Issue.record("accepted")
        } catch {
            #expect(error.description == "typo.conf:3:5: bundles[0].directry: unknown setting 'directry'")
        }
        do {
            _ = try ConfigurationFile.parse("limits:\n  max-connections: -1\n", name: "x", baseDirectory: "/")
            Issue.record("accepted")
        } catch {
            #expect(error.description == "x:2:20: limits.max-connections: must be a positive number")
        }
    }
}
