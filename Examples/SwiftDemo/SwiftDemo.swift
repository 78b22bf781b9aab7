// lproj-swift-demo: a terminal app on the Swift localizer, for the demo bundle.
//
//   swift run lproj-swift-demo [--socket PATH] [--client ID]
//
// It prints what a window would show, as one JSON line at start and again
// after every change the localizer tells it of (a language chosen here or by
// another process, an edited table, lprojd lost and found again), and takes
// commands on standard input: `select LOCALE`, `reset`, `quit`; the end of
// input quits too. Every string comes from the localizer's mirror, in
// process. The tests drive it (clients/python/tests/test_example_apps.py).
import Foundation
import LprojClient
import LprojLocalizer

@main
struct SwiftDemo {
    static func main() async {
        var socket: String?
        var client = "org.lprojd.SwiftDemo"
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--socket": socket = arguments.next()
            case "--client": client = arguments.next() ?? client
            default:
                FileHandle.standardError.write(Data("usage: lproj-swift-demo [--socket PATH] [--client ID]\n".utf8))
                exit(2)
            }
        }
        let localizer: Localizer
        do {
            localizer = try await Localizer.start(bundle: "demo", client: client, socketPath: socket)
        } catch {
            FileHandle.standardError.write(Data("lproj-swift-demo: \(error)\n".utf8))
            exit(1)
        }
        // Subscribed before the first render, so that no change falls between.
        let changes = localizer.changes()
        Screen.render(localizer, number: 0, reasons: [])

        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var number = 0
                for await change in changes {
                    number += 1
                    Screen.render(localizer, number: number, reasons: Screen.names(of: change.reasons))
                }
            }
            for await command in Commands.standardInput() {
                let words = command.split(separator: " ").map(String.init)
                do {
                    switch words.first {
                    case "select" where words.count == 2: try await localizer.select(words[1])
                    case "reset": try await localizer.reset()
                    case "quit": group.cancelAll()
                    default: Screen.report("unknown command: \(command)")
                    }
                } catch {
                    Screen.report("\(command): \(error)")
                }
                if words.first == "quit" { break }
            }
            group.cancelAll()
        }
        await localizer.close()
    }
}

/// What the app shows, one JSON line per render.
enum Screen {
    static func render(_ localizer: Localizer, number: Int, reasons: [String]) {
        let files: String
        do {
            files = try localizer.localized("files.selected", arguments: [.integer(3)])
        } catch {
            files = "(\(error))"
        }
        let labels = [
            "title": localizer.localized("welcome.title"),
            "greeting": localizer.localized("greeting", placeholders: ["name": "Ada"]),
            "settings": localizer.localized("settings.title"),
            "menu.file": localizer.localized("menu.file", table: "Menu"),
            "files": files,
        ]
        let record: [String: Any] = [
            "event": "render", "render": number, "reasons": reasons, "locale": localizer.locale,
            "source": "\(localizer.source)", "labels": labels,
        ]
        write(record)
    }

    static func report(_ message: String) {
        write(["event": "error", "message": message])
    }

    static func names(of reasons: LocalizerChange.Reasons) -> [String] {
        let named: [(LocalizerChange.Reasons, String)] = [
            (.locale, "locale"), (.tables, "tables"), (.locales, "locales"), (.preferences, "preferences"),
            (.bundle, "bundle"), (.reconnected, "reconnected"), (.disconnected, "disconnected"),
        ]
        return named.filter { reasons.contains($0.0) }.map(\.1)
    }

    private static func write(_ record: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) else { return }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}

/// Standard input's lines, read on a thread of their own (a blocking read
/// must not hold one of the few threads that run Swift's tasks).
enum Commands {
    static func standardInput() -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream<String>.makeStream()
        Thread.detachNewThread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
        return lines
    }
}
