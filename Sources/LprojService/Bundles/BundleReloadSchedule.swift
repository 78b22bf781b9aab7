internal import LprojEngine

/// When one bundle is read again: the one owner of coalescing, pacing and
/// backing off of a bundle's reloads, without clocks, threads or files.
///
/// Whatever happens in a bundle's folders between two reloads becomes one
/// reload of what changed: a burst of events, however long, is one entry
/// per file or folder here (and past ``maximumPendingFiles`` one reread of
/// the bundle), never one walk of the bundle per event. A bundle has at
/// most one reload running, and after a reload that took `t`, the next
/// waits at least ``costFactor`` × `t`: whoever writes one bundle's files,
/// as fast as they like, gets at most a share of one background thread,
/// and every other bundle's reloads, the drop-ins and the watchdog go on
/// beside it. A reload refused whole (over a limit, a directory that may
/// not be served) makes the next wait longer each time, up to
/// ``maximumBackoff``, and none happens until the files change again; what
/// it refused is read with the next reload, so that a bundle back within
/// its limits serves all its files, not only those that changed last.
///
/// Files being written or deleted wait in ``SettlingFiles`` until whole.
/// The watcher gives it the time; tests give it theirs.
struct BundleReloadSchedule<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// What the watcher must do now.
    enum Decision: Equatable {
        /// Read these changes (the reload is then running).
        case reload(BundleChanges)
        /// Nothing to do before this time, unless more changes come.
        case wait(until: Instant)
        /// Nothing to do until more changes come.
        case idle
    }

    /// After a reload that took `t`, the next waits `costFactor` × `t`.
    let costFactor: Int
    /// The first wait after a refused reload; it doubles with each one after.
    let firstBackoff: Duration
    /// The longest wait after refused reloads.
    let maximumBackoff: Duration
    /// Files of one folder noted before the whole folder is read instead,
    /// and folders before the whole bundle is.
    let maximumPendingFiles: Int

    private(set) var pending = BundleChanges()
    private var settling: SettlingFiles<Instant>
    private var pendingFiles = 0
    /// Whether a reload is running.
    private(set) var isReloading = false
    /// The earliest time the next reload may start.
    private var notBefore: Instant?
    /// Reloads refused in a row.
    private(set) var refusals = 0
    /// The changes of the reload running.
    private var running = BundleChanges()
    /// What refused reloads did not read: it joins the next reload, but
    /// starts none on its own.
    private(set) var refused = BundleChanges()

    init(
        costFactor: Int = 3, firstBackoff: Duration = .seconds(1), maximumBackoff: Duration = .seconds(60),
        maximumPendingFiles: Int = 4096, settling: SettlingFiles<Instant> = SettlingFiles()
    ) {
        self.costFactor = costFactor
        self.firstBackoff = firstBackoff
        self.maximumBackoff = maximumBackoff
        self.maximumPendingFiles = maximumPendingFiles
        self.settling = settling
    }

    // MARK: What the watcher saw

    /// A table file renamed into place: whole, read at the next reload.
    mutating func fileWhole(_ name: String, in folder: String) {
        settling.settled(SettlingFiles<Instant>.File(bundle: "", folder: folder, name: name))
        noteFile(name, in: folder)
    }

    /// A table file created or written to: read once its writer closes it.
    mutating func fileBeingWritten(_ name: String, in folder: String, at now: Instant) {
        guard !settlingIsFull else { return noteFile(name, in: folder) }
        settling.beingWritten(.init(bundle: "", folder: folder, name: name), at: now)
    }

    /// A table file closed after writing: read once quiet.
    mutating func fileClosed(_ name: String, in folder: String, at now: Instant) {
        guard !settlingIsFull else { return noteFile(name, in: folder) }
        settling.closed(.init(bundle: "", folder: folder, name: name), at: now)
    }

    /// A table file deleted or renamed away: withdrawn unless it comes back soon.
    mutating func fileVanished(_ name: String, in folder: String, at now: Instant) {
        guard !settlingIsFull else { return noteFile(name, in: folder) }
        settling.vanished(.init(bundle: "", folder: folder, name: name), at: now)
    }

    /// A folder came, went, or changed as a whole.
    mutating func folder(_ name: String) {
        guard !pending.everything else { return }
        if pending.folders[name] == nil, pending.folders.count >= maximumPendingFiles { return everything() }
        if case .some(let files?) = pending.folders[name] { pendingFiles -= files.count }
        pending.folder(name)
    }

    /// A String ServedBundles, or a folder that may hold some, changed.
    mutating func stringCatalog(_ path: String) {
        guard !pending.everything else { return }
        if !pending.stringCatalogs.contains(path), pending.stringCatalogs.count >= maximumPendingFiles { return everything() }
        pending.stringCatalog(path)
    }

    /// Everything is read again (the directory came back, events were lost).
    mutating func everything() {
        pending = BundleChanges()
        pending.everything = true
        pendingFiles = 0
        settling.forget(bundle: "")
    }

    // MARK: Deciding

    /// What to do at `now`: files whose wait is over join the changes; a
    /// reload starts if its time has come.
    mutating func next(at now: Instant) -> Decision {
        guard !isReloading else { return .idle }
        for file in settling.expired(at: now) { noteFile(file.name, in: file.folder) }
        if !pending.isEmpty {
            if let notBefore, now < notBefore { return .wait(until: notBefore) }
            absorbRefused()
            holdBackSettling()
            // Nothing left but files being rewritten: they come back once settled.
            if !pending.isEmpty {
                let changes = pending
                pending = BundleChanges()
                pendingFiles = 0
                isReloading = true
                running = changes
                return .reload(changes)
            }
        }
        if let deadline = settling.nextDeadline { return .wait(until: max(deadline, notBefore ?? deadline)) }
        return .idle
    }

    /// The reload started by ``next(at:)`` ended at `now`, after `took`;
    /// `refused` when the bundle was not read (over a limit, or not served).
    mutating func reloaded(at now: Instant, took: Duration, refused: Bool) {
        isReloading = false
        var wait = took * costFactor
        if refused {
            self.refused = running
            refusals += 1
            var backoff = firstBackoff
            for _ in 1..<min(refusals, 32) where backoff < maximumBackoff { backoff *= 2 }
            wait = max(wait, min(backoff, maximumBackoff))
        } else {
            self.refused = BundleChanges()
            refusals = 0
        }
        running = BundleChanges()
        notBefore = now.advanced(by: wait)
    }

    /// A reload asked for by an administrator, or a new configuration's
    /// first: everything, now, whatever the pace; returns its changes, and
    /// the reload is then running (``reloaded(at:took:refused:)`` ends it).
    mutating func reloadNow() -> BundleChanges {
        everything()
        notBefore = nil
        refused = BundleChanges()
        let changes = pending
        pending = BundleChanges()
        pendingFiles = 0
        isReloading = true
        running = changes
        return changes
    }

    // MARK: Bounds

    private var settlingIsFull: Bool { settling.count >= maximumPendingFiles }

    /// A file noted as changed and then deleted or written to again before
    /// its reload began is not read now, half-written or missing: it is
    /// read once it settles (``SettlingFiles``), as if noted then.
    private mutating func holdBackSettling() {
        guard !pending.everything else { return }
        for (folder, files) in pending.folders {
            guard let files else { continue }
            let held = files.filter { settling.isSettling(.init(bundle: "", folder: folder, name: $0)) }
            guard !held.isEmpty else { continue }
            let left = files.subtracting(held)
            pending.folders[folder] = left.isEmpty ? nil : .some(left)
            pendingFiles -= held.count
        }
    }

    /// What refused reloads did not read joins the changes, within the
    /// same bounds as any other.
    private mutating func absorbRefused() {
        defer { refused = BundleChanges() }
        guard !refused.isEmpty, !pending.everything else { return }
        if refused.everything {
            pending = BundleChanges()
            pending.everything = true
            pendingFiles = 0
            return
        }
        for (folder, files) in refused.folders {
            guard let files else {
                self.folder(folder)
                continue
            }
            for file in files { noteFile(file, in: folder) }
        }
        for path in refused.stringCatalogs { stringCatalog(path) }
    }

    private mutating func noteFile(_ name: String, in folder: String) {
        guard !pending.everything else { return }
        switch pending.folders[folder] {
        case .some(nil):
            return  // the whole folder is read anyway
        case .some(let files?) where files.contains(name):
            return
        case .some(let files?) where files.count >= maximumPendingFiles:
            pendingFiles -= files.count
            pending.folder(folder)
            return
        default:
            break
        }
        if pendingFiles >= maximumPendingFiles * 4 { return everything() }
        pending.file(name, in: folder)
        pendingFiles += 1
    }
}
