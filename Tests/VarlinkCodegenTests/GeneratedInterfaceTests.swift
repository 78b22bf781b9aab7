import Foundation
import Testing
import VarlinkCodegen
import VarlinkProtocol

/// The committed clients of `org.lprojd.Localization` (the Swift types, the
/// C library's types and calls, the Python package's tables) are what the
/// generators make of the committed definition: editing one without the
/// other fails here (`make generate` writes them all again).
@Suite struct GeneratedInterfaceTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sourceName = "org.lprojd.Localization.varlink"

    static func definition() throws -> VarlinkIDL {
        try VarlinkIDL(
            parsing: String(contentsOf: repository.appendingPathComponent("Sources/LprojInterface/\(sourceName)"), encoding: .utf8))
    }

    /// Records where `committed` first differs from `fresh`.
    static func expectCurrent(_ fresh: String, committedAt path: String) throws {
        let committed = try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
        guard fresh != committed else { return }
        let first = zip(
            fresh.split(separator: "\n", omittingEmptySubsequences: false),
            committed.split(separator: "\n", omittingEmptySubsequences: false)
        )
        .enumerated().first { $0.element.0 != $0.element.1 }
        Issue.record("\(path) is stale (run `make generate`); first difference at line \((first?.offset ?? 0) + 1)")
    }

    @Test func theCommittedSwiftIsCurrent() throws {
        var generator = SwiftGenerator(idl: try Self.definition(), namespace: "Localization", sourceName: Self.sourceName)
        try Self.expectCurrent(try generator.generate(), committedAt: "Sources/LprojInterface/Localization.swift")
    }

    @Test func theCommittedCIsCurrent() throws {
        let files = try CGenerator(idl: try Self.definition(), prefix: "Lprojd", streaming: ["Subscribe"], sourceName: Self.sourceName)
            .generate()
        for file in files.all {
            let folder = CGenerator.Files.isPublic(file.name) ? "clients/c/include/lprojd" : "clients/c/src/generated"
            try Self.expectCurrent(file.text, committedAt: "\(folder)/\(file.name)")
        }
    }

    @Test func theCommittedPythonIsCurrent() throws {
        let python = try PythonGenerator(idl: try Self.definition(), streaming: ["Subscribe"], sourceName: Self.sourceName).generate()
        try Self.expectCurrent(python, committedAt: "clients/python/src/lprojd/interface.py")
    }
}
