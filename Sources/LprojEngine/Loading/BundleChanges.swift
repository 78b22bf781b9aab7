import LprojTables

/// What changed on disk in a bundle, as a watcher saw it.
package struct BundleChanges: Sendable, Equatable {
    /// Read the whole bundle again (inotify overflowed, the directory came
    /// back, or a reload was asked for).
    package var everything = false
    /// Changed folders: `nil` for the whole folder (added, removed or
    /// renamed), or the names of the files that changed in it.
    package var folders: [String: Set<String>?] = [:]

    /// String Catalogs that changed, appeared or vanished, by path relative
    /// to the bundle directory. Any entry makes the loader list the
    /// bundle's catalogs again, so the path of a folder that came or went
    /// belongs here too.
    package var stringCatalogs: Set<String> = []

    /// No changes.
    package init() {}

    /// Whether there is nothing to do.
    package var isEmpty: Bool { !everything && folders.isEmpty && stringCatalogs.isEmpty }

    /// Notes a change to a String Catalog.
    package mutating func stringCatalog(_ path: String) {
        stringCatalogs.insert(path)
    }

    /// Notes a change to one file of a folder.
    package mutating func file(_ name: String, in folder: String) {
        if case .some(.none) = folders[folder] { return }
        var files = (folders[folder] ?? []) ?? []
        files.insert(name)
        folders[folder] = files
    }

    /// Notes a change to a whole folder.
    package mutating func folder(_ name: String) {
        folders[name] = .some(nil)
    }
}

/// What a reload changed, for the notifications it sends.
package struct ReloadSummary: Sendable, Equatable {
    /// Tables whose content changed (by name).
    package var tables: Set<String> = []
    /// The locales (folder names without `.lproj`: `de`, `Base`) whose tables changed.
    package var locales: Set<String> = []
    /// Locale folders that appeared, by name (`de`, `Base`).
    package var addedLocales: [String] = []
    /// Locale folders that disappeared.
    package var removedLocales: [String] = []
    /// Files that failed to load, or loaded with diagnostics, in this reload.
    package var reports: [FileReport] = []
    /// The limit the bundle went over: nothing was read, and it keeps its
    /// last good version.
    package var limitExceeded: BundleLimitExceeded?

    /// Nothing changed (yet).
    package init() {}

    /// A reload refused whole: the bundle went over a limit.
    package init(limitExceeded: BundleLimitExceeded) {
        self.limitExceeded = limitExceeded
    }
}
