/// The table files of a bundle directory, as bytes by their path relative
/// to it: what export reads and import edits. The command line reads the
/// disk; everything here is given bytes and returns bytes.
package struct ExchangeBundle: Sendable {
    /// `*.lproj/*.strings`, `*.lproj/*.stringsdict` and `*.xcstrings`, by relative path.
    package var files: [String: [UInt8]]
    /// The development language's folder name without `.lproj` (`en`, `Base`).
    package var developmentFolder: String

    /// Creates a bundle.
    package init(files: [String: [UInt8]], developmentFolder: String) {
        self.files = files
        self.developmentFolder = developmentFolder
    }

    /// The paths of the table files of one `.lproj` folder, sorted.
    func tables(inFolder folder: String) -> [String] {
        let prefix = folder + ".lproj/"
        return files.keys.filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }.sorted()
    }

    /// The String Catalogs, sorted by path.
    var catalogs: [String] {
        files.keys.filter { $0.hasSuffix(".xcstrings") }.sorted()
    }

    /// The `.lproj` folder names (without the extension), sorted.
    var folders: [String] {
        var names: Set<String> = []
        for path in files.keys {
            guard let slash = path.firstIndex(of: "/") else { continue }
            let folder = path[..<slash]
            if folder.hasSuffix(".lproj") && !path[path.index(after: slash)...].contains("/") { names.insert(String(folder.dropLast(6))) }
        }
        return names.sorted()
    }
}
