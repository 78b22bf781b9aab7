internal import CLinuxFiles
internal import Glibc
internal import Synchronization
package import LprojEngine

/// A bundle's directory, opened once and held as a descriptor.
///
/// Every file of the bundle is then opened from this descriptor with
/// `openat2(RESOLVE_BENEATH)`: whatever happens to the path meanwhile (its
/// directory renamed away and a link to another user's folder put in its
/// place, a folder inside swapped for a link out), what is read is inside
/// the directory opened here. A symbolic link that stays inside is
/// followed; one that leads out is refused by the kernel, whichever step of
/// the resolution it is at. Where `openat2` is missing (Linux before 5.6,
/// or a system-call filter that denies it), links are not followed at all.
///
/// Opening walks the path one component at a time, following links by
/// hand, and notes who could have changed each step (``access``): the
/// system's lprojd, which reads as root, must know whether a user could
/// swap the directory it serves for one that user cannot read.
package final class BundleRoot: Sendable {
    /// The path it was opened from, as configured.
    package let path: String
    /// The directory (`O_PATH`): it reads nothing by itself.
    let descriptor: Int32
    /// The directory's device and inode: the same at a later opening means
    /// the same directory.
    package let identity: Identity
    /// Who can change what the path leads to, or the directory's contents.
    package let access: BundleAccess

    /// A directory's device and inode.
    package struct Identity: Sendable, Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private init(path: String, descriptor: Int32, identity: Identity, access: BundleAccess) {
        self.path = path
        self.descriptor = descriptor
        self.identity = identity
        self.access = access
    }

    deinit {
        close(descriptor)
    }

    /// Opens the directory at `path` (absolute, or relative to the working
    /// directory), following links as the kernel would, at most 40.
    package static func open(_ path: String) throws(FileTreeError) -> BundleRoot {
        var walk = try PathWalk(path)
        let (descriptor, status) = try walk.finish()
        return BundleRoot(
            path: path, descriptor: descriptor, identity: Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)),
            access: walk.access)
    }

    // MARK: Opening beneath it

    /// The path below the root that `absolute` names: `.` for the root
    /// itself, nil for a path outside it.
    func relative(_ absolute: String) -> String? {
        if absolute == path || absolute == path + "/" { return "." }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        guard absolute.hasPrefix(prefix) else { return nil }
        let rest = absolute.dropFirst(prefix.count)
        return rest.isEmpty ? "." : String(rest)
    }

    /// Opens `relative` beneath the root; returns the descriptor or the
    /// error number (`EXDEV`: it leads out).
    func open(_ relative: String, flags: Int32) -> Result<Int32, FileTreeError> {
        if Self.hasOpenat2.load(ordering: .relaxed) {
            let opened = lprojd_openat2(
                descriptor, relative, UInt64(flags | O_CLOEXEC), 0, lprojd_resolve_beneath | lprojd_resolve_no_magiclinks)
            if opened >= 0 { return .success(opened) }
            let code = -opened
            if code != ENOSYS && code != EPERM { return .failure(Self.error(code)) }
            // A kernel or a filter without openat2: walk without links from now on.
            Self.hasOpenat2.store(false, ordering: .relaxed)
        }
        return openWithoutLinks(relative, flags: flags)
    }

    /// Opens `relative` one component at a time, following no link.
    private func openWithoutLinks(_ relative: String, flags: Int32) -> Result<Int32, FileTreeError> {
        let components = relative.split(separator: "/").filter { $0 != "." }
        guard !components.contains("..") else { return .failure(.outsideRoot) }
        guard let last = components.last else {
            let opened = openat(descriptor, ".", flags | O_CLOEXEC | O_NOFOLLOW)
            return opened >= 0 ? .success(opened) : .failure(Self.error(errno))
        }
        var current = descriptor
        defer { if current != descriptor { close(current) } }
        for component in components.dropLast() {
            let next = openat(current, String(component), lprojd_o_path | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { return .failure(Self.error(errno == ENOTDIR ? ELOOP : errno)) }
            if current != descriptor { close(current) }
            current = next
        }
        let opened = openat(current, String(last), flags | O_CLOEXEC | O_NOFOLLOW)
        return opened >= 0 ? .success(opened) : .failure(Self.error(errno))
    }

    /// Calls `body` with a path naming the folder `relative` beneath the
    /// root as it is now: `/proc/self/fd/N` of a descriptor opened beneath
    /// it, for inotify, which takes only paths (so a link put in the
    /// folder's place is not what gets watched); where `/proc` is not
    /// mounted, the folder's path. Nil when the folder cannot be opened.
    package func withWatchablePath<T, E: Error>(_ relative: String, _ body: (String) throws(E) -> T) throws(E) -> T? {
        guard case .success(let opened) = open(relative, flags: lprojd_o_path | O_DIRECTORY) else { return nil }
        defer { close(opened) }
        let procPath = "/proc/self/fd/\(opened)"
        if Glibc.access(procPath, F_OK) == 0 { return try body(procPath) }
        return try body(relative == "." ? path : path.hasSuffix("/") ? path + relative : path + "/" + relative)
    }

    /// Whether `openat2` is there (assumed until it says otherwise).
    private static let hasOpenat2 = Atomic<Bool>(true)

    static func error(_ code: Int32) -> FileTreeError {
        switch code {
        case EXDEV: .outsideRoot
        case ELOOP: .notFollowed
        default: .unreadable(reason: String(cString: strerror(code)))
        }
    }
}

/// Who besides root (and lprojd's own user) can change what a bundle's
/// path leads to, or the files in its directory.
package enum BundleAccess: Sendable, Equatable {
    /// No one.
    case rootOnly
    /// One user: the owner of the directory, or of a folder on the way to it.
    case user(UInt32)
    /// Several users, or anyone: a folder on the way is writable by its
    /// group or by everyone, or the way passes through several users'
    /// folders. The reason says which.
    case shared(String)
}

/// Walks a path to a directory, one component at a time, following links
/// by hand (as `openat2` would not tell who could change each step), and
/// notes who could replace each step: the owner of the folder that holds
/// it, or, in a sticky folder such as `/tmp`, the step's own owner too.
private struct PathWalk {
    /// Folders opened so far (`O_PATH`), from `/`; the last is where the walk is.
    private var folders: [(descriptor: Int32, status: stat)] = []
    /// What is left to walk, last component first.
    private var pending: [Substring] = []
    private var links = 0
    private var owners: Set<UInt32> = []
    private var openToOthers: String?
    private let trusted: Set<UInt32> = [0, geteuid()]

    /// The most links one path may lead through, as Linux's own limit.
    static let maximumLinks = 40

    init(_ path: String) throws(FileTreeError) {
        var absolute = path
        if !path.hasPrefix("/") {
            guard let directory = getcwd(nil, 0) else { throw BundleRoot.error(errno) }
            defer { free(directory) }
            absolute = String(cString: directory) + "/" + path
        }
        try restart()
        push(absolute)
    }

    var access: BundleAccess {
        if let openToOthers { return .shared(openToOthers) }
        let others = owners.subtracting(trusted).sorted()
        switch others.count {
        case 0: return .rootOnly
        case 1: return .user(others[0])
        default: return .shared("the way to it passes through folders of uids \(others.map(String.init).joined(separator: ", "))")
        }
    }

    /// Walks what is left; returns the directory reached, opened, and its
    /// status. Everything else the walk opened is closed.
    mutating func finish() throws(FileTreeError) -> (Int32, stat) {
        do {
            while let name = pending.popLast() {
                try step(String(name))
            }
        } catch {
            closeAll()
            throw error
        }
        let (descriptor, status) = folders.removeLast()
        closeAll()
        owners.insert(status.st_uid)
        if status.st_mode & 0o022 != 0 {
            openToOthers = "the directory is writable by others than its owner (mode \(Self.octal(status.st_mode)))"
        }
        return (descriptor, status)
    }

    private mutating func step(_ name: String) throws(FileTreeError) {
        if name == "." || name.isEmpty { return }
        if name == ".." {
            if folders.count > 1 { close(folders.removeLast().descriptor) }
            return
        }
        let (folder, folderStatus) = folders[folders.count - 1]
        var status = stat()
        guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { throw BundleRoot.error(errno) }
        noteWhoCanReplace(entryOwner: status.st_uid, in: folderStatus)
        switch status.st_mode & S_IFMT {
        case S_IFLNK:
            links += 1
            guard links <= Self.maximumLinks else { throw .notFollowed }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlinkat(folder, name, &buffer, buffer.count - 1)
            guard count > 0 else { throw BundleRoot.error(count == 0 ? ENOENT : errno) }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("/") { try restart() }
            push(target)
        case S_IFDIR:
            let opened = openat(folder, name, lprojd_o_path | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard opened >= 0 else { throw BundleRoot.error(errno) }
            var openedStatus = stat()
            guard fstat(opened, &openedStatus) == 0, openedStatus.st_dev == status.st_dev, openedStatus.st_ino == status.st_ino else {
                close(opened)
                throw .unreadable(reason: "it changed while it was opened")
            }
            folders.append((opened, openedStatus))
        default:
            throw .unreadable(reason: "\(name) is not a directory")
        }
    }

    /// Whoever can write a folder can replace its entries; in a sticky
    /// folder (`/tmp`), only the entry's owner and the folder's can.
    private mutating func noteWhoCanReplace(entryOwner: uid_t, in folder: stat) {
        let sticky = folder.st_mode & S_ISVTX != 0
        if folder.st_mode & 0o022 != 0 && !sticky {
            openToOthers = "a folder on the way to it is writable by others than its owner (mode \(Self.octal(folder.st_mode)))"
        }
        owners.insert(folder.st_uid)
        if sticky { owners.insert(entryOwner) }
    }

    private mutating func restart() throws(FileTreeError) {
        closeAll()
        let root = open("/", lprojd_o_path | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { throw BundleRoot.error(errno) }
        var status = stat()
        fstat(root, &status)
        folders = [(root, status)]
    }

    private mutating func push(_ path: String) {
        pending += path.split(separator: "/", omittingEmptySubsequences: true).reversed()
    }

    private mutating func closeAll() {
        for folder in folders { close(folder.descriptor) }
        folders = []
    }

    private static func octal(_ mode: mode_t) -> String {
        let text = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
