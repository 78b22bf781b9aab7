internal import Foundation
package import LprojEngine

/// A drop-in bundle file: one bundle, registered by dropping a file such
/// as `org.example.Editor.conf` into a drop-in directory. It holds the
/// settings of one entry of `lprojd.conf`'s `bundles:` (the same reader
/// checks both), and the file's name, without `.conf`, is the bundle's
/// name: a `name:` in it must say the same. A relative `directory` is
/// relative to the file's folder. An empty file (or one of comments only)
/// masks the bundle: a file of that name in a directory of lower
/// precedence is not read, as an empty unit file masks a unit.
package enum DropInFile {
    /// The suffix of drop-in files; any other file is not one (dpkg's
    /// `.dpkg-new`, an editor's `~` and `.swp` files).
    package static let suffix = ".conf"
    /// The largest drop-in file read; a drop-in is a few lines.
    package static let maximumSize = 64 << 10

    /// What a drop-in file says.
    package enum Content: Sendable, Hashable {
        /// A bundle to serve.
        case bundle(BundleConfiguration)
        /// Nothing: the bundle of this name is not served from drop-ins of
        /// lower precedence.
        case masked
    }

    /// The bundle a file of this name registers, or nil when it is not a
    /// drop-in: it does not end in `.conf`, or it is hidden (an editor's or
    /// a package manager's file on its way).
    package static func bundleName(ofFile name: String) -> String? {
        guard name.hasSuffix(suffix), !name.hasPrefix("."), name.utf8.count > suffix.utf8.count else { return nil }
        return String(name.dropLast(suffix.count))
    }

    /// Parses a drop-in file's text; `path` is the file's (errors name it,
    /// and a relative `directory` is relative to its folder).
    package static func parse(_ text: String, path: String, limits: BundleLimits) throws(ConfigurationError) -> Content {
        let url = URL(fileURLWithPath: path)
        let name = bundleName(ofFile: url.lastPathComponent) ?? url.lastPathComponent
        let document = try YAMLDocument(text, file: path)
        guard let root = document.root else { return .masked }
        guard root.mapping != nil else {
            throw document.error(at: [], "a drop-in holds the settings of one bundle (name: …, directory: …), not a list or a value")
        }
        let entry = try document.decode(BundleEntry.self)
        if let given = entry.name, given != name {
            throw document.error(
                at: [BundleEntry.CodingKeys.name],
                "'\(given)' is not the file's name: a drop-in's bundle is named by its file (\(name)\(suffix))")
        }
        guard BundleConfiguration.isValidName(name) else {
            throw ConfigurationError(
                file: path, line: 1, column: 1,
                message: "'\(name)' is not a bundle name (letters, digits, '.', '_' and '-'), and a drop-in's bundle is named by its file")
        }
        return .bundle(
            try entry.configuration(
                named: name, document: document, path: [], baseDirectory: url.deletingLastPathComponent().path,
                limits: limits))
    }
}
