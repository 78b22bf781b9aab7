#if canImport(Glibc)
    import Glibc
#endif
package import LprojEngine
internal import LprojSnapshot
internal import Synchronization

/// The snapshots lprojd writes for its clients (`GetSnapshot`): one file
/// per bundle, locale and generation, in a directory of lprojd's own that
/// clients can read. A file is written once, renamed into place whole, and
/// never changed; a newer generation gets a new file, and the old one is
/// removed after a grace period (a process that mapped it keeps a valid
/// mapping; one that has not opened it yet asks again). The files are
/// bounded in count and bytes: the least recently asked for goes first.
/// Their names are lprojd's own (a served bundle's name, one of its
/// locales, a number), never text a client sent.
package final class SnapshotStore: Sendable {
    package struct Limits: Sendable {
        /// Bytes of all files together.
        package var maximumBytes = 256 << 20
        /// Files at most.
        package var maximumFiles = 1024
        /// How long a file of an older generation stays.
        package var grace: Duration = .seconds(60)

        package init() {}
    }

    /// A snapshot written: where, and how large.
    package struct File: Sendable, Equatable {
        package let path: String
        package let size: Int
    }

    private struct Key: Hashable {
        let bundle: String
        let locale: String
        let generation: Int
    }

    private struct Entry {
        let file: File
        var lastUse: ContinuousClock.Instant
    }

    private struct State {
        var files: [Key: Entry] = [:]
        /// Files of older generations, removed once their time comes.
        var superseded: [(path: String, size: Int, removeAt: ContinuousClock.Instant)] = []
        var bytes = 0

        /// The bytes of every file, those of older generations included.
        var heldBytes: Int { bytes + superseded.reduce(0) { $0 + $1.size } }
    }

    /// The directory, or why there is none.
    private let place: Result<String, Unavailable>

    private struct Unavailable: Error {
        let reason: String
    }
    private let limits: Limits
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Mutex(State())

    /// A store in `directory` (made if missing, emptied of earlier runs'
    /// snapshots), which must be lprojd's own: owned by its user, and
    /// writable by no one else. Nil: no snapshots (no runtime directory).
    package init(
        directory: String?, limits: Limits = Limits(), now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.limits = limits
        self.now = now
        guard let directory else {
            place = .failure(Unavailable(reason: "lprojd has no runtime directory (RUNTIME_DIRECTORY, XDG_RUNTIME_DIR)"))
            return
        }
        place = Self.prepare(directory)
    }

    /// Whether snapshots can be written, or why not.
    package var problem: String? {
        if case .failure(let unavailable) = place { return unavailable.reason }
        return nil
    }

    private static func prepare(_ directory: String) -> Result<String, Unavailable> {
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            return .failure(Unavailable(reason: "\(directory) cannot be made (\(String(cString: strerror(errno))))"))
        }
        var status = stat()
        guard lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            return .failure(Unavailable(reason: "\(directory) is not a directory"))
        }
        guard status.st_uid == geteuid(), status.st_mode & 0o022 == 0 else {
            return .failure(Unavailable(reason: "\(directory) is not lprojd's own (another user owns it, or others may write it)"))
        }
        // Whatever an earlier run left is of no use: its generations are gone.
        if let stream = opendir(directory) {
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasSuffix(".lprojsnap") || name.hasSuffix(".tmp") { unlink("\(directory)/\(name)") }
            }
        }
        return .success(directory)
    }

    /// The file already written for this bundle, locale and generation.
    package func written(bundle: String, locale: String, generation: Int) -> File? {
        let key = Key(bundle: bundle, locale: locale, generation: generation)
        let time = now()
        return state.withLock { state in
            state.files[key]?.lastUse = time
            return state.files[key]?.file
        }
    }

    /// The snapshot of a bundle for a locale at a generation: the file
    /// written before, or written now (on the caller's thread: a worker's).
    package func snapshot(of bundle: LoadedBundle, locale: ResolvedLocale, generation: Int) throws(ServiceError) -> File {
        let directory: String
        switch place {
        case .success(let path): directory = path
        case .failure(let unavailable): throw .snapshotsUnavailable(unavailable.reason)
        }
        if let file = written(bundle: bundle.name, locale: locale.locale.tag, generation: generation) { return file }
        let content = SnapshotContent(bundle: bundle, locale: locale, generation: UInt64(max(0, generation)))
        let bytes: [UInt8]
        do {
            bytes = try SnapshotWriter.bytes(of: content)
        } catch {
            throw .snapshotsUnavailable("\(error)")
        }
        guard bytes.count <= limits.maximumBytes / 4 else {
            throw .snapshotsUnavailable(
                "the snapshot would be \(bytes.count) bytes, over a quarter of the \(limits.maximumBytes) all may take")
        }
        let path = "\(directory)/\(bundle.name)@\(locale.locale.tag)@\(generation).lprojsnap"
        try Self.write(bytes, to: path)
        let key = Key(bundle: bundle.name, locale: locale.locale.tag, generation: generation)
        let file = File(path: path, size: bytes.count)
        let time = now()
        let remove: [String] = state.withLock { state in
            var remove: [String] = []
            // Another request may have written the same bytes meanwhile.
            if state.files[key] == nil { state.bytes += file.size }
            state.files[key] = Entry(file: file, lastUse: time)
            // Older generations of the same locale: after the grace period.
            for (other, entry) in state.files
            where other.bundle == key.bundle && other.locale == key.locale && other.generation < key.generation {
                state.files[other] = nil
                state.bytes -= entry.file.size
                state.superseded.append((entry.file.path, entry.file.size, time.advanced(by: limits.grace)))
            }
            let due = state.superseded.filter { $0.removeAt <= time }
            state.superseded.removeAll { $0.removeAt <= time }
            remove += due.map(\.path)
            // Over a bound: the least recently asked for go now.
            while state.files.count + state.superseded.count > limits.maximumFiles || state.heldBytes > limits.maximumBytes {
                if let oldest = state.superseded.first {
                    state.superseded.removeFirst()
                    remove.append(oldest.path)
                    continue
                }
                guard let (least, entry) = state.files.filter({ $0.key != key }).min(by: { $0.value.lastUse < $1.value.lastUse }) else {
                    break
                }
                state.files[least] = nil
                state.bytes -= entry.file.size
                remove.append(entry.file.path)
            }
            return remove
        }
        for path in remove { unlink(path) }
        return file
    }

    /// Files held now, and their bytes (for tests and the status).
    package var usage: (files: Int, bytes: Int) {
        state.withLock { ($0.files.count + $0.superseded.count, $0.heldBytes) }
    }

    /// Writes a file whole under a temporary name and renames it into place.
    private static func write(_ bytes: [UInt8], to path: String) throws(ServiceError) {
        let temporary = "\(path).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw .snapshotsUnavailable("\(temporary) cannot be made (\(String(cString: strerror(errno))))") }
        var written = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += count
            }
        }
        // fchmod: the umask (0077 under systemd) must not hide it from clients.
        if failure == 0 && fchmod(descriptor, 0o644) != 0 { failure = errno }
        close(descriptor)
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw .snapshotsUnavailable("\(path) cannot be written (\(String(cString: strerror(failure))))")
        }
    }
}
