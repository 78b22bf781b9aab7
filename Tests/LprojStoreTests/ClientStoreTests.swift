import Foundation
import Testing
@testable import LprojStore

@Suite struct ClientStoreTests {
    @Test func selectionsAreKeyedByUIDAndClient() async throws {
        let store = try ClientStore.inMemory()
        let alice = ClientKey(uid: 1000, client: "org.example.App"), bob = ClientKey(uid: 1001, client: "org.example.App")
        try await store.saveSelection("de", for: alice, bundle: "demo")
        #expect(store.selection(for: alice, bundle: "demo")?.locale == "de")
        #expect(store.selection(for: bob, bundle: "demo") == nil)
        #expect(store.selection(for: alice, bundle: "other") == nil)
        try await store.saveSelection("fr", for: alice, bundle: "demo")
        #expect(store.selection(for: alice, bundle: "demo")?.locale == "fr")
        try await store.removeSelection(for: alice, bundle: "demo")
        #expect(store.selection(for: alice, bundle: "demo") == nil)
    }

    @Test func selectionsSurviveReopening() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("lprojd.sqlite").path
        let key = ClientKey(uid: 1000, client: "app")
        do {
            let store = try ClientStore(path: path)
            try await store.saveSelection("ja", for: key, bundle: "demo")
        }
        let reopened = try ClientStore(path: path)
        #expect(reopened.selection(for: key, bundle: "demo")?.locale == "ja")
        #expect(reopened.selectionCount == 1)
    }

    @Test func concurrentWritesLeaveTheCacheAsTheDatabase() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("lprojd.sqlite").path
        let store = try ClientStore(path: path)
        let key = ClientKey(uid: 1, client: "app")
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { try? await store.saveSelection("l\(index)", for: key, bundle: "b") }
            }
        }
        let cached = store.selection(for: key, bundle: "b")?.locale
        let fromDisk = try ClientStore(path: path).selection(for: key, bundle: "b")?.locale
        #expect(cached == fromDisk)
    }

    @Test func clientIDs() {
        #expect(ClientKey.isValidClientID("org.example.Editor"))
        #expect(!ClientKey.isValidClientID(""))
        #expect(!ClientKey.isValidClientID("has space"))
        #expect(!ClientKey.isValidClientID(String(repeating: "a", count: 256)))
    }
}
