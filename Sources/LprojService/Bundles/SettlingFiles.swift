/// Table files caught between two states: deleted and perhaps about to
/// come back, or being written.
///
/// `git checkout`, and many tools that "save", rewrite a file by deleting
/// it and writing a new one in its place; editors truncate it and write it
/// again. Read at the deletion, the table is gone and lookups fall back to
/// another language; read while it is written, it is empty or half of
/// itself. So neither is read:
/// - a deleted file is given ``returnGrace`` to come back;
/// - a file created or written to (`IN_CREATE`, `IN_MODIFY`) is given
///   ``writeGrace`` for its writer to close it;
/// - a closed one (`IN_CLOSE_WRITE`) is read once it has been quiet for
///   ``quietPeriod``: a close is only seen when the watcher comes to it, and
///   by then the next writer may have begun (its `IN_MODIFY` then restarts
///   the wait).
/// A rename over it (`IN_MOVED_TO`) is whole at once, and read at once.
/// Until then lookups keep the last good version. A file that stays deleted
/// is withdrawn when its grace ends; one whose writer never closes it is
/// read then as it is.
///
/// Pure: the watcher gives it the time, so tests give it theirs.
struct SettlingFiles<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// A file of a bundle, as the reload names it.
    struct File: Hashable {
        let bundle: String
        /// The folder, relative to the bundle directory.
        let folder: String
        let name: String
    }

    /// How long a deleted file has to come back before it is withdrawn.
    let returnGrace: Duration
    /// How long a file's writer has to close it before it is read anyway.
    let writeGrace: Duration
    /// How long a closed file must see no other write before it is read.
    let quietPeriod: Duration
    private var deadlines: [File: Instant] = [:]

    init(returnGrace: Duration = .milliseconds(250), writeGrace: Duration = .seconds(2), quietPeriod: Duration = .milliseconds(10)) {
        self.returnGrace = returnGrace
        self.writeGrace = writeGrace
        self.quietPeriod = quietPeriod
    }

    /// The file was deleted or renamed away: wait for it to come back.
    mutating func vanished(_ file: File, at now: Instant) {
        let deadline = now.advanced(by: returnGrace)
        deadlines[file] = max(deadlines[file] ?? deadline, deadline)
    }

    /// The file was created or written to: wait for its writer to close it.
    mutating func beingWritten(_ file: File, at now: Instant) {
        deadlines[file] = now.advanced(by: writeGrace)
    }

    /// The file's writer closed it: read it once it has been quiet.
    mutating func closed(_ file: File, at now: Instant) {
        deadlines[file] = now.advanced(by: quietPeriod)
    }

    /// The file is whole (renamed into place): read it now; returns
    /// whether it was waited for.
    @discardableResult
    mutating func settled(_ file: File) -> Bool {
        deadlines.removeValue(forKey: file) != nil
    }

    /// How many files are waited for.
    var count: Int { deadlines.count }

    /// Whether a file is being waited for.
    func isSettling(_ file: File) -> Bool { deadlines[file] != nil }

    /// The first time a wait ends, if any file is waited for.
    var nextDeadline: Instant? { deadlines.values.min() }

    /// The files whose wait has ended by `now`, no longer waited for.
    mutating func expired(at now: Instant) -> [File] {
        let done = deadlines.filter { $0.value <= now }.map(\.key)
        for file in done { deadlines[file] = nil }
        return done
    }

    /// Forgets the files of a bundle (read again as a whole, or no longer served).
    mutating func forget(bundle: String) {
        deadlines = deadlines.filter { $0.key.bundle != bundle }
    }
}
