public import LprojTables

/// What changed on disk in a bundle, as a watcher saw it.
public struct BundleChanges: Sendable, Equatable {
    /// Read the whole bundle again (inotify overflowed, the directory came
    /// back, or a reload was asked for).
    public var everything = false
    /// Changed folders: `nil` for the whole folder (added, removed or
    /// renamed), or the names of the files that changed in it.
    public var folders: [String: Set<String>?] = [:]

    /// String Catalogs that changed, appeared or vanished, by path relative
    /// to the bundle directory. Any entry makes the loader list the
    /// bundle's catalogs again, so the path of a folder that came or went
    /// belongs here too.
    public var stringCatalogs: Set<String> = []

    /// No changes.
    public init() {}

    /// Whether there is nothing to do.
    public var isEmpty: Bool { !everything && folders.isEmpty && stringCatalogs.isEmpty }

    /// Notes a change to a String Catalog.
    public mutating func stringCatalog(_ path: String) {
        stringCatalogs.insert(path)
    }

    /// Notes a change to one file of a folder.
    public mutating func file(_ name: String, in folder: String) {
        if case .some(.none) = folders[folder] { return }
        var files = (folders[folder] ?? []) ?? []
        files.insert(name)
        folders[folder] = files
    }

    /// Notes a change to a whole folder.
    public mutating func folder(_ name: String) {
        folders[name] = .some(nil)
    }
}

/// What a reload changed, for the notifications it sends.
public struct ReloadSummary: Sendable, Equatable {
    /// Tables whose content changed (by name).
    public var tables: Set<String> = []
    /// The locales (folder names without `.lproj`: `de`, `Base`) whose tables changed.
    public var locales: Set<String> = []
    /// Locale folders that appeared, by name (`de`, `Base`).
    public var addedLocales: [String] = []
    /// Locale folders that disappeared.
    public var removedLocales: [String] = []
    /// Files that failed to load, or loaded with diagnostics, in this reload.
    public var reports: [FileReport] = []
}
