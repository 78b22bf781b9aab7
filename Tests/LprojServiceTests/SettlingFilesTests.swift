import Testing
@testable import LprojService

/// The waits of files being rewritten, on instants the test gives.
@Suite struct SettlingFilesTests {
    typealias Files = SettlingFiles<ContinuousClock.Instant>
    let file = Files.File(bundle: "demo", folder: "de.lproj", name: "Localizable.strings")
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }

    @Test func aDeletedFileThatComesBackIsReadOnceItsWriterIsDoneAndQuiet() {
        var settling = Files()
        settling.vanished(file, at: at(0))
        settling.beingWritten(file, at: at(1))
        // Being written: not read at the deletion's grace.
        #expect(settling.expired(at: at(300)).isEmpty)
        settling.closed(file, at: at(400))
        #expect(settling.expired(at: at(405)).isEmpty)
        // Another writer begins before the quiet period is over.
        settling.beingWritten(file, at: at(406))
        #expect(settling.expired(at: at(420)).isEmpty)
        settling.closed(file, at: at(430))
        #expect(settling.nextDeadline == at(440))
        #expect(settling.expired(at: at(440)) == [file])
        #expect(settling.nextDeadline == nil)
    }

    @Test func aFileThatStaysDeletedIsWithdrawnAfterItsGraceAndAWriterThatNeverClosesAfterItsOwn() {
        var settling = Files()
        settling.vanished(file, at: at(0))
        #expect(settling.expired(at: at(249)).isEmpty)
        #expect(settling.expired(at: at(250)) == [file])
        settling.beingWritten(file, at: at(1_000))
        #expect(settling.expired(at: at(2_999)).isEmpty)
        #expect(settling.expired(at: at(3_000)) == [file])
    }

    @Test func aRenameIsWholeAtOnceAndABundleReadAgainForgetsItsFiles() {
        var settling = Files()
        settling.vanished(file, at: at(0))
        let wasWaitedFor = settling.settled(file)
        let again = settling.settled(file)
        #expect(wasWaitedFor && !again && !settling.isSettling(file))
        settling.beingWritten(file, at: at(0))
        settling.forget(bundle: "demo")
        #expect(settling.nextDeadline == nil)
    }
}
