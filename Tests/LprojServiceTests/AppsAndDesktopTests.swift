import ClientBudget
import LprojInterface
import LprojLocales
import LprojService
import LprojStore
import LprojTestSupport
import Testing

/// `ListClients` (a uid's own apps, the locale in effect and why, the
/// bounded record of recent use) and the desktop's languages (clients that
/// follow their preferred languages switch at once; choices stay).
@Suite struct AppsAndDesktopTests {
    let alice = Caller(uid: 1000), bob = Caller(uid: 1001)

    func list(_ fixture: ServiceFixture, _ caller: Caller, locale: String? = "en") async throws -> Localization.ListClients.Reply {
        try await fixture.service.listClients(.init(locale: locale), caller: caller).reply()
    }

    func selection(_ fixture: ServiceFixture, _ client: String, preferred: [String]? = nil, caller: Caller? = nil) async throws
        -> Localization.Selection
    {
        try await fixture.service.getSelection(
            .init(client: client, bundle: "demo", preferredLanguages: preferred), caller: caller ?? alice
        ).reply().selection
    }

    func localeChanges(_ events: some Sequence<ServiceEvent>) -> Set<String> {
        Set(
            events.compactMap { event in
                guard case .localeChanged(let owner, _, let locale, let previous) = event else { return nil }
                return "\(owner.uid)/\(owner.client): \(previous) -> \(locale)"
            })
    }

    @Test func listClientsAnswersTheCallersOwnAppsWithTheLocaleInEffectAndWhy() async throws {
        let fixture = try ServiceFixture()
        _ = try await fixture.service.selectLocale(.init(client: "org.example.Editor", bundle: "demo", locale: "de"), caller: alice)
            .reply()
        #expect(try await selection(fixture, "org.example.Viewer", preferred: ["fr-CA"]).reason == .preferred)
        _ = try fixture.service.lookup(.init(bundle: "demo", key: "greeting", client: "org.example.Looker"), caller: alice)
        _ = try await fixture.service.setPreferences(
            .init(client: "org.example.Prefs", bundle: "demo", preferences: .init(distanceUnit: "miles")), caller: alice
        ).reply()
        // A locale chosen while the bundle had it, its folder gone for now.
        try await fixture.store.saveSelection("it", for: ClientKey(uid: 1000, client: "org.example.Italian"), bundle: "demo")
        // Bob's apps, one of the same name as Alice's.
        _ = try await fixture.service.selectLocale(.init(client: "org.example.Secret", bundle: "demo", locale: "fr"), caller: bob).reply()
        _ = try await fixture.service.selectLocale(.init(client: "org.example.Editor", bundle: "demo", locale: "fr"), caller: bob).reply()

        let alices = try await list(fixture, alice)
        #expect(
            alices.clients.map(\.client) == [
                "org.example.Editor", "org.example.Italian", "org.example.Looker", "org.example.Prefs", "org.example.Viewer",
            ])
        let use = Dictionary(uniqueKeysWithValues: alices.clients.map { ($0.client, $0.bundles) })
        #expect(use["org.example.Editor"]?.first?.locale == "de" && use["org.example.Editor"]?.first?.reason == .selected)
        #expect(use["org.example.Viewer"]?.first?.locale == "fr" && use["org.example.Viewer"]?.first?.reason == .preferred)
        #expect(use["org.example.Looker"]?.first?.locale == "en" && use["org.example.Looker"]?.first?.reason == .default)
        #expect(use["org.example.Looker"]?.first?.lastUsed != nil && use["org.example.Italian"]?.first?.lastUsed == nil)
        #expect(use["org.example.Prefs"]?.first?.hasPreferences == true && use["org.example.Editor"]?.first?.hasPreferences == false)
        #expect(
            use["org.example.Italian"]?.first?.reason == .default && use["org.example.Italian"]?.first?.locale == "en"
                && use["org.example.Italian"]?.first?.selectedLocale == "it")
        #expect(alices.bundles.map(\.bundle) == ["demo"])
        let german = alices.bundles.first?.locales.first { $0.locale == "de" }
        #expect(german?.name == "German" && german?.nativeName == "Deutsch" && alices.bundles.first?.displayLocale == "en")
        #expect(try await list(fixture, alice, locale: "fr").bundles.first?.locales.first { $0.locale == "de" }?.name == "Allemand")

        let bobs = try await list(fixture, bob)
        #expect(bobs.clients.map(\.client) == ["org.example.Editor", "org.example.Secret"])
        #expect(bobs.clients.first?.bundles.first?.locale == "fr")
        #expect(try await list(fixture, Caller(uid: 1002)).clients.isEmpty)
    }

    @Test func theRecordOfRecentUseKeepsTheLast64PairsChargedToTheSavedStateBudget() async throws {
        let fixture = try ServiceFixture()
        for index in 0..<70 {
            _ = try fixture.service.lookup(.init(bundle: "demo", key: "greeting", client: "app\(index)"), caller: alice)
        }
        // app6 is used again: the oldest are app7 on.
        _ = try fixture.service.lookup(.init(bundle: "demo", key: "greeting", client: "app6"), caller: alice)
        _ = try fixture.service.lookup(.init(bundle: "demo", key: "greeting", client: "app70"), caller: alice)
        let listed = try await list(fixture, alice).clients.map(\.client)
        #expect(listed.count == 64)
        #expect(listed.contains("app6") && listed.contains("app70") && !listed.contains("app7") && !listed.contains("app0"))
        #expect(fixture.budget.usage(of: 1000)[.savedState] == fixture.service.recent.heldBytes(uid: 1000))
        #expect(fixture.budget.usage(of: 1000)[.savedState] > 64 * 128)

        // A uid whose saved-state budget is small keeps fewer, the saved rows first.
        let small = try ServiceFixture(budgetLimits: BudgetLimits(perUID: [.savedState: 1024]))
        _ = try await small.service.selectLocale(.init(client: "chosen", bundle: "demo", locale: "de"), caller: alice).reply()
        for index in 0..<20 {
            _ = try small.service.lookup(.init(bundle: "demo", key: "greeting", client: "app\(index)"), caller: alice)
        }
        #expect(small.budget.usage(of: 1000)[.savedState] <= 1024)
        let kept = try await list(small, alice).clients.map(\.client)
        #expect(kept.contains("chosen") && kept.contains("app19") && !kept.contains("app0"))
        #expect(
            try await small.service.selectLocale(.init(client: "chosen", bundle: "demo", locale: "fr"), caller: alice).reply()
                .selection.locale == "fr")
    }

    @Test func theDesktopsLanguagesSwitchEveryClientThatFollowsItsPreferredLanguagesAtOnce() async throws {
        let fixture = try ServiceFixture()
        let french = [try LocaleIdentifier("fr_FR")], german = [try LocaleIdentifier("de-DE")]
        // Its process's languages are none the bundle has: the default.
        #expect(try await selection(fixture, "follower", preferred: ["ja"]).locale == "en")
        // It sent no languages; it subscribed.
        _ = try fixture.service.subscribe(.init(client: "quiet", bundle: "demo"), caller: alice)
        // Its own choice.
        _ = try await fixture.service.selectLocale(.init(client: "chooser", bundle: "demo", locale: "de"), caller: alice).reply()
        // Its process's own language is the bundle's: it counts first.
        #expect(try await selection(fixture, "english", preferred: ["en-US"]).reason == .preferred)
        // Bob's client of the same name.
        #expect(try await selection(fixture, "follower", preferred: ["ja"], caller: bob).locale == "en")

        var seen = fixture.events.events.count
        await fixture.service.desktopLanguagesChanged(uid: 1000, to: french)
        #expect(
            localeChanges(fixture.events.events.dropFirst(seen)) == ["1000/follower: en -> fr", "1000/quiet: en -> fr"])
        #expect(try await selection(fixture, "follower") == .init(client: "follower", bundle: "demo", locale: "fr", reason: .preferred))
        // Its calls that name no locale follow too.
        #expect(try fixture.service.lookup(.init(bundle: "demo", key: "greeting", client: "quiet"), caller: alice).value == "Bonjour")
        #expect(try await selection(fixture, "chooser").locale == "de")
        #expect(try await selection(fixture, "english").locale == "en")
        #expect(try await selection(fixture, "follower", caller: bob).locale == "en")
        // The same languages again change nothing.
        seen = fixture.events.events.count
        await fixture.service.desktopLanguagesChanged(uid: 1000, to: french)
        #expect(fixture.events.events.count == seen)

        await fixture.service.desktopLanguagesChanged(uid: 1000, to: german)
        #expect(
            localeChanges(fixture.events.events.dropFirst(seen)) == ["1000/follower: fr -> de", "1000/quiet: fr -> de"])
        // A process that starts now gets the desktop's, after its own.
        #expect(try await selection(fixture, "newcomer", preferred: ["ja"]).locale == "de")
        #expect(try await selection(fixture, "newcomer", preferred: ["en-GB"]).locale == "en")
        // French was the desktop's: a process that sends it got it from the
        // session, and the desktop's languages now count first.
        #expect(try await selection(fixture, "newcomer", preferred: ["fr"]).locale == "de")

        // "Use the system language": the choice goes, the desktop's applies.
        let reset = try await fixture.service.resetSelection(.init(client: "chooser", bundle: "demo"), caller: alice).reply()
        #expect(reset.selection == .init(client: "chooser", bundle: "demo", locale: "de", reason: .preferred))
        let listed = try await list(fixture, alice).clients.first { $0.client == "chooser" }?.bundles.first
        #expect(listed?.reason == .preferred && listed?.locale == "de")

        // No desktop languages: back to the development locale.
        seen = fixture.events.events.count
        await fixture.service.desktopLanguagesChanged(uid: 1000, to: [])
        #expect(
            localeChanges(fixture.events.events.dropFirst(seen)) == [
                "1000/follower: de -> en", "1000/quiet: de -> en", "1000/chooser: de -> en",
                // With no desktop languages, its process's own are all it has.
                "1000/newcomer: de -> fr",
            ])
        #expect(try await selection(fixture, "quiet").reason == .default)
    }

    /// GNOME's session gives every app it starts the desktop's language at
    /// login (LANG, LANGUAGE) until the next login; a change in GNOME
    /// Settings must still reach them.
    @Test func aProcessThatSentTheDesktopsEarlierLanguageFollowsTheDesktopsChange() async throws {
        let fixture = try ServiceFixture()
        await fixture.service.desktopLanguagesChanged(uid: 1000, to: [try LocaleIdentifier("en_US")])
        // Started in the session: the language the desktop has.
        #expect(try await selection(fixture, "editor", preferred: ["en-US", "en"]).locale == "en")
        // Started with a language of its own (LANGUAGE=de in a terminal).
        #expect(try await selection(fixture, "viewer", preferred: ["de-AT"]).locale == "de")

        let seen = fixture.events.events.count
        await fixture.service.desktopLanguagesChanged(uid: 1000, to: [try LocaleIdentifier("fr_FR")])
        #expect(localeChanges(fixture.events.events.dropFirst(seen)) == ["1000/editor: en -> fr"])
        #expect(try await selection(fixture, "editor", preferred: ["en-US", "en"]).locale == "fr")
        #expect(try await selection(fixture, "viewer", preferred: ["de-AT"]).locale == "de")
        // A process the session starts after the change still has the
        // login's language, and gets the desktop's.
        #expect(try await selection(fixture, "calculator", preferred: ["en-US"]).locale == "fr")
        // Without a desktop, the process's own languages are all there is.
        #expect(try await selection(fixture, "editor", preferred: ["en-US"], caller: bob).locale == "en")
    }

    /// A user flipping its desktop's languages (644 lines in 10 s once):
    /// a burst of 20 lines, then 2 a second, with how many were left out.
    @Test func desktopLanguageFlipsAreLoggedAtABoundedRate() async throws {
        let log = RecordingLog()
        let fixture = try ServiceFixture(logger: log.logger)
        let french = [try LocaleIdentifier("fr")], german = [try LocaleIdentifier("de")]
        for round in 0..<300 { await fixture.service.desktopLanguagesChanged(uid: 1000, to: round % 2 == 0 ? french : german) }
        let lines = log.lines.filter { $0.hasPrefix("the desktop's languages of uid 1000") }
        #expect(lines.count >= 20 && lines.count < 30, "\(lines.count) lines for 300 changes")
    }
}
