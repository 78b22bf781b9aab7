/// Which lprojd this is: the system's, which serves every user, or one
/// user's (`systemctl --user`). It decides the default paths and whose
/// drop-in files are trusted.
package enum DaemonInstance: Sendable, Hashable {
    /// Root, or started with `--system` (the system unit runs lprojd as a
    /// dynamic user, which is not root).
    case system
    /// Any other user's lprojd.
    case user(uid: UInt32)

    /// The system's when `uid` is root's or `system` is set, else `uid`'s.
    package static func of(uid: UInt32, system: Bool) -> DaemonInstance {
        uid == 0 || system ? .system : .user(uid: uid)
    }
}

/// Where lprojd puts things when it is not told.
package enum DefaultPaths {
    /// The socket's name, after its interface, as systemd names its sockets.
    package static let socketName = "org.lprojd.Localization"

    /// `/run/lprojd/org.lprojd.Localization` for the system, otherwise
    /// `$XDG_RUNTIME_DIR/lprojd/org.lprojd.Localization`.
    package static func socket(environment: [String: String], instance: DaemonInstance) -> String? {
        if instance == .system { return "/run/lprojd/\(socketName)" }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        return "\(runtime)/lprojd/\(socketName)"
    }

    /// Where lprojd writes the snapshots clients map: `$RUNTIME_DIRECTORY`
    /// (systemd's `RuntimeDirectory=`, the first of a ':'-separated list),
    /// else `$XDG_RUNTIME_DIR/lprojd/snapshots`; nil without either.
    package static func snapshotDirectory(environment: [String: String]) -> String? {
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first, runtime.hasPrefix("/") { return String(runtime) }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        return "\(runtime)/lprojd/snapshots"
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
    /// per-user lprojd (`systemctl --user`) can serve its own bundles; the
    /// system's lprojd reads only the system's.
    package static func configurationFiles(environment: [String: String], instance: DaemonInstance) -> [String] {
        var files: [String] = []
        if instance != .system {
            if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
                files.append("\(xdg)/lprojd/lprojd.conf")
            } else if let home = home(environment) {
                files.append("\(home)/.config/lprojd/lprojd.conf")
            }
        }
        files.append(ConfigurationFile.defaultPath)
        return files
    }

    /// The administrator's drop-in directory, which wins over every other.
    package static let administratorDropIns = "/etc/lprojd/bundles.d"
    /// Where packages put their drop-in files: locally built ones, then the
    /// distribution's (as systemd orders `/usr/local/lib` before `/usr/lib`).
    package static let packageDropIns = ["/usr/local/share/lprojd/bundles.d", "/usr/share/lprojd/bundles.d"]

    /// The directories of drop-in bundle files, the one that wins first.
    /// The system's lprojd reads `/etc/lprojd/bundles.d`, then
    /// `/usr/local/share/lprojd/bundles.d` and `/usr/share/lprojd/bundles.d`.
    /// A user's reads `/etc/lprojd/bundles.d`, then its user's
    /// `$XDG_DATA_HOME/lprojd/bundles.d` (`~/.local/share`), then
    /// `lprojd/bundles.d` in each of `$XDG_DATA_DIRS` (`/usr/local/share:/usr/share`),
    /// then the system's package directories not yet named: the order in
    /// which systemd's user manager reads unit directories. Relative paths
    /// in the environment are ignored, as the XDG specification says.
    package static func dropInDirectories(environment: [String: String], instance: DaemonInstance) -> [String] {
        var directories = [administratorDropIns]
        if instance != .system {
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
                directories.append("\(data)/lprojd/bundles.d")
            } else if let home = home(environment) {
                directories.append("\(home)/.local/share/lprojd/bundles.d")
            }
            let dataDirectories = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
            for data in dataDirectories.split(separator: ":") where data.hasPrefix("/") {
                directories.append("\(data.hasSuffix("/") ? String(data.dropLast()) : String(data))/lprojd/bundles.d")
            }
        }
        directories += packageDropIns
        var seen: Set<String> = []
        return directories.filter { seen.insert($0).inserted }
    }

    /// `$HOME`, unless it is missing, relative or `/` (systemd's dynamic
    /// users have `HOME=/`).
    private static func home(_ environment: [String: String]) -> String? {
        guard let home = environment["HOME"], home.hasPrefix("/"), home != "/" else { return nil }
        return home
    }
}
