import ArgumentParser

/// lprojctl: the command-line client of lprojd, and an offline linter.
@main
struct LprojCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lprojctl",
        abstract: "Query and control lprojd, and check Apple localization tables.",
        discussion: """
        Offline commands (no daemon needed): lint, dump.
        """,
        subcommands: [Lint.self, Dump.self]
    )
}
