import LprojClient
import LprojInterface

/// The localizer's worker: one task that takes its work (events, the
/// app's selections, retries) one item at a time, so that no two refreshes
/// race and the mirror is swapped in the order changes happened.
extension Localizer {
    /// What a mirror from lprojd is made of, kept by the worker so that a
    /// change to one table rebuilds the mirror without fetching the others.
    struct Parts {
        var locale: String
        var formatLocale: String?
        var developmentLocale: String
        var tables: [String: MirroredTable]
        var supportedLocales: [Localization.LocaleName]

        var mirror: Mirror {
            Mirror(
                locale: locale, formatLocale: formatLocale, developmentLocale: developmentLocale, tables: tables,
                supportedLocales: supportedLocales)
        }
    }

    /// The worker's own state; only the worker touches it.
    struct Session {
        enum Phase { case disconnected, waitingForReady, connected }
        /// Numbers the subscriptions: events of an ended one are ignored.
        var number = 0
        var phase = Phase.disconnected
        var connection: LprojClient?
        var subscription: Task<Void, Never>?
        var retry: Task<Void, Never>?
        var parts: Parts?
        var delay: Duration
        var everConnected = false
        /// The last refresh left the bundle with no tables and was not
        /// swapped in (see ``publish(_:_:tables:_:)``): the next event
        /// fetches everything again.
        var refetchAll = false
        /// The app was told that the last mirror is kept (once until tables come back).
        var toldOfKeeping = false
        /// Told once, when the first attempt has an answer (then nil).
        var started: AsyncStream<Result<Void, LprojError>>.Continuation?
    }

    func run(work: AsyncStream<Work>, started: AsyncStream<Result<Void, LprojError>>.Continuation) async {
        var session = Session(delay: options.initialDelay, started: started)
        await open(&session)
        for await item in work {
            switch item {
            case .retry:
                await open(&session)
            case .ended(let number) where number == session.number:
                await lost(&session)
            case .refused(let error, let number) where number == session.number:
                await failed(error, &session)
            case .event(let event, let number) where number == session.number:
                await handle(event, &session)
            case .apply(let selection, let done):
                if session.phase == .connected { await take(selection, &session) }
                done()
            case .ended, .event, .refused:
                break  // from a subscription that has ended
            }
        }
        session.subscription?.cancel()
        session.retry?.cancel()
        await session.connection?.close()
    }

    /// Connects and subscribes; the rest happens when `ready` arrives.
    private func open(_ session: inout Session) async {
        session.retry = nil
        session.number += 1
        let number = session.number
        do {
            let connection = try await LprojClient.connect(path: socketPath)
            let events: AsyncThrowingStream<Localization.Event, any Error>
            do {
                events = try await connection.events(client: client, bundle: bundle)
            } catch {
                await connection.close()
                throw error
            }
            session.connection = connection
            session.subscription = Task { [work] in
                do {
                    for try await event in events { work.yield(.event(event, session: number)) }
                } catch let error as LprojError {
                    // lprojd refused the subscription (an unknown bundle).
                    if case .localization = error { work.yield(.refused(error, session: number)) }
                } catch {}
                work.yield(.ended(session: number))
            }
            session.phase = .waitingForReady
        } catch {
            await lost(&session)
        }
    }

    private func handle(_ event: Localization.Event, _ session: inout Session) async {
        guard let connection = session.connection else { return }
        do throws(LprojError) {
            switch (event.type, session.phase) {
            case (.ready, .waitingForReady):
                try await connectedNow(connection, &session)
            case (.shutdown, _):
                await lost(&session)
            case (_, .connected):
                try await refresh(for: event, connection, &session)
            default:
                break
            }
        } catch {
            await failed(error, &session)
        }
    }

    /// Subscribed: fetches everything and answers from lprojd from now on.
    private func connectedNow(_ connection: LprojClient, _ session: inout Session) async throws(LprojError) {
        let previous = mirror
        let parts = try await fetchAll(connection)
        session.phase = .connected
        session.delay = options.initialDelay
        setConnection(connection)
        var reasons: LocalizerChange.Reasons = []
        if session.everConnected || previous.origin != .none { reasons.insert(.reconnected) }
        if previous.locale != parts.locale { reasons.insert(.locale) }
        session.everConnected = true
        publish(parts, reasons, tables: parts.tables.keys.sorted(), &session)
        session.started?.yield(.success(()))
        session.started?.finish()
        session.started = nil
    }

    /// Fetches what an event changed, then swaps the new mirror in.
    private func refresh(for event: Localization.Event, _ connection: LprojClient, _ session: inout Session) async throws(LprojError) {
        guard var parts = session.parts else { return }
        let mine = event.client == nil || event.client == client
        // A bundle change, or any event after a refresh that kept the last
        // mirror (see publish): everything again, as at the start.
        if event.type == .bundleChanged || session.refetchAll && event.type != .preferencesChanged {
            let locale = parts.locale
            parts = try await fetchAll(connection)
            return publish(parts, parts.locale == locale ? [.bundle] : [.bundle, .locale], tables: parts.tables.keys.sorted(), &session)
        }
        switch event.type {
        case .localeChanged where mine:
            // The selection now, not the event's: events of the app's own
            // earlier selections arrive after it has taken a later one in,
            // and must not flip the mirror back meanwhile.
            let locale = try await connection.selection(client: client, bundle: bundle, preferredLanguages: preferredLanguages).locale
            guard locale != parts.locale else { return }
            parts = try await fetchAll(connection, locale: locale)
            publish(parts, [.locale], tables: parts.tables.keys.sorted(), &session)
        case .tablesChanged where mine:
            let names = event.tables ?? parts.tables.keys.sorted()
            for name in names {
                do throws(LprojError) {
                    parts.tables[name] = MirroredTable(
                        try await connection.table(bundle: bundle, table: name, locale: parts.locale, client: client))
                } catch .localization(.tableNotFound) {
                    parts.tables[name] = nil
                }
            }
            publish(parts, [.tables], tables: names, &session)
        case .localesChanged:
            let selection = try await connection.selection(client: client, bundle: bundle, preferredLanguages: preferredLanguages)
            let reasons: LocalizerChange.Reasons = selection.locale == parts.locale ? [.locales] : [.locales, .locale]
            parts = try await fetchAll(connection, locale: selection.locale)
            publish(parts, reasons, tables: parts.tables.keys.sorted(), &session)
        case .preferencesChanged where mine:
            publish(
                parts.mirror, change: LocalizerChange(reasons: [.preferences], locale: parts.locale, tables: []),
                preferences: event.preferences)
        default:
            break
        }
    }

    /// Takes in a selection the app made, before lprojd's event for it.
    private func take(_ selection: Localization.Selection, _ session: inout Session) async {
        guard let connection = session.connection, let parts = session.parts, selection.locale != parts.locale else { return }
        do throws(LprojError) {
            let fresh = try await fetchAll(connection, locale: selection.locale)
            publish(fresh, [.locale], tables: fresh.tables.keys.sorted(), &session)
        } catch {
            await failed(error, &session)
        }
    }

    private func publish(_ parts: Parts, _ reasons: LocalizerChange.Reasons, tables: [String], _ session: inout Session) {
        // A bundle left with no tables at all (its directory vanished, during
        // a package upgrade say) keeps the last mirror lprojd gave until
        // tables come back: the last strings are better than keys. The app
        // is told all the same, and the next event fetches everything again
        // (so that a locale chosen meanwhile is not lost).
        if parts.tables.isEmpty, let last = session.parts, !last.tables.isEmpty {
            // Told once, and not of a locale: the mirror keeps its own.
            let told = reasons.subtracting(.locale)
            session.refetchAll = true
            if !session.toldOfKeeping && !told.isEmpty {
                session.toldOfKeeping = true
                publish(last.mirror, change: LocalizerChange(reasons: told, locale: last.locale, tables: []))
            }
            return
        }
        session.refetchAll = false
        session.toldOfKeeping = false
        session.parts = parts
        publish(parts.mirror, change: LocalizerChange(reasons: reasons, locale: parts.locale, tables: tables))
    }

    /// The app's selection, the bundle's tables at that locale and its
    /// locales' names: a whole mirror.
    func fetchAll(_ connection: LprojClient, locale: String? = nil) async throws(LprojError) -> Parts {
        let chosen: String
        if let locale {
            chosen = locale
        } else {
            chosen = try await connection.selection(client: client, bundle: bundle, preferredLanguages: preferredLanguages).locale
        }
        guard let info = try await connection.bundles().first(where: { $0.name == bundle }) else {
            throw .localization(.bundleNotFound(.init(bundle: bundle)))
        }
        var tables: [String: MirroredTable] = [:]
        var formatLocale: String?
        for name in info.tables {
            // A table listed a moment ago may be gone by now (a reload in
            // between): the mirror is what is there.
            do throws(LprojError) {
                let reply = try await connection.table(bundle: bundle, table: name, locale: chosen, client: client)
                tables[name] = MirroredTable(reply)
                formatLocale = reply.formatLocale
            } catch .localization(.tableNotFound) {
                continue
            }
        }
        let names = try await connection.supportedLocales(bundle: bundle, client: client, locale: chosen)
        return Parts(
            locale: chosen, formatLocale: formatLocale, developmentLocale: info.developmentLocale, tables: tables,
            supportedLocales: names.locales)
    }

    /// A call failed: lprojd is gone, or it refused.
    private func failed(_ error: LprojError, _ session: inout Session) async {
        // Only the localizer's closing cancels the worker's calls.
        if error == .cancelled { return }
        guard case .localization = error else { return await lost(&session) }
        if let started = session.started {
            // Reached but refused at the start (an unknown bundle): the
            // app's mistake, for `start` to throw.
            started.yield(.failure(error))
            started.finish()
            session.started = nil
            session.phase = .disconnected
            return
        }
        // Refused later (the bundle was removed): the last mirror stays,
        // and the next event about the bundle tries again.
        if session.phase == .waitingForReady { session.phase = .connected }
    }

    /// lprojd cannot be reached, or the connection dropped.
    private func lost(_ session: inout Session) async {
        session.subscription?.cancel()
        session.subscription = nil
        let connection = session.connection
        session.connection = nil
        setConnection(nil)
        await connection?.close()
        let wasConnected = session.phase == .connected
        session.phase = .disconnected
        if let started = session.started {
            if mirror.origin == .none, let fallback = fallbackMirror() {
                publish(fallback, change: LocalizerChange(reasons: [], locale: fallback.locale, tables: []))
            }
            started.yield(.success(()))
            started.finish()
            session.started = nil
        } else if wasConnected {
            publish(mirror, change: LocalizerChange(reasons: [.disconnected], locale: mirror.locale, tables: []))
        }
        scheduleRetry(&session)
    }

    /// Tries again after the delay (with jitter, so that the apps of a
    /// restarted lprojd do not all come back at once), doubling it up to
    /// the maximum.
    private func scheduleRetry(_ session: inout Session) {
        guard !Task.isCancelled, session.retry == nil else { return }
        let jittered = session.delay * Double.random(in: 0.8...1.2)
        session.delay = min(session.delay * 2, options.maximumDelay)
        session.retry = Task { [work] in
            do {
                try await Task.sleep(for: jittered)
                work.yield(.retry)
            } catch {}
        }
    }
}
