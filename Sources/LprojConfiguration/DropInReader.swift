#if canImport(Glibc)
    import Glibc
#endif
internal import Foundation
package import LprojEngine

/// Reads drop-in files from disk, taking only those ``DropInTrust`` allows.
///
/// The directory is opened once and checked on its descriptor (`fstat`);
/// each file is opened relative to it (`openat`), without following a
/// symbolic link unless the trust says so, and checked on its own
/// descriptor, so that what is checked is what is read.
package struct DropInReader: Sendable {
    /// Whose files are taken.
    package let trust: DropInTrust
    /// What each bundle may make lprojd read and hold (part of each
    /// bundle's configuration).
    package let bundleLimits: BundleLimits

    /// A reader.
    package init(trust: DropInTrust, bundleLimits: BundleLimits = BundleLimits()) {
        self.trust = trust
        self.bundleLimits = bundleLimits
    }

    /// Every drop-in of a directory, by bundle name; nil when there is no
    /// such directory (or it cannot be opened). `previous` gives each
    /// file's last good content.
    package func readDirectory(_ directory: String, previous: [String: DropInRecord] = [:]) -> [String: DropInRecord]? {
        guard let opened = OpenedDirectory(directory) else { return nil }
        defer { opened.close() }
        var records: [String: DropInRecord] = [:]
        for file in opened.names() {
            guard let name = DropInFile.bundleName(ofFile: file) else { continue }
            records[name] = read(file, in: opened, previous: previous[name])
        }
        return records
    }

    /// One drop-in file (`file` is its name in `directory`); nil when it is
    /// not there, or its directory is not.
    package func read(_ file: String, in directory: String, previous: DropInRecord? = nil) -> DropInRecord? {
        guard let opened = OpenedDirectory(directory) else { return nil }
        defer { opened.close() }
        return read(file, in: opened, previous: previous)
    }

    private func read(_ file: String, in directory: OpenedDirectory, previous: DropInRecord?) -> DropInRecord? {
        let path = "\(directory.path)/\(file)"
        func invalid(_ message: String) -> DropInRecord {
            DropInRecord(path: path, state: .invalid(ConfigurationError(file: path, message: message), lastGood: previous?.content))
        }
        if let refusal = trust.refusal(directory: directory.facts) { return DropInRecord(path: path, state: .refused(refusal)) }
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (trust.followsLinks ? 0 : O_NOFOLLOW)
        let descriptor = openat(directory.descriptor, file, flags)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: return DropInRecord(path: path, state: .refused("it is a symbolic link"))
            default: return invalid("cannot be opened: \(String(cString: strerror(errno)))")
            }
        }
        defer { Glibc.close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return invalid("cannot be examined: \(String(cString: strerror(errno)))") }
        let facts = DropInTrust.Facts(uid: info.st_uid, mode: info.st_mode)
        if let refusal = trust.refusal(file: facts, directory: directory.facts) {
            return DropInRecord(path: path, state: .refused(refusal))
        }
        guard info.st_size <= DropInFile.maximumSize else {
            return invalid("it is \(info.st_size) bytes; a drop-in may have \(DropInFile.maximumSize)")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { return invalid("cannot be read: \(String(cString: strerror(errno)))") }
            if got == 0 { break }
            count += got
        }
        guard count <= DropInFile.maximumSize else { return invalid("it grew past \(DropInFile.maximumSize) bytes while being read") }
        guard let text = String(validating: bytes[..<count], as: UTF8.self) else { return invalid("it is not UTF-8 text") }
        do {
            return DropInRecord(path: path, state: .read(try DropInFile.parse(text, path: path, limits: bundleLimits)))
        } catch {
            return DropInRecord(path: path, state: .invalid(error, lastGood: previous?.content))
        }
    }
}

/// A directory opened for reading drop-ins, with what `fstat` says of it.
private struct OpenedDirectory {
    let path: String
    let descriptor: Int32
    let facts: DropInTrust.Facts

    init?(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            Glibc.close(descriptor)
            return nil
        }
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        self.descriptor = descriptor
        self.facts = DropInTrust.Facts(uid: info.st_uid, mode: info.st_mode)
    }

    /// The names in the directory, sorted.
    func names() -> [String] {
        let listing = dup(descriptor)
        guard listing >= 0 else { return [] }
        guard let stream = fdopendir(listing) else {
            Glibc.close(listing)
            return []
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    func close() { Glibc.close(descriptor) }
}
