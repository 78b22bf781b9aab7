/// The files the engine and the linter read, as paths.
///
/// The engine never touches the disk itself: it is given a `FileTree`.
/// `LprojFiles.DiskFileTree` is the real one; ``InMemoryFileTree`` holds
/// files in memory, for tests and fuzzers. Paths are `/`-separated; a
/// tree decides what they are relative to.
package protocol FileTree: Sendable {
    /// What is at a path, or `nil` when nothing is (or it cannot be seen).
    func entry(at path: String) -> FileTreeEntry?
    /// The names in a directory (not `.` and `..`), sorted by their UTF-8
    /// bytes; past `limit` of them, ``FileTreeError/tooManyEntries(limit:)``
    /// (a folder of a million names is not read to its end).
    func names(in directory: String, limit: Int) throws(FileTreeError) -> [String]
    /// The bytes of a regular file, refused (without reading it) past
    /// `maximumSize`. With a `root`, a file whose real path (symbolic links
    /// followed) is not inside that directory is refused, unread: a bundle
    /// serves its own files, never what a link in it points at elsewhere.
    func read(_ path: String, maximumSize: Int, within root: String?) throws(FileTreeError) -> [UInt8]
}

extension FileTree {
    /// The names in a directory, however many.
    package func names(in directory: String) throws(FileTreeError) -> [String] {
        try names(in: directory, limit: .max)
    }

    /// The bytes of a file, wherever it is (the linter's reads: the user's own).
    package func read(_ path: String, maximumSize: Int) throws(FileTreeError) -> [UInt8] {
        try read(path, maximumSize: maximumSize, within: nil)
    }
}

/// What a path names.
package enum FileTreeEntry: Sendable, Equatable {
    case file(size: Int)
    case directory
}

/// Why a file or directory could not be read.
package enum FileTreeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system's reason (`No such file or directory`, `Permission denied`).
    case unreadable(reason: String)
    /// The file is larger than the caller accepts.
    case tooLarge(size: Int, limit: Int)
    /// A FIFO, a device, a socket: never opened for reading, so never
    /// waited on.
    case notRegular(kind: String)
    /// A symbolic link, of the file or of a folder above it, leads out of
    /// the directory it must stay in. Where it leads is not said: the
    /// message may reach other users.
    case outsideRoot
    /// A symbolic link that is not followed: too many in a row, or one on
    /// a system where links cannot be followed safely (no `openat2`).
    case notFollowed
    /// A directory holds more entries than lprojd reads from it.
    case tooManyEntries(limit: Int)

    package var description: String {
        switch self {
        case .unreadable(let reason): reason
        case .notRegular(let kind): "not a regular file but \(kind); it is skipped"
        case .outsideRoot: "a symbolic link leads out of the bundle's directory; it is not followed"
        case .notFollowed: "a symbolic link is not followed here (too many links, or this system cannot follow them safely)"
        case .tooManyEntries(let limit): "the folder holds more than \(limit) entries; it is not read"
        case .tooLarge(let size, let limit): "the file has \(size) bytes, more than the limit of \(limit)"
        }
    }
}

extension FileTree {
    /// The `.lproj` folders of a bundle directory, sorted: the one place
    /// that decides which entries of a bundle are its localizations. Past
    /// `limit` entries in the directory, ``FileTreeError/tooManyEntries(limit:)``.
    package func lprojFolders(in directory: String, limit: Int = .max) throws(FileTreeError) -> [String] {
        try names(in: directory, limit: limit).filter { $0.hasSuffix(".lproj") && entry(at: TreePath.join(directory, $0)) == .directory }
    }

    /// The String Catalogs of a bundle directory, as paths relative to it,
    /// sorted: `*.xcstrings` files at its top level and in its folders
    /// (`.lproj` ones included), down to ``StringCatalogFiles/searchDepth``
    /// levels, skipping dot-folders. A folder of more than `limit` entries
    /// is not searched.
    package func stringCatalogs(in directory: String, limit: Int = .max) -> [String] {
        var found: [String] = []
        for folder in catalogFolders(in: directory, limit: limit) {
            for name in (try? names(in: TreePath.join(directory, folder), limit: limit)) ?? []
            where StringCatalogFiles.tableName(of: name) != nil {
                let path = folder.isEmpty ? name : TreePath.join(folder, name)
                if case .file? = entry(at: TreePath.join(directory, path)) { found.append(path) }
            }
        }
        return found.sorted()
    }

    /// The folders searched for String Catalogs, relative to the bundle
    /// directory (`""` is the directory itself), breadth first; at most
    /// ``StringCatalogFiles/maximumFolders``, and none of more than `limit`
    /// entries.
    package func catalogFolders(in directory: String, limit: Int = .max) -> [String] {
        var folders = [""]
        var level = [""]
        for _ in 0..<StringCatalogFiles.searchDepth {
            var next: [String] = []
            for folder in level {
                for name in (try? names(in: TreePath.join(directory, folder), limit: limit)) ?? [] where !name.hasPrefix(".") {
                    guard folders.count < StringCatalogFiles.maximumFolders else { return folders }
                    let path = folder.isEmpty ? name : TreePath.join(folder, name)
                    guard StringCatalogFiles.tableName(of: name) == nil, TableFileKind(fileName: name) == nil,
                        isDirectory(TreePath.join(directory, path))
                    else { continue }
                    folders.append(path)
                    next.append(path)
                }
            }
            level = next
        }
        return folders
    }

    /// Whether a path is a directory.
    package func isDirectory(_ path: String) -> Bool {
        entry(at: path) == .directory
    }

}

/// Paths in a ``FileTree``.
package enum TreePath {
    /// `directory/name`, with one `/` between them.
    package static func join(_ directory: String, _ names: String...) -> String {
        names.reduce(directory) { path, name in
            path.isEmpty ? name : path.hasSuffix("/") ? path + name : path + "/" + name
        }
    }

    /// The last component of a path: `fr.lproj` for `a/fr.lproj/`.
    package static func lastComponent(_ path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }

    /// The directory a path is in: `a` for `a/fr.lproj`, `.` for `fr.lproj`, `/` for `/a`.
    package static func parent(_ path: String) -> String {
        var components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.isEmpty else { return path.hasPrefix("/") ? "/" : "." }
        components.removeLast()
        let joined = components.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : joined.isEmpty ? "." : joined
    }
}

/// Files held in memory: a map of path to bytes, whose directories are the
/// paths' prefixes.
package struct InMemoryFileTree: FileTree {
    package var files: [String: [UInt8]]

    package init(_ files: [String: [UInt8]] = [:]) {
        self.files = files
    }

    /// Files given as UTF-8 text.
    package init(texts: [String: String]) {
        self.init(texts.mapValues { Array($0.utf8) })
    }

    package func entry(at path: String) -> FileTreeEntry? {
        let path = Self.normalized(path)
        if let bytes = files[path] { return .file(size: bytes.count) }
        let prefix = path.isEmpty ? "" : path + "/"
        return files.keys.contains { $0.hasPrefix(prefix) } ? .directory : nil
    }

    package func names(in directory: String, limit: Int) throws(FileTreeError) -> [String] {
        guard entry(at: directory) == .directory else { throw .unreadable(reason: "No such file or directory") }
        let directory = Self.normalized(directory)
        let prefix = directory.isEmpty ? "" : directory + "/"
        var names: Set<String> = []
        for path in files.keys where path.hasPrefix(prefix) {
            let rest = path.dropFirst(prefix.count)
            names.insert(String(rest.prefix { $0 != "/" }))
        }
        guard names.count <= limit else { throw .tooManyEntries(limit: limit) }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    package func read(_ path: String, maximumSize: Int, within root: String?) throws(FileTreeError) -> [UInt8] {
        guard let bytes = files[Self.normalized(path)] else { throw .unreadable(reason: "No such file or directory") }
        guard bytes.count <= maximumSize else { throw .tooLarge(size: bytes.count, limit: maximumSize) }
        return bytes
    }

    private static func normalized(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    }
}
