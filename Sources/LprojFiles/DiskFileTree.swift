internal import CLinuxFiles
internal import Glibc
package import LprojEngine

/// The file system, as the engine and the linter read it.
///
/// Made with a ``BundleRoot``, it is one bundle's files: paths inside the
/// root's path are opened from its descriptor, never through the path
/// again, and any other path is refused. Made without, paths are used as
/// given (absolute, or relative to the working directory): the linter's
/// and the tools' reads of the user's own files.
///
/// A file is opened once and its size taken from the open descriptor, so
/// that the size checked is the size of what is read, even when the file is
/// replaced meanwhile.
package struct DiskFileTree: FileTree {
    /// The bundle's directory, when it is one bundle's tree.
    package let root: BundleRoot?

    /// The whole file system, by path.
    package init() {
        root = nil
    }

    /// One bundle's files, opened from its directory's descriptor.
    package init(root: BundleRoot) {
        self.root = root
    }

    package func entry(at path: String) -> FileTreeEntry? {
        var status = stat()
        if let root {
            guard let relative = root.relative(path), case .success(let opened) = root.open(relative, flags: lprojd_o_path) else {
                return nil
            }
            defer { close(opened) }
            guard fstat(opened, &status) == 0 else { return nil }
        } else {
            guard stat(path, &status) == 0 else { return nil }
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file(size: Int(status.st_size))
        default: return nil
        }
    }

    package func names(in directory: String, limit: Int) throws(FileTreeError) -> [String] {
        let stream: OpaquePointer
        if let root {
            guard let relative = root.relative(directory) else { throw .outsideRoot }
            let descriptor = try root.open(relative, flags: O_RDONLY | O_DIRECTORY).get()
            guard let opened = fdopendir(descriptor) else {
                close(descriptor)
                throw .unreadable(reason: Self.reason(errno))
            }
            stream = opened
        } else {
            guard let opened = opendir(directory) else { throw .unreadable(reason: Self.reason(errno)) }
            stream = opened
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            guard names.count < limit else { throw .tooManyEntries(limit: limit) }
            names.append(name)
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Opens only a regular file, and never in a way that acts on anything
    /// else: the path is first opened with `O_PATH`, which reads nothing
    /// and opens no device or FIFO. That descriptor is checked (a regular
    /// file; within a `root`, its real path inside it) and the file is then
    /// opened for reading through it (`/proc/self/fd`), so what is read is
    /// what was checked, even if the path is changed meanwhile. Where
    /// `/proc` is not mounted, the path is checked (`realpath`, `stat`) and
    /// opened with `O_NONBLOCK`, then checked again. A tree with a
    /// ``BundleRoot`` opens the file from its descriptor, so no path is
    /// resolved again and `root` is its own.
    package func read(_ path: String, maximumSize: Int, within root: String?) throws(FileTreeError) -> [UInt8] {
        let descriptor = try openForReading(path, within: root)
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(reason: Self.reason(errno)) }
        try Self.requireRegular(status.st_mode)
        let size = Int(status.st_size)
        guard size <= maximumSize else { throw .tooLarge(size: size, limit: maximumSize) }
        // Read to the end, but never past the limit: the file may grow after fstat.
        var bytes = [UInt8](repeating: 0, count: min(maximumSize, size) + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(reason: Self.reason(errno))
            }
            if count == 0 { break }
            filled += count
            if filled == bytes.count, filled <= maximumSize {
                bytes.append(contentsOf: repeatElement(0, count: min(maximumSize + 1, bytes.count * 2) - bytes.count))
            }
        }
        guard filled <= maximumSize else { throw .tooLarge(size: filled, limit: maximumSize) }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// A regular file opened for reading, checked on its `O_PATH`
    /// descriptor before it is opened so.
    private func openForReading(_ path: String, within root: String?) throws(FileTreeError) -> Int32 {
        let handle: Int32
        if let bundleRoot = self.root {
            guard let relative = bundleRoot.relative(path) else { throw .outsideRoot }
            handle = try bundleRoot.open(relative, flags: lprojd_o_path).get()
        } else {
            handle = open(path, lprojd_o_path | O_CLOEXEC)
            guard handle >= 0 else { throw .unreadable(reason: Self.reason(errno)) }
        }
        defer { close(handle) }
        var named = stat()
        guard fstat(handle, &named) == 0 else { throw .unreadable(reason: Self.reason(errno)) }
        try Self.requireRegular(named.st_mode)
        let opened = Self.openedPath(handle)
        // A rooted tree's descriptor is beneath its root already.
        let realRoot = self.root == nil ? try root.map { root throws(FileTreeError) in try Self.realPath(root) } : nil
        if let realRoot, let opened {
            guard Self.isInside(opened, realRoot) else { throw .outsideRoot }
        }
        let descriptor: Int32
        if opened != nil {
            descriptor = open("/proc/self/fd/\(handle)", O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        } else if let bundleRoot = self.root, let relative = bundleRoot.relative(path) {
            descriptor = try bundleRoot.open(relative, flags: O_RDONLY | O_NONBLOCK | O_NOCTTY).get()
        } else {
            if let realRoot { guard Self.isInside(try Self.realPath(path), realRoot) else { throw .outsideRoot } }
            descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        }
        guard descriptor >= 0 else { throw .unreadable(reason: Self.reason(errno)) }
        return descriptor
    }

    private static func requireRegular(_ mode: mode_t) throws(FileTreeError) {
        switch mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw .notRegular(kind: "a directory")
        case S_IFIFO: throw .notRegular(kind: "a FIFO")
        case S_IFSOCK: throw .notRegular(kind: "a socket")
        case S_IFCHR, S_IFBLK: throw .notRegular(kind: "a device")
        default: throw .notRegular(kind: "of an unknown kind")
        }
    }

    /// A path with every symbolic link and `.`/`..` resolved.
    private static func realPath(_ path: String) throws(FileTreeError) -> String {
        guard let resolved = realpath(path, nil) else { throw .unreadable(reason: reason(errno)) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Where an open descriptor's file really is, or nil where `/proc` is
    /// not mounted.
    private static func openedPath(_ descriptor: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func isInside(_ path: String, _ root: String) -> Bool {
        root == "/" || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

extension BundleLoader {
    /// A loader that reads bundles from the disk, by path.
    package init() {
        self.init(files: DiskFileTree())
    }
}
