import Foundation
import LprojInterface
import LprojService
import LprojStore
import LprojTestSupport
import Synchronization
import Testing
import VarlinkProtocol

/// The misses lookups meet, counted in the service: which lookups count,
/// who sees what, the bounds, and saving them.
@Suite struct MissesTests {
    let alice = Caller(uid: 1000), bob = Caller(uid: 1001), root = Caller(uid: 0)

    /// A clock the test moves.
    final class TestClock: Sendable {
        let time = Mutex(1_700_000_000.0)
        var now: @Sendable () -> Double { { self.time.withLock { $0 } } }
        func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
    }

    func lookup(_ fixture: ServiceFixture, _ key: String, _ locale: String, client: String? = nil, caller: Caller, table: String? = nil)
        throws
    {
        _ = try fixture.service.lookup(.init(bundle: "demo", key: key, table: table, locale: locale, client: client), caller: caller)
    }

    func misses(
        _ fixture: ServiceFixture, caller: Caller, bundle: String? = nil, locale: String? = nil, since: Double? = nil, limit: Int? = nil
    )
        async throws -> Localization.GetMisses.Reply
    {
        try await fixture.service.getMisses(
            .init(bundle: bundle, locale: locale, since: since.map { JSONNumber($0) }, limit: limit), caller: caller
        ).reply()
    }

    @Test func onlyLookupsTheLocalesOwnChainCouldNotAnswerAreCounted() async throws {
        let clock = TestClock()
        let fixture = try ServiceFixture(misses: MissLedger(now: clock.now))
        try lookup(fixture, "greeting", "de-AT", caller: alice)  // de has it: its own chain
        try lookup(fixture, "greeting", "en", caller: alice)  // the development locale itself
        try lookup(fixture, "farewell", "de-AT", client: "app.one", caller: alice)  // answered by en: a miss
        try lookup(fixture, "file", "de", caller: alice, table: "Menu")
        clock.advance(60)
        try lookup(fixture, "farewell", "de-AT", client: "app.two", caller: alice)
        try lookup(fixture, "farewell", "de-AT", client: "app.two", caller: alice)
        try lookup(fixture, "only.base", "fr", caller: alice)  // answered by Base: a miss
        try lookup(fixture, "files.selected", "fr", caller: alice)  // a plural entry en has
        try lookup(fixture, "only.base", "en", caller: alice)  // Base speaks for the development language
        try lookup(fixture, "no.such.key", "de", caller: alice)  // in no table: counted apart
        try lookup(fixture, "no.such.key", "fr", caller: alice)

        let reply = try await misses(fixture, caller: alice)
        #expect(
            reply.misses.map { "\($0.locale) \($0.table) \($0.key) \($0.count)" } == [
                "de-AT Localizable farewell 3", "de Menu file 1", "fr Localizable files.selected 1", "fr Localizable only.base 1",
            ])
        let farewell = try #require(reply.misses.first)
        #expect(farewell.clients == 2 && farewell.bundle == "demo")
        #expect(farewell.firstSeen.double == 1_700_000_000 && farewell.lastSeen.double == 1_700_000_060)
        #expect(reply.unknownKeys.map(\.count) == [2] && reply.unknownKeys.first?.sample == ["no.such.key"])
        #expect(reply.dropped == 0)

        // Filters: locale (in any spelling), since, limit.
        #expect(try await misses(fixture, caller: alice, locale: "de_AT").misses.map(\.key) == ["farewell"])
        #expect(
            try await misses(fixture, caller: alice, since: 1_700_000_030).misses.map(\.key) == ["farewell", "files.selected", "only.base"])
        #expect(try await misses(fixture, caller: alice, limit: 1).misses.count == 1)
        await #expect(throws: ServiceError.invalidParameter("limit")) { try await misses(fixture, caller: alice, limit: 0) }
    }

    @Test func noneAreCountedWhenTurnedOff() async throws {
        let fixture = try ServiceFixture(countsMisses: false)
        try lookup(fixture, "farewell", "fr", caller: alice)
        try lookup(fixture, "no.such.key", "fr", caller: alice)
        let reply = try await misses(fixture, caller: alice)
        #expect(reply.misses.isEmpty && reply.unknownKeys.isEmpty)
    }

    @Test func pseudoLocalesCountNoMisses() async throws {
        // Every en-XA value comes from the development locale, on purpose.
        let fixture = try ServiceFixture(pseudoLocales: true)
        try lookup(fixture, "farewell", "en-XA", caller: alice)
        try lookup(fixture, "only.base", "ar-XB", caller: alice)
        #expect(try await misses(fixture, caller: alice).misses.isEmpty)
    }

    @Test func usersSeeTheirOwnAndAdministratorsEveryonesSummed() async throws {
        let fixture = try ServiceFixture(daemonUID: 999)
        try lookup(fixture, "farewell", "fr", client: "app", caller: alice)
        try lookup(fixture, "farewell", "fr", client: "app", caller: bob)
        try lookup(fixture, "farewell", "fr", client: "app", caller: bob)
        #expect(try await misses(fixture, caller: alice).misses.map(\.count) == [1])
        #expect(try await misses(fixture, caller: bob).misses.map(\.count) == [2])
        let everyone = try await misses(fixture, caller: root).misses
        #expect(everyone.map(\.count) == [3] && everyone.first?.clients == 2)
        #expect(try await misses(fixture, caller: Caller(uid: 999)).misses.map(\.count) == [3])

        await #expect(throws: ServiceError.localization(.permissionDenied(.init(method: "ResetMisses")))) {
            try await fixture.service.resetMisses(.init(), caller: alice).reply()
        }
        #expect(try await fixture.service.resetMisses(.init(bundle: "demo"), caller: root).reply().removed == 2)
        #expect(try await misses(fixture, caller: root).misses.isEmpty)
    }

    @Test func whatOneUserMakesItHoldIsBounded() async throws {
        var limits = MissLedger.Limits()
        limits.bytesPerUID = 3 * 600
        limits.totalBytes = 5 * 600
        let files = ServiceFixture.demoFiles.merging(
            ["en.lproj/Extra.strings": (0..<20).map { "\"k\($0)\" = \"v\";" }.joined(separator: "\n")]) { $1 }
        let fixture = try ServiceFixture(files: files, misses: MissLedger(limits: limits))
        for index in 0..<20 { try lookup(fixture, "k\(index)", "de", caller: alice, table: "Extra") }
        let own = try await misses(fixture, caller: alice)
        #expect(own.misses.count == 3 && own.dropped == 17)
        // Another user still has room, up to the total.
        for index in 0..<20 { try lookup(fixture, "k\(index)", "fr", caller: bob, table: "Extra") }
        #expect(try await misses(fixture, caller: bob).misses.count == 2)
        // A known record goes on counting.
        try lookup(fixture, "k0", "de", caller: alice, table: "Extra")
        #expect(try await misses(fixture, caller: alice).misses.first { $0.key == "k0" }?.count == 2)
    }

    @Test func unknownKeysKeepOnlyAShortSample() async throws {
        let fixture = try ServiceFixture()
        for index in 0..<40 { try lookup(fixture, "\(index)" + String(repeating: "é", count: 300), "de", caller: alice) }
        let unknown = try #require(try await misses(fixture, caller: alice).unknownKeys.first)
        #expect(unknown.count == 40 && unknown.sample.count == MissLedger.sampleSize)
        #expect(unknown.sample.allSatisfy { $0.utf8.count <= MissLedger.sampleKeyBytes })
    }

    @Test func savedMissesAreReadBackAndAResetOneStaysForgotten() async throws {
        let directory = try TemporaryFiles("misses", files: [:])
        let path = directory.path + "/state.sqlite"
        do {
            let fixture = try ServiceFixture(store: ClientStore(path: path))
            try lookup(fixture, "farewell", "fr", client: "app", caller: alice)
            try lookup(fixture, "farewell", "fr", client: "app", caller: alice)
            try lookup(fixture, "nope", "fr", caller: alice)
            await fixture.service.saveMisses()
            try lookup(fixture, "farewell", "de", client: "app", caller: alice)
            await fixture.service.saveMisses()
            // Taken for saving, then reset in memory before the write: the
            // write is skipped, so a reset is never undone by a late save.
            try lookup(fixture, "only.base", "fr", caller: alice)
            let ledger = fixture.service.misses
            let changes = ledger.takeChanges()
            _ = ledger.reset(bundle: "other")
            let written = try await fixture.store.saveMisses(changes.misses, unknownKeys: changes.unknownKeys) {
                ledger.epoch == changes.epoch
            }
            #expect(!written)
            // The service then marks them changed again: the next save
            // writes what the reset (of another bundle) did not remove.
            ledger.markChanged(changes.misses, unknownKeys: changes.unknownKeys)
            await fixture.service.saveMisses()
        }
        let restarted = try ServiceFixture(store: ClientStore(path: path))
        restarted.service.restoreMisses()
        let reply = try await misses(restarted, caller: alice)
        #expect(
            reply.misses.map { "\($0.locale) \($0.key) \($0.count) \($0.clients)" } == [
                "fr farewell 2 1", "de farewell 1 1", "fr only.base 1 1",
            ])
        #expect(reply.unknownKeys.first?.sample == ["nope"])

        // Counting goes on from what was saved.
        try lookup(restarted, "farewell", "fr", client: "app", caller: alice)
        #expect(try await misses(restarted, caller: alice, locale: "fr").misses.first?.count == 3)
        // Counted before the saved ones were read (the database was not
        // open at start): both add up.
        let late = try ServiceFixture(store: ClientStore(path: path))
        try lookup(late, "farewell", "fr", client: "other.app", caller: alice)
        await late.service.saveMisses()
        #expect(try await misses(late, caller: alice, locale: "fr").misses.first.map { "\($0.count) \($0.clients)" } == "3 2")
        _ = try await restarted.service.resetMisses(.init(), caller: root).reply()
        await restarted.service.saveMisses()
        let again = try ServiceFixture(store: ClientStore(path: path))
        again.service.restoreMisses()
        #expect(try await misses(again, caller: alice).misses.isEmpty)
    }
}
