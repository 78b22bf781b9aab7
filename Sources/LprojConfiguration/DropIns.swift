package import LprojEngine

/// A bundle to serve, and where it is defined: a file (`lprojd.conf` or a
/// drop-in) or `--bundle`.
package struct SourcedBundle: Sendable, Hashable {
    /// The bundle.
    package var configuration: BundleConfiguration
    /// The file that defines it, or `--bundle`.
    package var source: String

    /// A bundle from a source.
    package init(_ configuration: BundleConfiguration, source: String) {
        self.configuration = configuration
        self.source = source
    }

    /// The bundle's name.
    package var name: String { configuration.name }
}

/// One drop-in file, as lprojd last read it.
package struct DropInRecord: Sendable, Hashable {
    /// What lprojd made of it.
    package enum State: Sendable, Hashable {
        /// Read: a bundle, or a mask.
        case read(DropInFile.Content)
        /// It does not parse: the error, and what the file said when it
        /// last did (nil if it never did), which is served meanwhile.
        case invalid(ConfigurationError, lastGood: DropInFile.Content?)
        /// It may not be taken (``DropInTrust``), for this reason: lprojd
        /// acts as if it were not there.
        case refused(String)
    }

    /// The file's path.
    package var path: String
    /// What it says.
    package var state: State

    /// A record.
    package init(path: String, state: State) {
        self.path = path
        self.state = state
    }

    /// What lprojd serves from it: its content, or its last good content
    /// while it does not parse. A refused file counts for nothing.
    var content: DropInFile.Content? {
        switch state {
        case .read(let content): content
        case .invalid(_, let lastGood): lastGood
        case .refused: nil
        }
    }

    /// Whether the file takes part in precedence: every file lprojd may
    /// take, even one that does not parse (it still overrides the files of
    /// lower precedence, as the administrator meant it to).
    var counts: Bool {
        if case .refused = state { return false }
        return true
    }
}

/// The drop-in files of every drop-in directory, and which bundles they
/// make lprojd serve. Pure: what is on disk is read by ``DropInReader``.
///
/// Precedence: a bundle in `lprojd.conf` or given with `--bundle` wins over
/// any drop-in of its name. Among drop-ins, the directory listed first wins
/// (`/etc/lprojd/bundles.d` over the packages'), and its file replaces the
/// others of the same name whole, as with systemd's units: settings are not
/// merged. Each bundle defined twice is one warning, which names the files.
package struct DropIns: Sendable, Hashable {
    /// The drop-in directories, the one that wins first.
    package let directories: [String]
    /// For each directory, its drop-ins by bundle name.
    package var files: [[String: DropInRecord]]

    /// No drop-ins yet, in these directories.
    package init(directories: [String]) {
        self.directories = directories
        self.files = directories.map { _ in [:] }
    }

    /// Every record, directory by directory.
    package var records: [DropInRecord] { files.flatMap { $0.values.sorted { $0.path < $1.path } } }

    /// Reads every drop-in directory (a missing one has no drop-ins).
    package static func read(directories: [String], reader: DropInReader) -> DropIns {
        var dropIns = DropIns(directories: directories)
        for (index, directory) in directories.enumerated() { dropIns.files[index] = reader.readDirectory(directory) ?? [:] }
        return dropIns
    }

    /// What lprojd serves, given the bundles of `lprojd.conf` and
    /// `--bundle`; and a warning for each drop-in not used because another
    /// source defines its bundle, which names both.
    package func resolve(configured: [SourcedBundle]) -> (bundles: [SourcedBundle], warnings: [ConfigurationWarning]) {
        var bundles = configured
        var warnings: [ConfigurationWarning] = []
        let configuredSources = Dictionary(configured.map { ($0.name, $0.source) }, uniquingKeysWith: { first, _ in first })
        let names = Set(files.flatMap(\.keys))
        for name in names.sorted() {
            let candidates = files.compactMap { $0[name] }.filter(\.counts)
            guard let winner = candidates.first else { continue }
            if let source = configuredSources[name] {
                for unused in candidates {
                    warnings.append(
                        ConfigurationWarning(
                            file: unused.path, message: "not used: \(source) defines the bundle '\(name)', and wins over drop-ins"))
                }
                continue
            }
            let verb = winner.content == .masked ? "masks" : "overrides"
            for unused in candidates.dropFirst() {
                warnings.append(ConfigurationWarning(file: unused.path, message: "not used: \(winner.path) \(verb) it"))
            }
            if case .bundle(let configuration)? = winner.content {
                bundles.append(SourcedBundle(configuration, source: winner.path))
            }
        }
        return (bundles, warnings)
    }

    /// The drop-ins lprojd cannot take: an error for each that does not
    /// parse, a warning for each refused.
    package var problems: (errors: [ConfigurationError], warnings: [ConfigurationWarning]) {
        var errors: [ConfigurationError] = []
        var warnings: [ConfigurationWarning] = []
        for record in records {
            switch record.state {
            case .read: break
            case .invalid(let error, _): errors.append(error)
            case .refused(let reason): warnings.append(ConfigurationWarning(file: record.path, message: "refused: \(reason)"))
            }
        }
        return (errors, warnings)
    }
}
