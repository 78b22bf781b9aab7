/// Where lprojd puts things when it is not told.
package enum DefaultPaths {
    /// The socket's name, after its interface, as systemd names its sockets.
    package static let socketName = "org.lprojd.Localization"

    /// `/run/lprojd/org.lprojd.Localization` as root, otherwise
    /// `$XDG_RUNTIME_DIR/lprojd/org.lprojd.Localization`.
    package static func socket(environment: [String: String], isRoot: Bool) -> String? {
        if isRoot { return "/run/lprojd/\(socketName)" }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        return "\(runtime)/lprojd/\(socketName)"
    }

    /// `$STATE_DIRECTORY` (systemd's `StateDirectory=`; the first of a
    /// ':'-separated list), then `$XDG_STATE_HOME/lprojd`, then
    /// `~/.local/state/lprojd`.
    package static func stateDirectory(environment: [String: String]) -> String? {
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, state.hasPrefix("/") { return String(state) }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return "\(xdg)/lprojd" }
        if let home = environment["HOME"], home.hasPrefix("/") { return "\(home)/.local/state/lprojd" }
        return nil
    }

    /// The configuration files lprojd looks for without `--config`, in
    /// order; it reads the first that exists. A user's own
    /// (`$XDG_CONFIG_HOME/lprojd/lprojd.conf`, else
    /// `~/.config/lprojd/lprojd.conf`) comes before the system's, so that a
    /// per-user lprojd (`systemctl --user`) can serve its own bundles; root
    /// reads only the system's.
    package static func configurationFiles(environment: [String: String], isRoot: Bool) -> [String] {
        var files: [String] = []
        if !isRoot {
            if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
                files.append("\(xdg)/lprojd/lprojd.conf")
            } else if let home = environment["HOME"], home.hasPrefix("/"), home != "/" {
                files.append("\(home)/.config/lprojd/lprojd.conf")
            }
        }
        files.append(ConfigurationFile.defaultPath)
        return files
    }
}
