import ArgumentParser
import Foundation
import LprojClient
import VarlinkProtocol

/// How to reach lprojd and how to print, shared by the daemon commands.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "lprojd's socket (default: $LPROJD_SOCKET, then the user's, then the system's).")
    var socket: String?

    @Flag(help: "Print JSON, for scripts.")
    var json = false

    /// Runs `body` with a connected client, turning failures into one line
    /// on stderr and a non-zero exit.
    func withClient(_ body: (LprojClient) async throws -> Void) async throws {
        let path = socket ?? LprojClient.defaultSocketPath()
        let client: LprojClient
        do {
            client = try await LprojClient.connect(path: path)
        } catch {
            throw CommandError("cannot connect to lprojd at \(path): \(Self.reason(error)) (is it running? see --socket)")
        }
        do {
            try await body(client)
            await client.close()
        } catch let error as LprojError {
            await client.close()
            throw CommandError(error.description)
        } catch let error as CommandError {
            await client.close()
            throw error
        } catch {
            await client.close()
            throw CommandError("\(error)")
        }
    }

    static func reason(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("connect(descriptor:addr:size:)") || text.contains("No such file") || text.contains("ENOENT") {
            return "no socket there"
        }
        if text.contains("Connection refused") || text.contains("ECONNREFUSED") { return "connection refused" }
        if text.contains("Permission denied") { return "permission denied" }
        return text
    }

    /// Prints a reply (or any of the interface's values) as the JSON lprojd
    /// sent, indented, keys in code-point order.
    func printJSON(_ value: some VarlinkValue) {
        Output.write(Data(JSONWriter.encodePretty(value.varlinkValue)))
    }
}
