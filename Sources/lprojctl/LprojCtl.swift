import ArgumentParser
import LprojVersion

/// lprojctl: a plain `lookup` is answered at once (``QuickLookup``);
/// everything else goes through the argument parser.
@main
enum Entry {
    static func main() async {
        if QuickLookup.answer(CommandLine.arguments) { return }
        await LprojCtl.main()
    }
}

/// lprojctl: the command-line client of lprojd, and an offline linter.
struct LprojCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lprojctl",
        abstract: "Query and control lprojd, and check Apple localization tables.",
        discussion: """
            Daemon commands reach lprojd through --socket, $LPROJD_SOCKET, the
            user's socket ($XDG_RUNTIME_DIR/lprojd/) or the system's (/run/lprojd/).
            Offline commands (no daemon needed): lint, dump, compile, coverage, extract,
            export-localizations, import-localizations, po.
            """,
        version: LprojVersion.current,
        subcommands: [
            LookupCommand.self, TableCommand.self, SelectionCommand.self, SelectCommand.self, ResetCommand.self,
            BundlesCommand.self, NegotiateCommand.self, WatchCommand.self, StatusCommand.self, ReloadCommand.self,
            FormatCommand.self, ParseDateCommand.self, PreferencesCommand.self, LocalesCommand.self, MissesCommand.self,
            AppsCommand.self, Lint.self, Dump.self, Compile.self, CoverageCommand.self, ExtractCommand.self,
            ExportLocalizations.self, ImportLocalizations.self, POCommand.self, SnapshotCommand.self,
        ]
    )
}
