import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// What a hostile local user can try, one hole of the hardening issue each.
/// Each runs at full speed until its time is up and reports what lprojd
/// answered: the limits it named, and the connections it closed.
enum Attack: String, CaseIterable, Codable {
    case unfinishedMessages = "unfinished-messages"
    case unreadReplies = "unread-replies"
    case addedStrings = "added-strings"
    case queuedCalls = "queued-calls"
    case subscriberQueues = "subscriber-queues"
    case savedRows = "saved-rows"
    case cacheKeys = "cache-keys"
    case batches
    case fanOut = "fan-out"
    case quadratic
    case amplification
    case longTexts = "long-texts"
    case logFlood = "log-flood"
    case connectionChurn = "connection-churn"
    case formatPrecision = "format-precision"
    case wideTables = "wide-tables"
    case workerJobs = "worker-jobs"
    case eventFlood = "event-flood"
    case formatCaches = "format-caches"
    case directoryChurn = "directory-churn"
    case bundleBloat = "bundle-bloat"
    case tableFlood = "table-flood"
    case directorySwap = "directory-swap"
    case calendarWork = "calendar-work"
    case bundleRenames = "bundle-renames"

    /// The hole of the issue it tries (its number there).
    var hole: String {
        switch self {
        case .unfinishedMessages: "1. unfinished messages"
        case .unreadReplies: "2. unwritten replies"
        case .addedStrings: "3. added strings"
        case .queuedCalls: "3. queued calls"
        case .subscriberQueues: "3. subscriber queues"
        case .savedRows: "4. persisted rows"
        case .cacheKeys: "5. caches keyed by client text"
        case .batches: "6. batches without yield"
        case .fanOut: "7. fan-out inline"
        case .quadratic: "8. quadratic work"
        case .amplification: "9. output amplification"
        case .longTexts: "10. lengths after normalisation"
        case .logFlood: "11. logs"
        case .connectionChurn: "connection churn"
        case .formatPrecision: "R3 1–2. format precision"
        case .wideTables: "R3 3. tables sized by entries"
        case .workerJobs: "R3 4–5. worker jobs"
        case .eventFlood: "R3 6. events that defeat coalescing"
        case .formatCaches: "R3 10. shared formatter caches"
        case .directoryChurn: "R4 1. directory churn in one bundle"
        case .bundleBloat: "R4 2. one 16 MiB table in 60 folders; 32 MB tables renamed over 8"
        case .tableFlood: "R4 2. a folder of 100,000 tables moved in"
        case .directorySwap: "R4 3. the bundle's directory swapped for a link"
        case .calendarWork: "R4 4. far dates in every calendar"
        case .bundleRenames: "R4 11. the bundle's directory renamed away and back"
        }
    }

    /// Whether it needs a bundle directory of its own to write in.
    var writesABundle: Bool {
        switch self {
        case .directoryChurn, .bundleBloat, .tableFlood, .directorySwap, .bundleRenames: true
        default: false
        }
    }

    struct Report: Codable {
        var calls = 0
        var limits: [String: Int] = [:]
        var errors: [String: Int] = [:]
        var closed = 0
        var note = ""
        /// Answers that held text the attacker may not read (the swap).
        var leaked = 0

        mutating func saw(_ reply: String?) {
            guard let name = Wire.errorName(reply) else { return }
            if name.hasSuffix("LimitExceeded"), let limit = Wire.limitName(reply) {
                limits[limit, default: 0] += 1
            } else {
                errors[String(name.split(separator: ".").last ?? ""), default: 0] += 1
            }
        }
    }

    /// When an attack stops: its time is up or, if asked, lprojd named a
    /// limit (a test then waits for the limit, not for a machine fast
    /// enough to reach it within a set time).
    struct Deadline {
        let time: Date
        let stopsAtFirstLimit: Bool

        func isReached(_ report: Report) -> Bool {
            Date() >= time || stopsAtFirstLimit && !report.limits.isEmpty
        }
    }

    func run(socket: String, seconds: Double, scale: Double = 1, untilLimit: Bool = false, files: HostileFiles? = nil) throws -> Report {
        let end = Deadline(time: Date().addingTimeInterval(seconds), stopsAtFirstLimit: untilLimit)
        var report = Report()
        switch self {
        case .unfinishedMessages: try Self.unfinishedMessages(socket, end, scale, &report)
        case .unreadReplies: try Self.unreadReplies(socket, end, scale, &report)
        case .addedStrings: try Self.addedStrings(socket, end, &report)
        case .queuedCalls: try Self.queuedCalls(socket, end, scale, &report)
        case .subscriberQueues: try Self.subscriberQueues(socket, end, scale, &report)
        case .savedRows: try Self.savedRows(socket, end, &report)
        case .cacheKeys: try Self.cacheKeys(socket, end, &report)
        case .batches: try Self.batches(socket, end, &report)
        case .fanOut: try Self.fanOut(socket, end, scale, &report)
        case .quadratic: try Self.quadratic(socket, end, &report)
        case .amplification: try Self.amplification(socket, end, &report)
        case .longTexts: try Self.longTexts(socket, end, &report)
        case .logFlood: try Self.logFlood(socket, end, &report)
        case .connectionChurn: try Self.connectionChurn(socket, end, &report)
        case .formatPrecision: try Self.formatPrecision(socket, end, &report)
        case .wideTables: try Self.wideTables(socket, end, &report)
        case .workerJobs: try Self.workerJobs(socket, end, &report)
        case .eventFlood: try Self.eventFlood(socket, end, &report)
        case .formatCaches: try Self.formatCaches(socket, end, &report)
        case .calendarWork: try Self.calendarWork(socket, end, &report)
        case .directoryChurn, .bundleBloat, .tableFlood, .directorySwap, .bundleRenames:
            guard let files else { throw SoakFailure("\(rawValue) writes a bundle: give --bundle-directory DIR") }
            switch self {
            case .directoryChurn: try Self.directoryChurn(files, end, &report)
            case .bundleBloat: try Self.bundleBloat(files, end, &report)
            case .tableFlood: try Self.tableFlood(files, end, &report)
            case .directorySwap: try Self.directorySwap(files, socket, end, &report)
            default: try Self.bundleRenames(files, end, &report)
            }
        }
        return report
    }

    // MARK: (A) Memory a client can pin

    /// Many connections, each sending a message that never ends (just under
    /// the message limit of 1 MiB, so that only the uid's budget refuses it).
    static func unfinishedMessages(_ socket: String, _ end: Deadline, _ scale: Double, _ report: inout Report) throws {
        let size = (1 << 20) - 1024
        var wires = try (0..<Int(64 * scale)).map { _ in try Wire(path: socket) }
        var sent = [Int](repeating: 0, count: wires.count)
        let chunk =
            Array(#"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":""#.utf8)
            + [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10)
        while !end.isReached(report), !wires.isEmpty {
            var progressed = false
            for index in wires.indices.reversed() {
                let wire = wires[index]
                if wire.closedByPeer || sent[index] >= size { continue }
                let written = wire.sendSome(chunk[...].prefix(size - sent[index]))
                sent[index] += written
                progressed = progressed || written > 0
            }
            // Collect the connections lprojd closed, with their last words.
            for index in wires.indices.reversed() where wires[index].closedByPeer || hasInput(wires[index]) {
                report.saw(wires[index].receive(timeout: 0.1))
                report.closed += 1
                wires.remove(at: index)
                sent.remove(at: index)
            }
            if !progressed { usleep(2_000) }
        }
        report.calls = sent.reduce(0, +)
        report.note = "\(report.calls >> 20) MiB sent in unfinished messages on \(Int(64 * scale)) connections; \(wires.count) still open"
    }

    /// Pipelines calls with large replies and never reads them.
    static func unreadReplies(_ socket: String, _ end: Deadline, _ scale: Double, _ report: inout Report) throws {
        let wires = try (0..<Int(16 * scale)).map { _ in try Wire(path: socket) }
        var batch: [UInt8] = []
        for _ in 0..<512 { batch += Array(callText("GetTable", #"{"bundle":"demo","locale":"de"}"#).utf8) + [0] }
        var offsets = [Int](repeating: 0, count: wires.count)
        while !end.isReached(report) {
            var progressed = false
            for (index, wire) in wires.enumerated() where !wire.closedByPeer {
                let written = wire.sendSome(batch[offsets[index]...])
                offsets[index] = (offsets[index] + written) % batch.count
                report.calls += written / 40
                progressed = progressed || written > 0
            }
            if !progressed { usleep(5_000) }
        }
        report.closed = wires.filter(\.closedByPeer).count
        report.note = "the kernel stopped taking calls once lprojd stopped reading"
    }

    /// Adds strings under ever new client ids.
    static func addedStrings(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        let wire = try Wire(path: socket)
        let value = String(repeating: "v", count: 60 << 10)
        var strings = "{"
        for index in 0..<16 { strings += "\(index == 0 ? "" : ",")\"key\(index)\":\(jsonString(value))" }
        strings += "}"
        var client = 0
        while !end.isReached(report) {
            client += 1
            guard wire.call(callText("AddStrings", #"{"client":"hostile.\#(client)","bundle":"demo","locale":"de","strings":\#(strings)}"#))
            else { break }
            report.saw(wire.receive())
            report.calls += 1
        }
    }

    /// Holds each connection with a subscription, then queues large calls
    /// behind it, which are never answered while it lasts.
    static func queuedCalls(_ socket: String, _ end: Deadline, _ scale: Double, _ report: inout Report) throws {
        var wires: [Wire] = []
        for _ in 0..<Int(32 * scale) {
            let wire = try Wire(path: socket)
            wire.call(callText("Subscribe", "{}", more: true))
            _ = wire.receive()
            wires.append(wire)
        }
        let call = Array(callText("Lookup", #"{"bundle":"demo","key":\#(jsonString(String(repeating: "k", count: 60 << 10)))}"#).utf8) + [0]
        var batch: [UInt8] = []
        for _ in 0..<64 { batch += call }
        var offsets = [Int](repeating: 0, count: wires.count)
        while !end.isReached(report) {
            var progressed = false
            for (index, wire) in wires.enumerated() where !wire.closedByPeer {
                let written = wire.sendSome(batch[offsets[index]...])
                offsets[index] = (offsets[index] + written) % batch.count
                report.calls += written / call.count
                progressed = progressed || written > 0
            }
            if !progressed { usleep(5_000) }
        }
        report.note = "lprojd stopped reading each connection once its queue or the uid's input budget was full"
    }

    /// Subscribers that never read, and a client that keeps giving them
    /// something to read.
    static func subscriberQueues(_ socket: String, _ end: Deadline, _ scale: Double, _ report: inout Report) throws {
        let subscribers = try subscribe(Int(100 * scale), filter: #"{"client":"hostile.app"}"#, socket)
        let writer = try Wire(path: socket)
        let value = String(repeating: "w", count: 1024)
        var round = 0
        while !end.isReached(report) {
            round += 1
            guard
                writer.call(
                    callText(
                        "AddStrings",
                        #"{"client":"hostile.app","bundle":"demo","locale":"de","table":"T\#(round % 50)","strings":{"k":\#(jsonString(value))}}"#
                    ))
            else { break }
            report.saw(writer.receive())
            report.calls += 1
        }
        report.closed = subscribers.filter { $0.closedByPeer || hasInput($0) && $0.receive(timeout: 0) == nil }.count
        report.note = "\(subscribers.count) subscribers never read"
    }

    /// Saves selections and preferences under ever new client ids.
    static func savedRows(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        let wire = try Wire(path: socket)
        var client = 0
        while !end.isReached(report) {
            client += 1
            let id = "hostile.\(client)"
            let calls = [
                callText("SelectLocale", #"{"client":"\#(id)","bundle":"demo","locale":"de"}"#),
                callText("SetPreferences", #"{"client":"\#(id)","bundle":"demo","preferences":{"currencySymbol":"€€"}}"#),
                callText("GetSelection", #"{"client":"\#(id).g","bundle":"demo","preferredLanguages":["fr"]}"#),
            ]
            guard wire.send(Array(calls.map { $0 + "\u{0}" }.joined().utf8)) else { break }
            for _ in calls { report.saw(wire.receive()) }
            report.calls += calls.count
        }
    }

    /// Texts that a cache would keep under whatever the client wrote.
    static func cacheKeys(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        let wire = try Wire(path: socket)
        var round = 0
        while !end.isReached(report) {
            round += 1
            let padding = String(repeating: " ", count: 1_000_000 + round)
            wire.call(callText("Lookup", #"{"bundle":"demo","key":"welcome.title","locale":\#(jsonString("de" + padding))}"#))
            report.saw(wire.receive())
            wire.call(callText("Format", #"{"style":"currency","number":1,"locale":"de","currency":\#(jsonString("EUR" + padding))}"#))
            report.saw(wire.receive())
            report.calls += 2
        }
    }

    // MARK: (B) Event loops

    /// Half a megabyte of pipelined costly calls at a time, on four
    /// connections (so that every event loop has one).
    static func batches(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        var batch: [UInt8] = []
        var count = 0
        let fields = ["y", "yM", "yMd", "yMMMd", "yMMMMEEEEd", "Hm", "hm", "jm", "MMMd", "EEEE"]
        while batch.count < 512 << 10 {
            let call: String
            // Mostly SupportedLocales (a name per locale from ICU), some
            // Format templates and AddStrings: the calls that held a loop.
            switch count % 6 {
            case 0:
                call = callText(
                    "Format",
                    #"{"style":"template","date":\#(count),"template":"\#(fields[count % fields.count])","locale":"\#(["de", "fr", "ja", "ar", "ru"][count % 5])"}"#
                )
            case 1:
                call = callText(
                    "AddStrings", #"{"client":"hostile.batch","bundle":"demo","locale":"de","strings":{"k\#(count % 100)":"v"}}"#)
            default:
                call = callText(
                    "SupportedLocales", #"{"bundle":"demo","locale":"\#(["de", "fr", "ja", "ar", "ru", "zh-Hant"][count % 6])"}"#)
            }
            batch += Array(call.utf8) + [0]
            count += 1
        }
        let wires = try (0..<4).map { _ in try Wire(path: socket) }
        let answered = EventCount()
        var threads: [Thread] = []
        for wire in wires {
            // Replies are read as the batch goes out: lprojd stops reading a
            // client that does not read its replies.
            let descriptor = wire.descriptor, bytes = batch
            threads.append(
                Thread {
                    var offset = 0
                    while Date() < end.time {
                        let written = bytes[offset...].withUnsafeBytes {
                            Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                        }
                        if written <= 0 { return }
                        offset = (offset + written) % bytes.count
                    }
                })
            threads.append(
                Thread {
                    var buffer = [UInt8](repeating: 0, count: 1 << 16)
                    while Date() < end.time {
                        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                        guard poll(&poller, 1, 100) > 0 else { continue }
                        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                        if count <= 0 { return }
                        answered.add(buffer[..<count].reduce(0) { $0 + ($1 == 0 ? 1 : 0) })
                    }
                })
        }
        for thread in threads { thread.start() }
        while !end.isReached(report) { usleep(50_000) }
        usleep(150_000)
        withExtendedLifetime(wires) {}
        report.calls = answered.value
        report.note = "batches of \(count) calls (\(batch.count >> 10) KiB) pipelined on 4 connections"
    }

    /// Subscribers of one user, and a flood of changes only they hear of.
    static func fanOut(_ socket: String, _ end: Deadline, _ scale: Double, _ report: inout Report) throws {
        let subscribers = try subscribe(Int(120 * scale), filter: #"{"client":"hostile.fan"}"#, socket)
        // The subscribers read everything, as real ones would.
        let received = EventCount()
        let descriptors = subscribers.map(\.descriptor)
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var pollers = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            while !received.stopped {
                guard poll(&pollers, nfds_t(pollers.count), 100) > 0 else { continue }
                for index in pollers.indices where pollers[index].revents != 0 {
                    let count = buffer.withUnsafeMutableBytes { read(pollers[index].fd, $0.baseAddress, $0.count) }
                    if count > 0 { received.add(buffer[..<count].reduce(0) { $0 + ($1 == 0 ? 1 : 0) }) }
                    if count <= 0 { pollers[index].fd = -1 }
                }
            }
        }
        reader.start()
        let writer = try Wire(path: socket)
        var round = 0
        while !end.isReached(report) {
            round += 1
            guard
                writer.call(
                    callText(
                        "AddStrings", #"{"client":"hostile.fan","bundle":"demo","locale":"de","strings":{"k\#(round % 100)":"\#(round)"}}"#)
                )
            else { break }
            report.saw(writer.receive())
            report.calls += 1
        }
        received.stop()
        withExtendedLifetime(subscribers) {}
        report.note = "\(report.calls) changes reached \(subscribers.count) subscribers as \(received.value) events"
    }

    // MARK: Costs and sizes

    /// Inputs whose cost was quadratic or a product of two lists.
    static func quadratic(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        let wire = try Wire(path: socket)
        // 60k members in one object (as many as a message may hold under
        // its values limit): any method, since parsing comes first.
        var members = "{"
        for index in 0..<60_000 { members += "\(index == 0 ? "" : ",")\"m\(index)\":\"x\"" }
        members += "}"
        let bigObject = callText("Lookup", #"{"bundle":"demo","key":"k","placeholders":\#(members)}"#)
        // Added strings with long common prefixes (as many as one message
        // holds), then the whole table.
        let prefix = String(repeating: "p", count: 300)
        var strings = "{"
        for index in 0..<3_000 { strings += "\(index == 0 ? "" : ",")\"\(prefix)\(index)\":\"v\"" }
        strings += "}"
        wire.call(callText("AddStrings", #"{"client":"hostile.q","bundle":"demo","locale":"de","strings":\#(strings)}"#))
        report.saw(wire.receive(timeout: 60))
        let locales = (0..<2000).map {
            "\"\(["de", "fr", "en", "ja", "es", "it", "pt", "ru"][$0 % 8])-\(String(format: "%03d", $0 % 999 + 1))\""
        }.joined(separator: ",")
        let negotiate = callText("Negotiate", #"{"available":[\#(locales)],"preferredLanguages":[\#(locales)]}"#)
        let preferred = (0..<60_000).map { _ in "\"fr-CA\"" }.joined(separator: ",")
        let selection = callText("GetSelection", #"{"client":"hostile.q","bundle":"demo","preferredLanguages":[\#(preferred)]}"#)
        let table = callText("GetTable", #"{"bundle":"demo","client":"hostile.q","locale":"de"}"#)
        callInTurn([bigObject, table, negotiate, selection], on: wire, until: end, timeout: 120, &report)
    }

    /// Values whose output is many times their input.
    static func amplification(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        let wire = try Wire(path: socket)
        let repeated = String(repeating: "%1$@", count: 16_000)
        let widths = String(repeating: "%4096d", count: 10_000)
        let braces = String(repeating: "{a}", count: 8_000)
        wire.call(
            callText(
                "AddStrings",
                #"{"client":"hostile.amp","bundle":"demo","locale":"de","strings":{"r":"\#(repeated)","w":"\#(widths)","b":"\#(braces)"}}"#)
        )
        report.saw(wire.receive())
        wire.call(
            callText(
                "AddStrings",
                #"{"client":"hostile.amp","bundle":"demo","locale":"de","strings":{"LM_grouping_separator":\#(jsonString(String(repeating: "_", count: 64 << 10)))}}"#
            ))
        report.saw(wire.receive())
        let argument = String(repeating: "a", count: 512 << 10)
        let calls = [
            callText(
                "Lookup",
                #"{"bundle":"demo","client":"hostile.amp","locale":"de","key":"r","arguments":[{"string":\#(jsonString(argument))}]}"#),
            callText(
                "Lookup",
                #"{"bundle":"demo","client":"hostile.amp","locale":"de","key":"w","arguments":[\#((0..<10_000).map { _ in #"{"int":1}"# }.joined(separator: ","))]}"#
            ),
            callText(
                "Lookup",
                #"{"bundle":"demo","client":"hostile.amp","locale":"de","key":"b","placeholders":{"a":\#(jsonString(String(repeating: "z", count: 25 << 10)))}}"#
            ),
            callText(
                "Lookup",
                #"{"bundle":"demo","locale":"de","key":\#(jsonString(repeated)),"arguments":[{"string":\#(jsonString(argument))}]}"#),
            callText("Format", #"{"style":"decimal","number":123456789,"bundle":"demo","client":"hostile.amp","locale":"de"}"#),
        ]
        callInTurn(calls, on: wire, until: end, timeout: 60, &report)
    }

    /// Texts whose length was checked after trimming, or in characters.
    static func longTexts(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        let wire = try Wire(path: socket)
        let combining = "$" + String(repeating: "\u{301}", count: 500_000)
        let padded = String(repeating: " ", count: 1_000_000) + "de"
        let calls = [
            callText(
                "SetPreferences", #"{"client":"hostile.long","bundle":"demo","preferences":{"currencySymbol":\#(jsonString(combining))}}"#),
            callText("SelectLocale", #"{"client":"hostile.long","bundle":"demo","locale":\#(jsonString(padded))}"#),
            callText("Lookup", #"{"bundle":\#(jsonString(String(repeating: "b", count: 1_000_000))),"key":"k"}"#),
        ]
        callInTurn(calls, on: wire, until: end, timeout: 60, &report)
    }

    /// Whatever makes lprojd write a log line: refused connections, locale changes.
    static func logFlood(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        // Connections up to the uid's limit (lprojd refuses the rest with an
        // error and a log line each), then one more each round.
        var held: [Wire] = []
        for _ in 0..<1100 {
            guard let wire = try? Wire(path: socket) else { break }
            held.append(wire)
        }
        let accepted = held.filter { $0.receive(timeout: 0.001) == nil && !$0.closedByPeer }
        held = accepted
        guard let wire = held.popLast() else { throw SoakFailure("no connection was accepted") }
        var round = 0
        while !end.isReached(report) {
            round += 1
            if let refused = try? Wire(path: socket) { report.saw(refused.receive(timeout: 1)) }
            wire.call(callText("SelectLocale", #"{"client":"hostile.log","bundle":"demo","locale":"\#(round % 2 == 0 ? "de" : "fr")"}"#))
            report.saw(wire.receive())
            report.calls += 2
        }
        report.note = "\(held.count + 1) connections held open"
    }

    /// Connects and disconnects as fast as it can.
    static func connectionChurn(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        while !end.isReached(report) {
            _ = try? Wire(path: socket)
            report.calls += 1
        }
    }

    // MARK: Round 3: the work a request causes

    /// `%.4096g` over and over: small in bytes, seconds of digits. In a
    /// key answered on the loop (64 KB, pipelined on two connections), and
    /// in one added value looked up by calls of 150 bytes.
    static func formatPrecision(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        let wires = try (0..<2).map { _ in try Wire(path: socket) }
        let setup = wires[0]
        setup.call(
            callText(
                "AddStrings",
                #"{"client":"hostile.precise","bundle":"demo","locale":"de","strings":{"p":"\#(String(repeating: "%1$.4096g", count: 7_000))"}}"#
            ))
        report.saw(setup.receive())
        let big =
            Array(
                callText(
                    "Lookup",
                    #"{"bundle":"demo","locale":"de","key":"\#(String(repeating: "%1$.4096g", count: 7_200))","arguments":[{"float":0.1}]}"#
                ).utf8) + [0]
        let small =
            Array(
                callText("Lookup", #"{"bundle":"demo","client":"hostile.precise","locale":"de","key":"p","arguments":[{"float":0.1}]}"#)
                    .utf8)
            + [0]
        var batch: [UInt8] = []
        for _ in 0..<4 { batch += big }
        for _ in 0..<4 { batch += small }
        while !end.isReached(report) {
            for wire in wires { guard wire.send(batch) else { return } }
            for wire in wires {
                for _ in 0..<8 { report.saw(wire.receive(timeout: 60)) }
                report.calls += 8
            }
        }
    }

    /// Few added values, each 64 KB of control characters (6 bytes each
    /// once escaped): a table small in entries, 23 MB to send; then that
    /// table, over and over, and in a pseudo-locale.
    static func wideTables(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        let wire = try Wire(path: socket)
        let value = jsonString(String(repeating: "\u{1}", count: 64_000))
        for call in 0..<30 {
            let strings = (0..<2).map { "\"w\(call * 2 + $0)\":\(value)" }.joined(separator: ",")
            wire.call(callText("AddStrings", #"{"client":"hostile.wide","bundle":"demo","locale":"de","strings":{\#(strings)}}"#))
            report.saw(wire.receive(timeout: 60))
        }
        let calls = ["de", "en-XA"].map { callText("GetTable", #"{"bundle":"demo","client":"hostile.wide","locale":"\#($0)"}"#) }
        callInTurn(calls, on: wire, until: end, timeout: 60, &report)
    }

    /// Messages over 64 KiB go to the workers. Connections that send one of
    /// 1 MB (a default value of `%.4096g` 111,000 times) and hang up after
    /// 50 ms, as fast as they can; and eight that each keep one waiting.
    static func workerJobs(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        let big =
            Array(
                callText(
                    "Lookup",
                    #"{"bundle":"demo","locale":"de","key":"none","defaultValue":"\#(String(repeating: "%1$.4096g", count: 111_000))","arguments":[{"float":0.1}]}"#
                ).utf8) + [0]
        let holders = try (0..<8).map { _ in try Wire(path: socket) }
        for holder in holders { holder.send(big) }
        var hangingUp: [(wire: Wire, sent: Date)] = []
        var connected = 0
        while !end.isReached(report) {
            if let wire = try? Wire(path: socket) {
                if wire.send(big) { hangingUp.append((wire, Date())) }
                connected += 1
                report.calls += 1
            }
            hangingUp.removeAll { Date().timeIntervalSince($0.sent) >= 0.05 }
            for holder in holders where !holder.closedByPeer && hasInput(holder) {
                report.saw(holder.receive(timeout: 1))
                report.calls += 1
                holder.send(big)
            }
            if hangingUp.count >= 32 { usleep(1_000) }
        }
        report.note = "\(connected) connections sent 1 MB and hung up after 50 ms; 8 kept one waiting"
    }

    /// Subscribers that never read, and oneway changes under a new client
    /// id each time (so nothing merges), as fast as they go.
    static func eventFlood(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        let subscribers = try subscribe(128, filter: "{}", socket)
        let writer = try Wire(path: socket)
        var client = 0
        while !end.isReached(report) {
            var batch: [UInt8] = []
            for _ in 0..<100 {
                client += 1
                let id = "hostile.\(client)"
                batch +=
                    Array(
                        callText("AddStrings", #"{"client":"\#(id)","bundle":"demo","locale":"de","strings":{"k":"v"}}"#, oneway: true).utf8
                    ) + [0]
                batch += Array(callText("RemoveAddedStrings", #"{"client":"\#(id)","bundle":"demo"}"#, oneway: true).utf8) + [0]
            }
            guard writer.send(batch) else { break }
            report.calls += 200
            // One answered call a round, to hear what lprojd says.
            writer.call(callText("AddStrings", #"{"client":"hostile.asked","bundle":"demo","locale":"de","strings":{"k":"\#(client)"}}"#))
            report.saw(writer.receive(timeout: 30))
            report.calls += 1
        }
        report.closed = subscribers.filter { $0.closedByPeer || hasInput($0) && $0.receive(timeout: 0) == nil }.count
        report.note = "\(subscribers.count) subscribers never read"
    }

    /// Format with ever new templates, patterns, time zones and locales:
    /// each a formatter opened and cached.
    static func formatCaches(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        let wire = try Wire(path: socket)
        let fields = [
            "y", "yy", "yyyy", "M", "MM", "MMM", "MMMM", "d", "dd", "E", "EEEE", "h", "H", "mm", "ss", "a", "z", "zzzz", "Q", "w",
        ]
        let zones =
            (1...12).map { "Etc/GMT+\($0)" } + (1...14).map { "Etc/GMT-\($0)" }
            + ["Europe/Paris", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "Africa/Cairo", "America/Sao_Paulo"]
        let locales = ["de", "fr", "ja", "en", "es", "it", "pt-BR", "ru", "zh-Hans", "ar", "hi", "ko", "tr", "pl", "nl", "sv"]
        var round = 0
        while !end.isReached(report) {
            round += 1
            let template = (0..<4).map { fields[(round * (3 + $0 * 7)) % fields.count] }.joined()
            let zone = zones[round % zones.count], locale = locales[(round / zones.count) % locales.count]
            let calls = [
                callText(
                    "Format",
                    #"{"style":"template","template":"\#(template)","date":1700000000,"timeZone":"\#(zone)","bundle":"demo","locale":"\#(locale)"}"#
                ),
                callText(
                    "Format",
                    #"{"style":"pattern","pattern":"'r\#(round)' yyyy-MM-dd HH:mm","date":1700000000,"timeZone":"\#(zone)","bundle":"demo","locale":"\#(locale)"}"#
                ),
            ]
            for call in calls {
                guard wire.call(call) else { return }
                report.saw(wire.receive(timeout: 30))
                report.calls += 1
            }
        }
    }

    /// Subscriptions of one uid, each on a connection of its own, until
    /// `count` or the first lprojd does not answer.
    private static func subscribe(_ count: Int, filter: String, _ socket: String) throws -> [Wire] {
        var subscribers: [Wire] = []
        for _ in 0..<count {
            let wire = try Wire(path: socket)
            wire.call(callText("Subscribe", filter, more: true))
            guard wire.receive() != nil else { break }
            subscribers.append(wire)
        }
        return subscribers
    }

    /// Sends each call in turn, waiting for each reply, until the deadline
    /// (or until lprojd closes the connection).
    private static func callInTurn(_ calls: [String], on wire: Wire, until end: Deadline, timeout: Double, _ report: inout Report) {
        while !end.isReached(report) {
            for call in calls {
                guard wire.call(call) else { return }
                report.saw(wire.receive(timeout: timeout))
                report.calls += 1
            }
        }
    }

    private static func hasInput(_ wire: Wire) -> Bool {
        var poller = pollfd(fd: wire.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) > 0
    }
}

/// A count shared with a reader thread.
final class EventCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var done = false
    func add(_ value: Int) { lock.withLock { count += value } }
    func stop() { lock.withLock { done = true } }
    var value: Int { lock.withLock { count } }
    var stopped: Bool { lock.withLock { done } }
}
