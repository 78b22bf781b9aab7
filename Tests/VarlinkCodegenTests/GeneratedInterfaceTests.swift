import Foundation
import Testing
import VarlinkCodegen
import VarlinkProtocol

/// The committed Swift types of `org.lprojd.Localization` are what the
/// generator makes of the committed definition: editing one without the
/// other fails here (`make generate` writes the Swift again).
@Suite struct GeneratedInterfaceTests {
    static let interfaceFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/LprojInterface")

    @Test func theCommittedSwiftIsCurrent() throws {
        let definition = try String(
            contentsOf: Self.interfaceFolder.appendingPathComponent("org.lprojd.Localization.varlink"), encoding: .utf8)
        let committed = try String(contentsOf: Self.interfaceFolder.appendingPathComponent("Localization.swift"), encoding: .utf8)
        var generator = SwiftGenerator(
            idl: try VarlinkIDL(parsing: definition), namespace: "Localization", sourceName: "org.lprojd.Localization.varlink")
        let fresh = try generator.generate()
        guard fresh != committed else { return }
        let first = zip(
            fresh.split(separator: "\n", omittingEmptySubsequences: false),
            committed.split(separator: "\n", omittingEmptySubsequences: false)
        )
        .enumerated().first { $0.element.0 != $0.element.1 }
        Issue.record(
            "Sources/LprojInterface/Localization.swift is stale (run `make generate`); first difference at line \((first?.offset ?? 0) + 1)"
        )
    }
}
