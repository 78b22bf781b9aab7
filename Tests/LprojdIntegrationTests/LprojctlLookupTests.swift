import Foundation
import Testing

/// `lprojctl lookup` as scripts run it: the plain forms are answered on a
/// blocking socket without the argument parser (`QuickLookup`); the rest,
/// and every failure, go through the parser. Both must print the same.
@Suite struct LprojctlLookupTests {
    static let files = [
        "en.lproj/Localizable.strings": """
        "title" = "Title";
        "files" = "%d files in %@";
        "hello" = "Hello, {name}!";
        """,
        "de.lproj/Localizable.strings": "\"title\" = \"Titel\";\n\"files\" = \"%d Dateien in %@\";\n",
    ]

    @Test func plainLookupsAnswerAsTheParserDoes() async throws {
        let daemon = try await DaemonProcess(files: Self.files)
        let ctl = DaemonProcess.binaries.appendingPathComponent("lprojctl").path
        func lprojctl(_ arguments: [String]) async throws -> Finished {
            try await run(ctl, ["lookup"] + arguments + ["--socket", daemon.socket])
        }
        let titel = try await lprojctl(["demo", "title", "--locale", "de"])
        #expect(titel.status == 0 && titel.output == "Titel\n" && titel.errors.isEmpty)
        #expect(try await lprojctl(["demo", "title", "--locale=de"]).output == "Titel\n")
        #expect(try await lprojctl(["--locale", "de", "demo", "title"]).output == "Titel\n")
        #expect(
            try await lprojctl(["demo", "files", "--locale", "de", "--arg", "3", "--arg", "Downloads"]).output == "3 Dateien in Downloads\n"
        )
        #expect(try await lprojctl(["demo", "hello", "--placeholder", "name=Ada"]).output == "Hello, Ada!\n")
        let missing = try await lprojctl(["demo", "nothing.here", "--default", "Fallback"])
        #expect(missing.status == 0 && missing.output == "Fallback\n" && missing.errors == "(not found: the default is shown)\n")
        // The parser's forms answer the same.
        let json = try await lprojctl(["demo", "title", "--locale", "de", "--json"])
        #expect(json.status == 0 && json.output.contains(#""value" : "Titel""#))
        #expect(try await lprojctl(["demo", "title", "-h"]).output.contains("USAGE: lprojctl lookup"))
    }

    @Test func aLookupDoesNotLoadICUWhichOtherCommandsOpenWhenTheyNeedIt() async throws {
        let daemon = try await DaemonProcess(files: Self.files)
        let ctl = DaemonProcess.binaries.appendingPathComponent("lprojctl").path
        // The dynamic loader names each file it loads, dlopen's too.
        let loaderLog = ["LD_DEBUG": "files"]
        let lookup = try await run(ctl, ["lookup", "demo", "title", "--locale", "de", "--socket", daemon.socket], environment: loaderLog)
        #expect(lookup.output == "Titel\n")
        #expect(lookup.errors.contains("file=libc.so.6"), "no loader log: \(lookup.errors.prefix(300))")
        #expect(!lookup.errors.contains("libicui18n"), "a lookup loaded ICU")
        // lint asks ICU which languages it knows: ICU is opened then.
        let lint = try await run(ctl, ["lint", daemon.bundleDirectory.path], environment: loaderLog)
        #expect(lint.errors.contains("file=libicui18n.so"), "lint did not open ICU")
    }

    /// "1 bundle", not "1 bundles": lprojctl's own output is English, with
    /// English plurals.
    @Test func statusCountsInTheSingularForOne() async throws {
        let daemon = try await DaemonProcess(files: ["en.lproj/Localizable.strings": "\"title\" = \"Title\";\n"])
        let ctl = DaemonProcess.binaries.appendingPathComponent("lprojctl").path
        let status = try await run(ctl, ["status", "--socket", daemon.socket])
        #expect(status.status == 0, "\(status.errors)")
        let lines = status.output.split(separator: "\n").map(String.init)
        #expect(lines.count >= 3 && lines[1] == "1 bundle, 1 table, 1 entry", "\(status.output)")
        // Its own connection is the one.
        #expect(lines.count >= 3 && lines[2] == "1 connection, 0 subscribers, 0 saved selections", "\(status.output)")
        let bundles = try await run(ctl, ["bundles", "--socket", daemon.socket])
        #expect(bundles.output.contains("; 1 entry; generation"), "\(bundles.output)")
    }

    @Test func failuresAreReportedByTheParserPath() async throws {
        let daemon = try await DaemonProcess(files: Self.files)
        let ctl = DaemonProcess.binaries.appendingPathComponent("lprojctl").path
        let unknown = try await run(ctl, ["lookup", "nosuch", "title", "--socket", daemon.socket])
        #expect(unknown.status != 0 && unknown.output.isEmpty && unknown.errors.contains("nosuch"), "\(unknown.errors)")
        let gone = try await run(ctl, ["lookup", "demo", "title", "--socket", daemon.directory.appendingPathComponent("none").path])
        #expect(gone.status != 0 && gone.errors.contains("cannot connect to lprojd"), "\(gone.errors)")
        let malformed = try await run(ctl, ["lookup", "demo", "title", "--placeholder", "noequals", "--socket", daemon.socket])
        #expect(malformed.status != 0 && malformed.errors.contains("expected name=value"), "\(malformed.errors)")
    }
}
