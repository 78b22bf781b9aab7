internal import CSystemd
internal import Glibc
package import Logging
import ServiceLifecycle
internal import Synchronization

/// Follows users' languages as their desktop keeps them: the `Languages`
/// (else `Language`) property of each user's object in accountsservice,
/// `org.freedesktop.Accounts.User` on the system bus, as GNOME Settings
/// writes it.
///
/// sd-bus connections are not thread-safe, so the bus is one thread's: it
/// polls the bus's descriptor and an eventfd that wakes it for a uid to
/// follow or for the stop. A user's object is found with `FindUserById`, its
/// languages read at once and again at each `PropertiesChanged` (or
/// accountsservice's own `Changed`) of it, one match for every user; each
/// reading that differs from the last goes to ``changes``, values as
/// accountsservice writes them (`fr_FR.UTF-8`). When accountsservice starts
/// (again), every followed user is read anew.
///
/// Without a system bus, or without accountsservice on it, there is nothing
/// to follow: that is logged once, with the reason, and lprojd works as
/// without a desktop (a later start of accountsservice is still noticed).
/// A `Service` of the daemon's group; the thread ends at the graceful stop.
package final class DesktopLanguageWatcher: Service, Sendable {
    /// A uid and its desktop languages, most preferred first.
    package struct Change: Sendable, Equatable {
        package let uid: UInt32
        package let languages: [String]
    }

    /// Each reading of a followed user's languages that differs from the
    /// last (the first of each user included).
    package let changes: AsyncStream<Change>
    private let continuation: AsyncStream<Change>.Continuation
    private let commands = Mutex<(follow: [UInt32], stop: Bool)>(([], false))
    private let wake: Int32
    private let logger: Logger
    /// The most users followed (the system's lprojd follows each uid that
    /// has clients); later ones are not.
    package let maximumUsers: Int

    /// A watcher that follows no one yet (see ``follow(uid:)``).
    package init(logger: Logger, maximumUsers: Int = 4096) {
        (changes, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(4096))
        wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        self.logger = logger
        self.maximumUsers = maximumUsers
    }

    deinit { if wake >= 0 { close(wake) } }

    /// Follows a uid's desktop languages; returns at once.
    package func follow(uid: UInt32) {
        commands.withLock { $0.follow.append(uid) }
        signalLoop()
    }

    package func run() async throws {
        let loop = BusLoop(watcher: self)
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { argument in
                Unmanaged<BusLoop>.fromOpaque(argument!).takeRetainedValue().run()
                return nil
            }, Unmanaged.passRetained(loop).toOpaque())
        guard started == 0 else {
            logger.warning("not following the desktop's languages: no thread for the system bus (errno \(started))")
            continuation.finish()
            return
        }
        pthread_detach(thread)
        // The thread ends by itself once told; what it sends meanwhile is
        // dropped with the stream.
        try? await gracefulShutdown()
        commands.withLock { $0.stop = true }
        signalLoop()
        continuation.finish()
    }

    private func signalLoop() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    /// The bus and what is followed on it: touched by the bus thread only.
    private final class BusLoop {
        let watcher: DesktopLanguageWatcher
        var bus: OpaquePointer?
        var slots: [OpaquePointer?] = []
        /// Each followed uid's object, once found.
        var paths: [UInt32: String] = [:]
        var uids: [String: UInt32] = [:]
        var followed: Set<UInt32> = []
        var sent: [UInt32: [String]] = [:]
        /// Objects a signal said changed, read once the bus is processed.
        var dirty: Set<String> = []
        var accountsStarted = false
        var toldWhyNot = false
        var toldTooMany = false

        init(watcher: DesktopLanguageWatcher) { self.watcher = watcher }

        var logger: Logger { watcher.logger }

        func run() {
            defer {
                for slot in slots { sd_bus_slot_unref(slot) }
                if let bus { sd_bus_flush_close_unref(bus) }
            }
            let opened = sd_bus_open_system(&bus)
            guard opened >= 0, let bus else {
                logger.notice(
                    "not following the desktop's languages: no system bus (\(String(cString: strerror(-opened)))); selection works as without a desktop"
                )
                return
            }
            _ = sd_bus_set_description(bus, "lprojd-desktop-languages")
            let me = Unmanaged.passUnretained(self).toOpaque()
            for rule in [
                "type='signal',sender='org.freedesktop.Accounts',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='org.freedesktop.Accounts.User'",
                "type='signal',sender='org.freedesktop.Accounts',interface='org.freedesktop.Accounts.User',member='Changed'",
            ] {
                addMatch(bus, rule, me) { message, userdata, _ in
                    guard let message, let userdata, let path = sd_bus_message_get_path(message) else { return 0 }
                    Unmanaged<BusLoop>.fromOpaque(userdata).takeUnretainedValue().dirty.insert(String(cString: path))
                    return 0
                }
            }
            addMatch(
                bus,
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.freedesktop.Accounts'",
                me
            ) { message, userdata, _ in
                guard let message, let userdata, lprojd_bus_name_gained_owner(message) != 0 else { return 0 }
                Unmanaged<BusLoop>.fromOpaque(userdata).takeUnretainedValue().accountsStarted = true
                return 0
            }
            while true {
                let (follow, stop) = watcher.commands.withLock { commands in
                    defer { commands.follow = [] }
                    return (commands.follow, commands.stop)
                }
                if stop { return }
                var find: [UInt32] = []
                for uid in follow where !followed.contains(uid) {
                    guard followed.count < watcher.maximumUsers else {
                        if !toldTooMany {
                            logger.warning("following the desktop's languages of \(watcher.maximumUsers) users already; not uid \(uid)")
                            toldTooMany = true
                        }
                        continue
                    }
                    followed.insert(uid)
                    find.append(uid)
                }
                if accountsStarted {
                    // accountsservice (re)started: every object anew.
                    accountsStarted = false
                    find = followed.sorted()
                }
                for uid in find { self.find(uid, bus) }
                for path in dirty.sorted() {
                    if let uid = uids[path] { read(uid, path, bus) }
                }
                dirty = []
                // Everything queued is handled before sleeping.
                var processed: Int32 = 1
                while processed > 0 { processed = sd_bus_process(bus, nil) }
                if processed < 0 {
                    logger.notice(
                        "the system bus went away (\(String(cString: strerror(-processed)))); no longer following the desktop's languages")
                    return
                }
                if !dirty.isEmpty || accountsStarted { continue }
                wait(bus)
            }
        }

        func addMatch(_ bus: OpaquePointer, _ rule: String, _ me: UnsafeMutableRawPointer, _ handler: sd_bus_message_handler_t) {
            var slot: OpaquePointer?
            let added = sd_bus_add_match(bus, &slot, rule, handler, me)
            if added < 0 {
                logger.warning("cannot watch the system bus (\(String(cString: strerror(-added)))): \(rule)")
            } else {
                slots.append(slot)
            }
        }

        /// Finds a uid's object and reads its languages; a failure says
        /// once why the desktop cannot be followed (the uid is looked for
        /// again when accountsservice starts).
        func find(_ uid: UInt32, _ bus: OpaquePointer) {
            var error = sd_bus_error()
            defer { sd_bus_error_free(&error) }
            var path: UnsafeMutablePointer<CChar>?
            let found = lprojd_accounts_find_user(bus, UInt64(uid), 5_000_000, &error, &path)
            guard found >= 0, let path else {
                let name = error.name.map { String(cString: $0) } ?? ""
                let reason = error.message.map { String(cString: $0) } ?? String(cString: strerror(-found))
                if name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
                    || name == "org.freedesktop.DBus.Error.NoReply" || name == "org.freedesktop.DBus.Error.TimedOut" || name.isEmpty
                {
                    if !toldWhyNot {
                        logger.notice(
                            "not following the desktop's languages for now: accountsservice does not answer on the system bus (\(reason)); selection works as without a desktop"
                        )
                        toldWhyNot = true
                    }
                } else {
                    // A uid accountsservice does not know (a system or
                    // dynamic user) has no desktop.
                    logger.debug("uid \(uid) has no desktop languages: \(name): \(reason)")
                }
                return
            }
            let object = String(cString: path)
            free(path)
            if let old = paths[uid] { uids[old] = nil }
            paths[uid] = object
            uids[object] = uid
            read(uid, object, bus)
        }

        /// Reads a user's languages, and sends them if they changed.
        func read(_ uid: UInt32, _ path: String, _ bus: OpaquePointer) {
            var error = sd_bus_error()
            defer { sd_bus_error_free(&error) }
            var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            let count = lprojd_accounts_languages(bus, path, &error, &list)
            guard count >= 0 else {
                let reason = error.message.map { String(cString: $0) } ?? String(cString: strerror(-count))
                logger.debug("cannot read the desktop languages of uid \(uid): \(reason)")
                return
            }
            var languages: [String] = []
            for index in 0..<Int(count) {
                if let entry = list?[index] {
                    let text = String(cString: entry)
                    if !text.isEmpty && text.utf8.count <= 128 && languages.count < 64 { languages.append(text) }
                }
            }
            lprojd_free_names(list, count)
            guard sent[uid] != languages else { return }
            sent[uid] = languages
            watcher.continuation.yield(Change(uid: uid, languages: languages))
        }

        /// Sleeps until the bus or the eventfd has something, or sd-bus's
        /// own timeout (a call's) passes.
        func wait(_ bus: OpaquePointer) {
            var timeout: UInt64 = 0
            _ = sd_bus_get_timeout(bus, &timeout)
            var milliseconds: Int32 = -1
            if timeout != UInt64.max {
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                let nowUsec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
                milliseconds = timeout <= nowUsec ? 0 : Int32(min((timeout - nowUsec + 999) / 1000, 60_000))
            }
            var fds = [
                pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0),
                pollfd(fd: watcher.wake, events: Int16(POLLIN), revents: 0),
            ]
            _ = poll(&fds, 2, milliseconds)
            if fds[1].revents != 0 {
                var value: UInt64 = 0
                _ = Glibc.read(watcher.wake, &value, 8)
            }
        }
    }
}
