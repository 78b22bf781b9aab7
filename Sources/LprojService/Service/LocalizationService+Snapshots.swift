internal import LprojEngine
package import LprojInterface
internal import LprojLocales

extension LocalizationService {
    /// A bundle's snapshot for the client's locale: the file written before
    /// for this generation, answered at once; else written by a worker (its
    /// cost follows the bundle's size, as a `GetTable` of every table).
    ///
    /// The locale is one of the bundle's own (or its development locale):
    /// whatever locale a client names, the files stay at most one per
    /// bundle, locale and generation.
    package func getSnapshot(_ call: Localization.GetSnapshot.Parameters, caller: Caller) throws(ServiceError) -> Answer<
        Localization.GetSnapshot.Reply
    > {
        let served = self.served.snapshot
        let bundle = try bundle(call.bundle, in: served)
        let client = try clientID(call.client)
        let requested = try resolvedLocale(call.locale, client: client, bundle: bundle, caller: caller)
        noteUse(of: client, bundle: bundle.name, by: caller)
        let own = SelectionPolicy.select(requested.locale, in: bundle).locale
        let locale = (try? bundle.resolve(locale: own)) ?? bundle.developmentLocale
        let generation = served.bundleGenerations[bundle.name] ?? served.generation
        @Sendable func reply(_ file: SnapshotStore.File) -> Localization.GetSnapshot.Reply {
            .init(path: file.path, locale: locale.locale.tag, generation: generation, size: file.size)
        }
        if let file = snapshots.written(bundle: bundle.name, locale: locale.locale.tag, generation: generation) { return .now(reply(file)) }
        if let problem = snapshots.problem { throw .snapshotsUnavailable(problem) }
        return .later { [snapshots] () throws(ServiceError) -> Localization.GetSnapshot.Reply in
            reply(try snapshots.snapshot(of: bundle, locale: locale, generation: generation))
        }
    }
}
