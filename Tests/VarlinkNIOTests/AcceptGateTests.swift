import NIOCore
import NIOEmbedded
import Testing
@testable import VarlinkNIO

/// The set-ups a flood of connections may leave waiting for the loops.
@Suite struct AcceptGateTests {
    @Test func listeningPausesAtTheBoundAndResumesWhenSetUpsAreDone() throws {
        let gate = AcceptGate(maximumInFlight: 4, resumeAt: 1)
        let listening = EmbeddedChannel()
        let connections = (0..<5).map { _ in EmbeddedChannel() }
        for connection in connections.prefix(3) { gate.accepted(connection, on: listening) }
        #expect(gate.inFlight == 3 && !gate.isPaused)
        gate.accepted(connections[3], on: listening)
        #expect(gate.isPaused, "four set-ups wait: the listening socket is not read")
        // A set-up is done once, however often it is said.
        gate.setUp(connections[0])
        gate.setUp(connections[0])
        #expect(gate.inFlight == 3 && gate.isPaused)
        gate.setUp(connections[1])
        #expect(gate.isPaused, "still more than one waits")
        gate.setUp(connections[2])
        #expect(gate.inFlight == 1 && !gate.isPaused)
        // One closed before its set-up (refused, or gone) is done too.
        gate.accepted(connections[4], on: listening)
        _ = try connections[4].finish()
        #expect(gate.inFlight == 1)
        _ = try connections[3].finish()
        #expect(gate.inFlight == 0)
    }
}
