internal import Glibc
public import LprojEngine

/// The file system, as the engine and the linter read it: paths are used as
/// given (absolute, or relative to the working directory).
///
/// A file is opened once and its size taken from the open descriptor, so
/// that the size checked is the size of what is read, even when the file is
/// replaced meanwhile.
public struct DiskFileTree: FileTree {
    public init() {}

    public func entry(at path: String) -> FileTreeEntry? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file(size: Int(status.st_size))
        default: return nil
        }
    }

    public func names(in directory: String) throws(FileTreeError) -> [String] {
        guard let stream = opendir(directory) else { throw .unreadable(reason: Self.reason(errno)) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    public func read(_ path: String, maximumSize: Int) throws(FileTreeError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(reason: Self.reason(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(reason: Self.reason(errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .unreadable(reason: "not a regular file") }
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

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

extension BundleLoader {
    /// A loader that reads bundles from the disk.
    public init() {
        self.init(files: DiskFileTree())
    }
}
