import LprojEngine
import Testing

@testable import LprojService

/// When a bundle is read again, on instants the test gives: bursts merge
/// into one reload, a reload paces the next, refused reloads back off, and
/// nothing a bundle's files do makes the schedule grow without bound.
@Suite struct BundleReloadScheduleTests {
    typealias Schedule = BundleReloadSchedule<ContinuousClock.Instant>
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }

    func reloaded(_ decision: Schedule.Decision) -> BundleChanges? {
        if case .reload(let changes) = decision { return changes }
        return nil
    }

    @Test func aBurstOfEventsIsOneReloadOfWhatChanged() throws {
        var schedule = Schedule()
        // Ten thousand folder events (mkdir, rmdir, over and over) and a
        // table renamed into place: one reload, naming each once.
        for round in 0..<10_000 {
            schedule.stringCatalog("scratch")
            schedule.folder("x\(round % 3).lproj")
        }
        schedule.fileWhole("Localizable.strings", in: "de.lproj")
        let changes = try #require(reloaded(schedule.next(at: at(0))))
        #expect(changes.stringCatalogs == ["scratch"])
        #expect(changes.folders.count == 4)
        #expect(changes.folders["de.lproj"] == .some(["Localizable.strings"]))
        // Nothing else waits; while it runs, nothing else starts.
        schedule.fileWhole("Menu.strings", in: "de.lproj")
        #expect(schedule.next(at: at(1)) == .idle)
    }

    @Test func aReloadPacesTheNextByWhatItCost() throws {
        var schedule = Schedule()
        schedule.fileWhole("Localizable.strings", in: "de.lproj")
        _ = try #require(reloaded(schedule.next(at: at(0))))
        schedule.fileWhole("Localizable.strings", in: "de.lproj")
        // It took 40 ms: the next may start 120 ms after it ended.
        schedule.reloaded(at: at(40), took: .milliseconds(40), refused: false)
        #expect(schedule.next(at: at(41)) == .wait(until: at(160)))
        #expect(schedule.next(at: at(159)) == .wait(until: at(160)))
        #expect(reloaded(schedule.next(at: at(160))) != nil)
        // A cheap reload is followed closely.
        schedule.reloaded(at: at(161), took: .milliseconds(1), refused: false)
        schedule.fileWhole("Menu.strings", in: "de.lproj")
        #expect(reloaded(schedule.next(at: at(164))) != nil)
    }

    @Test func refusedReloadsBackOffAndWaitForChanges() throws {
        var schedule = Schedule(firstBackoff: .seconds(1), maximumBackoff: .seconds(8))
        func milliseconds(_ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant) -> Int {
            Int(from.duration(to: to) / .milliseconds(1))
        }
        var now = 0
        var waits: [Int] = []
        schedule.folder("de.lproj")
        for _ in 0..<6 {
            _ = try #require(reloaded(schedule.next(at: at(now))))
            schedule.reloaded(at: at(now + 5), took: .milliseconds(5), refused: true)
            // No change since: nothing is read again, however long it waits.
            #expect(schedule.next(at: at(now + 100_000)) == .idle)
            schedule.folder("de.lproj")
            guard case .wait(let until) = schedule.next(at: at(now + 6)) else {
                Issue.record("a refused reload was followed at once")
                return
            }
            waits.append(milliseconds(at(now + 5), until))
            now = milliseconds(start, until)
        }
        #expect(waits == [1000, 2000, 4000, 8000, 8000, 8000])
        // A reload that succeeds ends the back-off.
        _ = try #require(reloaded(schedule.next(at: at(now))))
        schedule.reloaded(at: at(now + 1), took: .milliseconds(1), refused: false)
        #expect(schedule.refusals == 0)
        schedule.folder("de.lproj")
        #expect(reloaded(schedule.next(at: at(now + 4))) != nil)
    }

    @Test func whatARefusedReloadDidNotReadJoinsTheNext() throws {
        var schedule = Schedule(firstBackoff: .seconds(1))
        schedule.folder("fr.lproj")
        schedule.fileWhole("Big.strings", in: "de.lproj")
        _ = try #require(reloaded(schedule.next(at: at(0))))
        schedule.reloaded(at: at(5), took: .milliseconds(5), refused: true)
        // It starts nothing on its own ...
        #expect(schedule.next(at: at(100_000)) == .idle)
        // ... but is read with the next change, wherever that is.
        schedule.fileVanished("Padding.strings", in: "it.lproj", at: at(100_000))
        schedule.fileWhole("Padding.strings", in: "it.lproj")
        let changes = try #require(reloaded(schedule.next(at: at(100_001))))
        #expect(changes.folders["fr.lproj"] == .some(nil))
        #expect(changes.folders["de.lproj"] == .some(["Big.strings"]))
        #expect(changes.folders["it.lproj"] == .some(["Padding.strings"]))
        // Once read, it is not read again.
        schedule.reloaded(at: at(100_002), took: .zero, refused: false)
        schedule.fileWhole("Menu.strings", in: "it.lproj")
        #expect(try #require(reloaded(schedule.next(at: at(100_003)))).folders == ["it.lproj": ["Menu.strings"]])
    }

    @Test func whatWaitsIsBoundedWhateverTheFilesDo() throws {
        var schedule = Schedule(maximumPendingFiles: 64)
        // Files of one folder past the bound: the folder is read whole.
        for index in 0..<100 { schedule.fileWhole("T\(index).strings", in: "de.lproj") }
        var changes = try #require(reloaded(schedule.next(at: at(0))))
        #expect(changes.folders["de.lproj"] == .some(nil))
        schedule.reloaded(at: at(0), took: .zero, refused: false)
        // Folders past the bound: the bundle is read again.
        for index in 0..<100 { schedule.folder("f\(index).lproj") }
        changes = try #require(reloaded(schedule.next(at: at(1))))
        #expect(changes.everything)
        schedule.reloaded(at: at(1), took: .zero, refused: false)
        // Files being written past the bound are read as they are, not waited for.
        for index in 0..<100 { schedule.fileBeingWritten("T\(index).strings", in: "fr.lproj", at: at(2)) }
        changes = try #require(reloaded(schedule.next(at: at(2))))
        #expect(changes.folders["fr.lproj"] != nil)
    }

    @Test func aFileBeingWrittenWaitsForItsWriterButARenameDoesNot() throws {
        var schedule = Schedule()
        schedule.fileBeingWritten("Localizable.strings", in: "de.lproj", at: at(0))
        guard case .wait(let until) = schedule.next(at: at(1)) else {
            Issue.record("a file being written was read at once")
            return
        }
        #expect(until == at(2000))
        schedule.fileClosed("Localizable.strings", in: "de.lproj", at: at(5))
        #expect(schedule.next(at: at(6)) == .wait(until: at(15)))
        let changes = try #require(reloaded(schedule.next(at: at(15))))
        #expect(changes.folders["de.lproj"] == .some(["Localizable.strings"]))
        schedule.reloaded(at: at(16), took: .zero, refused: false)
        schedule.fileBeingWritten("Menu.strings", in: "de.lproj", at: at(20))
        schedule.fileWhole("Menu.strings", in: "de.lproj")
        #expect(reloaded(schedule.next(at: at(21))) != nil)
    }

    /// A file renamed into place, then deleted (or written to) again before
    /// its reload began, is not read then, missing or half-written: it waits
    /// to settle (a rewrite in a loop once made lprojd withdraw the table
    /// for a while, under load).
    @Test func aFileRewrittenBeforeItsReloadBeganWaitsToSettle() throws {
        var schedule = Schedule()
        schedule.fileWhole("Localizable.strings", in: "de.lproj")
        schedule.fileWhole("Menu.strings", in: "de.lproj")
        schedule.fileVanished("Localizable.strings", in: "de.lproj", at: at(0))
        let first = try #require(reloaded(schedule.next(at: at(1))))
        #expect(first.folders["de.lproj"] == .some(["Menu.strings"]))
        schedule.reloaded(at: at(1), took: .zero, refused: false)
        // Written again meanwhile and closed: read once quiet.
        schedule.fileBeingWritten("Localizable.strings", in: "de.lproj", at: at(2))
        schedule.fileClosed("Localizable.strings", in: "de.lproj", at: at(5))
        #expect(schedule.next(at: at(6)) == .wait(until: at(15)))
        let second = try #require(reloaded(schedule.next(at: at(15))))
        #expect(second.folders["de.lproj"] == .some(["Localizable.strings"]))
        schedule.reloaded(at: at(16), took: .zero, refused: false)
        // Only such a file pending: nothing is read until it settles.
        schedule.fileWhole("Localizable.strings", in: "de.lproj")
        schedule.fileBeingWritten("Localizable.strings", in: "de.lproj", at: at(20))
        #expect(schedule.next(at: at(21)) == .wait(until: at(2020)))
    }

    @Test func anAdministratorsReloadIsNotPaced() throws {
        var schedule = Schedule()
        schedule.folder("de.lproj")
        _ = try #require(reloaded(schedule.next(at: at(0))))
        schedule.reloaded(at: at(1000), took: .seconds(1), refused: true)
        schedule.folder("fr.lproj")
        #expect(schedule.reloadNow().everything)
        // Nothing is left to read again once it ends (a new bundle's first
        // load was once read twice, and announced as every table changed).
        #expect(schedule.next(at: at(1001)) == .idle)
        schedule.reloaded(at: at(1002), took: .milliseconds(1), refused: false)
        #expect(schedule.next(at: at(1003)) == .idle)
    }
}
