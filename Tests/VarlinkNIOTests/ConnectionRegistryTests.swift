import Dispatch
import Synchronization
import Testing
@testable import VarlinkNIO

@Suite struct ConnectionRegistryTests {
    /// A connection that registers while the server stops is asked to stop
    /// too: by the stop, or at once when it registers. With two locks (one
    /// for the flag, one for the table) it could register after the stop
    /// read the table and before it set the flag, and never be asked.
    @Test func aConnectionRegisteringDuringTheStopIsAskedToStop() {
        for _ in 0..<2000 {
            let registry = ConnectionRegistry()
            let asked = Atomic(0)
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                start.wait()
                registry.add(id: 1, uid: 1000) { asked.add(1, ordering: .relaxed) }
            }
            DispatchQueue.global().async(group: group) {
                start.wait()
                registry.shutdownAll()
            }
            start.signal()
            start.signal()
            group.wait()
            #expect(asked.load(ordering: .relaxed) == 1)
            if asked.load(ordering: .relaxed) != 1 { return }
        }
    }

    @Test func waitingForNoConnectionsEndsWhenTheLastLeaves() async {
        let registry = ConnectionRegistry()
        registry.add(id: 1, uid: 1) {}
        registry.add(id: 2, uid: 1) {}
        async let empty: Void = registry.waitUntilEmpty()
        registry.remove(id: 1)
        registry.remove(id: 2)
        await empty
        #expect(registry.count == 0)
    }
}
