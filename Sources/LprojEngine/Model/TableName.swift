/// Table names: the file name without `.strings` / `.stringsdict`.
///
/// A name a client sends is only ever a dictionary key; it must still look
/// like a plain file name, so that nothing a client says resembles a path.
package enum TableName {
    /// The table used when none is named. Inlinable, so that comparing a
    /// name with it is a comparison with a literal, with no global to reach.
    @inlinable package static var defaultTable: String { "Localizable" }

    /// Whether `name` is a plain table name: no `/`, no NUL, not `.` or
    /// `..`, not empty, at most 255 bytes.
    package static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && name != "." && name != ".." && !name.hasPrefix(".")
            && !name.utf8.contains(UInt8(ascii: "/")) && !name.utf8.contains(0)
    }
}

/// The kinds of table file in an `.lproj` folder.
package enum TableFileKind: String, Sendable, Hashable, CaseIterable {
    case strings
    case stringsdict

    /// The kind of a file name, or `nil` for files lprojd does not read
    /// (including editors' temporary and swap files).
    package init?(fileName: String) {
        guard !FileNames.isEditorTemporary(fileName) else { return nil }
        if fileName.hasSuffix(".strings") {
            self = .strings
        } else if fileName.hasSuffix(".stringsdict") {
            self = .stringsdict
        } else {
            return nil
        }
    }

    /// The table a file belongs to: its name without the extension.
    package static func tableName(of fileName: String) -> String? {
        guard let kind = TableFileKind(fileName: fileName) else { return nil }
        return String(fileName.dropLast(kind.rawValue.count + 1))
    }
}

/// Recognizes the files editors and tools write next to the real ones.
package enum FileNames {
    /// `.x.swp`, `x~`, `#x#`, `.#x`, `x.tmp`, `.goutputstream-*`, `4913`
    /// (vim's probe), and other dot-files.
    package static func isEditorTemporary(_ name: String) -> Bool {
        if name.hasPrefix(".") || name.hasSuffix("~") || name.hasPrefix("#") { return true }
        if name.hasSuffix(".swp") || name.hasSuffix(".swx") || name.hasSuffix(".tmp") || name.hasSuffix(".part") { return true }
        return name == "4913"
    }
}

/// String Catalog files: where a bundle's are looked for.
package enum StringCatalogFiles {
    /// How many folder levels below the bundle directory are searched.
    package static let searchDepth = 3
    /// How many folders of one bundle are searched (and watched) at most.
    package static let maximumFolders = 256
    /// The file extension.
    package static let fileExtension = "xcstrings"

    /// The table a catalog file supplies (its name without `.xcstrings`),
    /// or `nil` when the name is not a catalog's.
    package static func tableName(of fileName: String) -> String? {
        guard !FileNames.isEditorTemporary(fileName), fileName.hasSuffix(".xcstrings") else { return nil }
        let table = String(fileName.dropLast(fileExtension.count + 1))
        return TableName.isValid(table) ? table : nil
    }
}
