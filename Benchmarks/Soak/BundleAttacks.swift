import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A bundle directory the attacker may write (its own build folder, or a
/// folder an administrator registered), and what it tries to reach.
struct HostileFiles {
    /// The bundle's directory.
    let directory: String
    /// The bundle's name in lprojd.
    let bundle: String
    /// Another user's private folder, for the swap.
    let swapTarget: String?
}

/// The fourth hardening round's attacks through a bundle's files, and its
/// far dates.
extension Attack {
    /// `mkdir` and `rmdir` of folders in the bundle, as fast as they go, in
    /// a bundle the size of a real app's (60 locales of 20 tables, and
    /// folders of resources): a walk of the whole bundle per event once
    /// held every bundle's reloads, the drop-ins and the watchdog for
    /// minutes.
    static func directoryChurn(_ files: HostileFiles, _ end: Deadline, _ report: inout Report) throws {
        for locale in Self.sixtyLocales {
            let folder = files.directory + "/\(locale).lproj"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for table in 0..<20 {
                try Data("\"t\(table)\" = \"\(locale) \(table)\";\n".utf8).write(to: URL(fileURLWithPath: folder + "/T\(table).strings"))
            }
        }
        for group in 0..<16 {
            for item in 0..<12 {
                try FileManager.default.createDirectory(
                    atPath: files.directory + "/Resources/group\(group)/item\(item)", withIntermediateDirectories: true)
            }
        }
        let folders = ["churn", "churn.lproj", "de.lproj/churn", "Resources/group0/churn"].map { files.directory + "/" + $0 }
        while !end.isReached(report) {
            for folder in folders {
                if mkdir(folder, 0o755) == 0 { report.calls += 1 }
                if rmdir(folder) == 0 { report.calls += 1 }
            }
        }
        report.note = "\(report.calls) mkdir and rmdir of folders in one bundle"
    }

    /// One 16 MiB table hard-linked into 60 locale folders (lprojd once
    /// grew by 1.2 GiB reading it 60 times), then hard links of a 32 MB
    /// table renamed over 8 tables in a loop.
    static func bundleBloat(_ files: HostileFiles, _ end: Deadline, _ report: inout Report) throws {
        let staging = files.directory + "/.staging"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let big = staging + "/Big.strings", huge = staging + "/Huge.strings"
        try Self.writeTable(big, bytes: 16 << 20)
        try Self.writeTable(huge, bytes: 32_000_000)
        var folders = 0
        for locale in Self.sixtyLocales {
            let folder = files.directory + "/\(locale).lproj"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if link(big, folder + "/Big.strings") == 0 { folders += 1 }
        }
        try FileManager.default.createDirectory(atPath: files.directory + "/en.lproj", withIntermediateDirectories: true)
        var renames = 0
        while !end.isReached(report) {
            for table in 0..<8 {
                let temporary = staging + "/link\(table)"
                unlink(temporary)
                guard link(huge, temporary) == 0 else { continue }
                if rename(temporary, files.directory + "/en.lproj/Table\(table).strings") == 0 { renames += 1 }
            }
            report.calls = folders + renames
            usleep(1_000)
        }
        report.note = "a 16 MiB table linked into \(folders) locale folders; \(renames) renames of a 32 MB table over 8 tables"
    }

    /// A folder of 100,000 tables moved into the bundle and out again, as
    /// fast as it goes (one such move once delayed other bundles' reloads
    /// by 6 s).
    static func tableFlood(_ files: HostileFiles, _ end: Deadline, _ report: inout Report) throws {
        let staging = files.directory + "/.staging/sv.lproj"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let table = Array("\"k\" = \"v\";\n".utf8)
        var made = 0
        // The folder is made whole, however long a loaded machine takes:
        // the attack is its moves, at least one in and out.
        for index in 0..<100_000 {
            let descriptor = open(staging + "/T\(index).strings", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { break }
            _ = table.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            made += 1
        }
        let inside = files.directory + "/sv.lproj"
        var moves = 0
        repeat {
            guard rename(staging, inside) == 0 else { break }
            usleep(50_000)
            guard rename(inside, staging) == 0 else { break }
            moves += 1
            report.calls = moves
        } while !end.isReached(report)
        report.note = "a folder of \(made) tables moved in and out \(moves) times"
    }

    /// The bundle's directory renamed away and a link to another user's
    /// private folder put in its place, then back, in a loop, while its
    /// lookups and tables are read: lprojd once served the private text.
    static func directorySwap(_ files: HostileFiles, _ socket: String, _ end: Deadline, _ report: inout Report) throws {
        guard let target = files.swapTarget else { throw SoakFailure("directory-swap needs --swap-target DIR") }
        let wire = try Wire(path: socket)
        let bundle = jsonString(files.bundle)
        let calls = [
            callText("Lookup", #"{"bundle":\#(bundle),"key":"welcome.title","locale":"en"}"#),
            callText("GetTable", #"{"bundle":\#(bundle),"table":"Localizable","locale":"en"}"#),
        ]
        let away = files.directory + ".away"
        var swaps = 0, leaked = 0, answers = 0
        while !end.isReached(report) {
            guard rename(files.directory, away) == 0, symlink(target, files.directory) == 0 else { break }
            swaps += 1
            // Read while the link is in place, a little after lprojd has seen it.
            usleep(20_000)
            for call in calls {
                guard wire.call(call) else { break }
                let reply = wire.receive(timeout: 30)
                report.saw(reply)
                answers += 1
                if reply?.contains("SECRET") == true { leaked += 1 }
            }
            unlink(files.directory)
            guard rename(away, files.directory) == 0 else { break }
            usleep(20_000)
            report.calls = swaps
        }
        report.leaked = leaked
        report.note = "\(swaps) swaps for a link to another user's 0700 folder; \(leaked) of \(answers) answers held its text"
    }

    /// The bundle's directory renamed away and back, as fast as it goes:
    /// each is a line of lprojd's log ("gone", "back") unless limited.
    static func bundleRenames(_ files: HostileFiles, _ end: Deadline, _ report: inout Report) throws {
        let away = files.directory + ".away"
        while !end.isReached(report) {
            guard rename(files.directory, away) == 0 else { break }
            guard rename(away, files.directory) == 0 else { break }
            report.calls += 1
        }
        report.note = "\(report.calls) renames of the bundle's directory away and back"
    }

    /// Pipelined Formats of dates far away in every calendar: ICU's
    /// arithmetic grows with the distance (islamic-umalqura at 10¹⁴ s once
    /// held a loop 33–84 ms a call).
    static func calendarWork(_ socket: String, _ end: Deadline, _ report: inout Report) throws {
        let wire = try Wire(path: socket)
        let calendars = [
            "islamic-umalqura", "chinese", "dangi", "hebrew", "japanese", "persian", "coptic", "ethiopic", "indian", "islamic",
        ]
        let dates = ["9.9e13", "9.99e12", "1e11", "-1e11"]
        var batch: [UInt8] = []
        for calendar in calendars {
            for date in dates {
                batch +=
                    Array(
                        callText(
                            "Format",
                            #"{"style":"pattern","pattern":"EEEE d MMMM y G U r h:mm a zzzz","date":\#(date),"locale":"ar","timeZone":"UTC","calendar":"\#(calendar)"}"#
                        ).utf8) + [0]
            }
        }
        let count = calendars.count * dates.count
        while !end.isReached(report) {
            guard wire.send(batch) else { break }
            for _ in 0..<count {
                report.saw(wire.receive(timeout: 30))
                report.calls += 1
            }
        }
        report.note = "batches of \(count) Formats: \(calendars.count) calendars at \(dates.joined(separator: ", ")) s"
    }

    /// A table of about `bytes` bytes, every key its own.
    static func writeTable(_ path: String, bytes: Int) throws {
        var text: [UInt8] = []
        text.reserveCapacity(bytes + 64)
        var index = 0
        while text.count < bytes {
            text += Array("\"key.\(index)\" = \"a value of some length, number \(index)\";\n".utf8)
            index += 1
        }
        try Data(text).write(to: URL(fileURLWithPath: path))
    }

    static let sixtyLocales = [
        "de", "fr", "es", "it", "ja", "ko", "nl", "pt", "ru", "sv", "da", "fi", "nb", "pl", "cs", "sk", "hu", "ro", "bg", "el",
        "tr", "he", "ar", "fa", "hi", "bn", "th", "vi", "id", "ms", "uk", "hr", "sl", "sr", "lt", "lv", "et", "ca", "eu", "gl",
        "is", "ga", "cy", "mt", "sq", "mk", "ka", "hy", "az", "kk", "uz", "mn", "ne", "si", "ta", "te", "kn", "ml", "mr", "zu",
    ]
}
