import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Clients the soak runs as many uids at once, each its own process.
enum Modes {
    struct Held: Codable {
        var accepted = 0
        var refused = 0
    }

    /// Opens `count` connections and holds them for `seconds`.
    static func hold(socket: String, count: Int, seconds: Double) throws -> Held {
        var wires: [Wire] = []
        var held = Held()
        for _ in 0..<count {
            guard let wire = try? Wire(path: socket) else {
                held.refused += 1
                continue
            }
            wires.append(wire)
        }
        // A refused connection gets its error at once; the others get nothing.
        for wire in wires {
            if wire.receive(timeout: 0.01) != nil || wire.closedByPeer { held.refused += 1 } else { held.accepted += 1 }
        }
        FileHandle.standardOutput.write(Data("holding \(held.accepted)\n".utf8))
        Thread.sleep(forTimeInterval: seconds)
        withExtendedLifetime(wires) {}
        return held
    }

    struct Subscribed: Codable {
        var subscribed = 0
        var events = 0
        var dropped = 0
        var lastGeneration = 0
    }

    /// Opens `count` subscriptions; reads them (or not) for `seconds`.
    static func subscribe(socket: String, count: Int, read: Bool, seconds: Double) throws -> Subscribed {
        var wires: [Wire] = []
        var result = Subscribed()
        for _ in 0..<count {
            guard let wire = try? Wire(path: socket) else { continue }
            wire.call(callText("Subscribe", "{}", more: true))
            guard let ready = wire.receive(timeout: 10), Wire.errorName(ready) == nil else { continue }
            wires.append(wire)
        }
        result.subscribed = wires.count
        FileHandle.standardOutput.write(Data("subscribed \(wires.count)\n".utf8))
        let end = Date().addingTimeInterval(seconds)
        guard read else {
            Thread.sleep(forTimeInterval: seconds)
            result.dropped = wires.filter { ($0.receive(timeout: 0.001) ?? "").contains("LimitExceeded") || $0.closedByPeer }.count
            return result
        }
        var pollers = wires.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        while Date() < end {
            guard poll(&pollers, nfds_t(pollers.count), 100) > 0 else { continue }
            for index in pollers.indices where pollers[index].revents != 0 {
                while let message = wires[index].receive(timeout: 0) {
                    result.events += 1
                    if let range = message.range(of: #""generation":"#) {
                        let digits = message[range.upperBound...].prefix { $0.isNumber }
                        result.lastGeneration = max(result.lastGeneration, Int(digits) ?? 0)
                    }
                }
                if wires[index].closedByPeer {
                    result.dropped += 1
                    pollers[index].fd = -1
                }
            }
        }
        return result
    }
}
