import LprojInterface
import LprojFormatStrings
import LprojLimits
import LprojService
import LprojStore
import LprojTestSupport
import Testing

/// The service in process, typed calls in and typed replies out, with a
/// store in memory: what the socket tests check end to end, checked here
/// without one.
@Suite struct LocalizationServiceTests {
    let alice = Caller(uid: 1000), bob = Caller(uid: 1001)

    func lookup(
        _ fixture: ServiceFixture, _ key: String, locale: String? = nil, client: String? = nil, caller: Caller = Caller(uid: 1000),
        arguments: [Localization.Argument]? = nil, placeholders: [String: String]? = nil, defaultValue: String? = nil
    ) throws(ServiceError) -> Localization.Lookup.Reply {
        try fixture.service.lookup(
            .init(
                bundle: "demo", key: key, locale: locale, client: client, defaultValue: defaultValue, arguments: arguments,
                placeholders: placeholders),
            caller: caller)
    }

    @Test func lookupsFallBackPerKey() throws {
        let fixture = try ServiceFixture()
        #expect(try lookup(fixture, "greeting", locale: "de") == .init(value: "Hallo", found: true, locale: "de"))
        #expect(try lookup(fixture, "farewell", locale: "de-AT") == .init(value: "Goodbye", found: true, locale: "en"))
        #expect(try lookup(fixture, "only.base", locale: "fr") == .init(value: "From Base", found: true, locale: "Base"))
        #expect(try lookup(fixture, "missing", locale: "fr") == .init(value: "missing", found: false))
        #expect(try lookup(fixture, "missing", defaultValue: "?") == .init(value: "?", found: false))
        #expect(try fixture.service.lookup(.init(bundle: "demo", key: "file", table: "Menu"), caller: alice).value == "File")
    }

    @Test func argumentsArePluralsAndNumbersOfTheValuesLanguage() throws {
        let fixture = try ServiceFixture()
        #expect(try lookup(fixture, "files.selected", locale: "de", arguments: [.int(1)]).value == "1 Datei ausgewählt")
        #expect(try lookup(fixture, "files.selected", locale: "de", arguments: [.int(3)]).value == "3 Dateien ausgewählt")
        #expect(
            try lookup(fixture, "download.progress", locale: "de", arguments: [.float(45.5), .string("a.pdf")]).value
                == "a.pdf: 45,5 % geladen")
        #expect(try lookup(fixture, "welcome", placeholders: ["name": "Ada"]).value == "Welcome, Ada!")
    }

    @Test func badCallsAreTypedErrors() throws {
        let fixture = try ServiceFixture()
        #expect(
            throws: ServiceError.localization(
                .invalidArguments(
                    .init(
                        key: "download.progress", message: "argument 1 is a string, but %1$.1f needs a floating-point number", position: 1,
                        specifier: "%1$.1f", expected: "floating-point number", actual: "string")))
        ) {
            try lookup(fixture, "download.progress", arguments: [.string("x"), .string("y")])
        }
        #expect(throws: ServiceError.localization(.bundleNotFound(.init(bundle: "nope")))) {
            try fixture.service.lookup(.init(bundle: "nope", key: "k"), caller: alice)
        }
        #expect(throws: ServiceError.invalidParameter("table")) {
            try fixture.service.lookup(.init(bundle: "demo", key: "k", table: "../etc/passwd"), caller: alice)
        }
        #expect(throws: ServiceError.invalidParameter("client")) { try lookup(fixture, "greeting", client: "has space") }
        #expect(throws: ServiceError.invalidParameter("arguments")) {
            try lookup(fixture, "greeting", arguments: [.init(string: "a", int: 1)])
        }
        #expect(throws: ServiceError.invalidParameter("arguments")) {
            try lookup(fixture, "greeting", arguments: [.init(int: 1, fractionDigits: 2)])
        }
        do {
            _ = try lookup(fixture, "greeting", locale: "tlh")
            Issue.record("tlh was accepted")
        } catch {
            guard case .localization(.invalidLocale(let fields)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(fields.locale == "tlh")
        }
        var limits = ServiceLimits()
        limits.requests.maximumKeyLength = 8
        let limited = try ServiceFixture(limits: limits)
        #expect(throws: ServiceError.limitExceeded(.keyLength, maximum: 8)) { try lookup(limited, "a.key.too.long") }
    }

    @Test func aSmallTableComesAtOnceWithEveryKeysSource() async throws {
        let fixture = try ServiceFixture()
        let answer = try fixture.service.getTable(.init(bundle: "demo", locale: "de"), caller: alice)
        guard case .now(let table) = answer else {
            Issue.record("a small table is built where a lookup is answered")
            return
        }
        #expect(table.locale == "de" && table.table == "Localizable")
        #expect(table.strings["greeting"] == "Hallo" && table.sources["greeting"] == "de")
        #expect(table.strings["farewell"] == "Goodbye" && table.sources["farewell"] == "en")
        #expect(table.strings["only.base"] == "From Base" && table.sources["only.base"] == "Base")
        #expect(table.plurals["files.selected"]?.variables["n"]?.one == "%d Datei ausgewählt")
        #expect(throws: ServiceError.localization(.tableNotFound(.init(bundle: "demo", table: "Nope")))) {
            try fixture.service.getTable(.init(bundle: "demo", table: "Nope"), caller: alice)
        }
    }

    @Test func aLargeTableComesLaterOffTheEventLoop() async throws {
        // 300 keys in de and in en: 600 entries to visit, past what is
        // built on the event loop.
        func table(_ value: String) -> String { (0..<300).map { "\"key.\($0)\" = \"\(value) \($0)\";\n" }.joined() }
        let fixture = try ServiceFixture(files: [
            "en.lproj/Localizable.strings": table("Value") + "\"only.en\" = \"English\";\n", "de.lproj/Localizable.strings": table("Wert"),
        ])
        let answer = try fixture.service.getTable(.init(bundle: "demo", locale: "de"), caller: alice)
        guard case .later = answer else {
            Issue.record("a large table is built off the event loop")
            return
        }
        let table = try await answer.reply()
        #expect(table.strings.count == 301)
        #expect(table.strings["key.299"] == "Wert 299" && table.sources["key.299"] == "de")
        #expect(table.strings["only.en"] == "English" && table.sources["only.en"] == "en")
        // The same table for en alone visits 301 entries: built at once.
        guard case .now(let english) = try fixture.service.getTable(.init(bundle: "demo", locale: "en"), caller: alice) else {
            Issue.record("a table of one folder's 301 entries is built at once")
            return
        }
        #expect(english.strings["key.0"] == "Value 0")
    }

    /// A table is small by its bytes too: sixty added values of control
    /// characters are few entries but megabytes to escape. It is built off
    /// the event loop, and one too large to send is refused before it is
    /// built (or pseudo-localized), not after.
    @Test func aTableOfFewLargeValuesIsCountedByItsBytes() async throws {
        var limits = ServiceLimits()
        limits.server.maximumReplySize = 1 << 20
        let fixture = try ServiceFixture(limits: limits, pseudoLocales: true)
        let control = String(repeating: "\u{1}", count: 60_000)
        for locale in ["en", "de"] {
            let strings = Dictionary(uniqueKeysWithValues: (0..<3).map { ("added.\($0)", control) })
            _ = try fixture.service.addStrings(.init(client: "app", bundle: "demo", locale: locale, strings: strings), caller: alice)
        }
        for locale in ["de", "en-XA"] {
            let answer = try fixture.service.getTable(.init(bundle: "demo", locale: locale, client: "app"), caller: alice)
            guard case .later = answer else {
                Issue.record("a table of 180 KB is not built on the event loop (\(locale))")
                continue
            }
            // 3 values × 60,000 × 6 bytes: more than the 1 MiB allowed.
            await #expect(throws: ServiceError.limitExceeded(.replySize, maximum: 1 << 20)) { try await answer.reply() }
        }
        // Without the added strings, the same table fits and is built at once.
        guard case .now(let table) = try fixture.service.getTable(.init(bundle: "demo", locale: "de"), caller: alice) else {
            Issue.record("a small table is built at once")
            return
        }
        #expect(table.strings["greeting"] == "Hallo")
    }

    /// Each change to a client's state is an event for its user's
    /// subscribers: a uid makes them at a bounded rate, and another uid's
    /// are not counted against it. (Oneway add-and-remove pairs, a new
    /// client id each time, once filled the event queue for every uid.)
    @Test func aUIDChangesItsClientsStateAtABoundedRate() async throws {
        var limits = ServiceLimits()
        limits.requests.changeBurstPerUID = 50
        limits.requests.changesPerSecondPerUID = 1
        let fixture = try ServiceFixture(limits: limits)
        var refused = 0
        for index in 0..<60 {
            do {
                _ = try fixture.service.addStrings(
                    .init(client: "hostile.\(index)", bundle: "demo", locale: "de", strings: ["k": "v"]), caller: alice)
            } catch {
                #expect(error == .limitExceeded(.changesPerSecond, maximum: 1))
                refused += 1
            }
        }
        #expect(refused >= 9 && refused <= 10)
        #expect(fixture.events.events.count == 60 - refused)
        #expect(throws: ServiceError.limitExceeded(.changesPerSecond, maximum: 1)) {
            try fixture.service.selectLocale(.init(client: "app", bundle: "demo", locale: "de"), caller: alice)
        }
        // Another uid changes its own clients as before.
        let reply = try await fixture.service.selectLocale(.init(client: "app", bundle: "demo", locale: "de"), caller: bob).reply()
        #expect(reply.selection.locale == "de")
    }

    /// A call of 150 bytes may name an added value of 64 KB to format: a
    /// lookup is answered at once only when what it reads and formats is
    /// small, whatever the size of the call; and what it formats is bounded
    /// in work wherever it runs.
    @Test func aLookupIsAnsweredOffTheLoopWhenItsValueIsLargeToFormat() async throws {
        let fixture = try ServiceFixture()
        let precise = String(repeating: "%1$.4096g", count: 7_000)
        _ = try fixture.service.addStrings(
            .init(client: "app", bundle: "demo", locale: "de", strings: ["p": precise, "short": "%1$.1f"]), caller: alice)
        let tiny = Localization.Lookup.Parameters(
            bundle: "demo", key: "p", locale: "de", client: "app", arguments: [.init(float: .init(0.1))])
        guard case .later = try fixture.service.answerLookup(tiny, caller: alice) else {
            Issue.record("63 KB to format were formatted on the event loop")
            return
        }
        await #expect(throws: ServiceError.limitExceeded(.work, maximum: FormatRenderer.maximumWork)) {
            try await fixture.service.answerLookup(tiny, caller: alice).reply()
        }
        // Without arguments it is not formatted, but still 63 KB to send
        // (and 250 KB in a pseudo-locale): later too.
        let plainLookup = Localization.Lookup.Parameters(bundle: "demo", key: "p", locale: "de", client: "app")
        guard case .later = try fixture.service.answerLookup(plainLookup, caller: alice) else {
            Issue.record("63 KB were sent from the event loop")
            return
        }
        #expect(try await fixture.service.answerLookup(plainLookup, caller: alice).reply().value == precise)
        let small = Localization.Lookup.Parameters(
            bundle: "demo", key: "short", locale: "de", client: "app", arguments: [.init(float: .init(2.5))])
        guard case .now(let reply) = try fixture.service.answerLookup(small, caller: alice) else {
            Issue.record("a small lookup is answered at once")
            return
        }
        #expect(reply.value == "2,5")
    }

    @Test func selectionsBelongToTheirUserAndAreAnnouncedOnlyToThem() async throws {
        let fixture = try ServiceFixture()
        // A preferred language is chosen and saved (later: it writes the store).
        let chosen = try await fixture.service.getSelection(
            .init(client: "app", bundle: "demo", preferredLanguages: ["de-CH", "fr"]), caller: alice
        ).reply()
        #expect(chosen.selection == .init(client: "app", bundle: "demo", locale: "de", reason: .preferred))
        #expect(fixture.store.selection(for: ClientKey(uid: 1000, client: "app"), bundle: "demo")?.locale == "de")
        #expect(
            fixture.events.events == [
                .localeChanged(owner: ClientKey(uid: 1000, client: "app"), bundle: "demo", locale: "de", previous: "en")
            ])
        #expect(fixture.events.events.first?.audience == .owner(ClientKey(uid: 1000, client: "app")))
        // Another user's client of the same name has its own.
        let bobs = try await fixture.service.getSelection(.init(client: "app", bundle: "demo"), caller: bob).reply()
        #expect(bobs.selection.reason == .default && bobs.selection.locale == "en")
        // An unsupported locale falls back, and says what was asked.
        let fallback = try await fixture.service.selectLocale(.init(client: "app", bundle: "demo", locale: "ja"), caller: alice).reply()
        #expect(fallback.selection == .init(client: "app", bundle: "demo", locale: "en", reason: .default, requested: "ja"))
        #expect(try lookup(fixture, "greeting", client: "app") == .init(value: "Hello", found: true, locale: "en"))
        _ = try await fixture.service.selectLocale(.init(client: "app", bundle: "demo", locale: "fr-CA"), caller: alice).reply()
        #expect(try lookup(fixture, "greeting", client: "app").value == "Bonjour")
        #expect(try lookup(fixture, "greeting", client: "app", caller: bob).value == "Hello")
        // Forgetting the choice: the preferred languages the app sent (de-CH, fr) apply again.
        let reset = try await fixture.service.resetSelection(.init(client: "app", bundle: "demo"), caller: alice).reply()
        #expect(reset.selection == .init(client: "app", bundle: "demo", locale: "de", reason: .preferred))
        #expect(try lookup(fixture, "greeting", client: "app").value == "Hallo")
    }

    @Test func aSavedLocaleTheBundleLacksForNowIsKeptAndNotInEffect() async throws {
        let fixture = try ServiceFixture()
        let key = ClientKey(uid: 1000, client: "app")
        // Saved while the bundle had it.lproj (its folder is gone for now).
        try await fixture.store.saveSelection("it", for: key, bundle: "demo")
        let asked = try await fixture.service.getSelection(
            .init(client: "app", bundle: "demo", preferredLanguages: ["de"]), caller: alice
        ).reply()
        #expect(asked.selection == .init(client: "app", bundle: "demo", locale: "de", reason: .preferred))
        #expect(fixture.store.selection(for: key, bundle: "demo")?.locale == "it")
        // A call naming the client but no locale reads what is in effect.
        let table = try await fixture.service.getTable(.init(bundle: "demo", client: "app"), caller: alice).reply()
        #expect(table.locale == "en")
        // Selecting the locale in effect changes nothing anyone sees: no event.
        _ = try await fixture.service.selectLocale(.init(client: "app", bundle: "demo", locale: "en"), caller: alice).reply()
        #expect(fixture.events.events.isEmpty)
    }

    @Test func preferencesAreCheckedSavedAndAnnounced() async throws {
        let fixture = try ServiceFixture()
        let set = try await fixture.service.setPreferences(
            .init(client: "app", bundle: "demo", preferences: .init(distanceUnit: "miles", timeZone: "US/Pacific")), caller: alice
        ).reply()
        #expect(set.preferences == .init(distanceUnit: "miles", timeZone: "America/Los_Angeles"))
        #expect(set.changed == ["distanceUnit", "timeZone"])
        #expect(try fixture.service.getPreferences(.init(client: "app", bundle: "demo"), caller: alice).preferences == set.preferences)
        #expect(try fixture.service.getPreferences(.init(client: "app", bundle: "demo"), caller: bob).preferences == .init())
        guard case .preferencesChanged(let owner, _, _, let changed)? = fixture.events.events.last else {
            Issue.record("no event")
            return
        }
        #expect(owner == ClientKey(uid: 1000, client: "app") && changed == ["distanceUnit", "timeZone"])
        // The client's preferences apply to its formatting.
        #expect(
            try fixture.service.format(.init(style: .distance, bundle: "demo", client: "app", number: 1609.344), caller: alice).value
                == "1.0 mi")
        #expect(throws: ServiceError.localization(.invalidValue(.init(parameter: "clear", reason: "'colour' is not a preference")))) {
            try fixture.service.setPreferences(.init(client: "app", bundle: "demo", clear: ["colour"]), caller: alice)
        }
        do {
            _ = try fixture.service.setPreferences(
                .init(client: "app", bundle: "demo", preferences: .init(timeZone: "Mars/Base")), caller: alice)
            Issue.record("Mars/Base was accepted")
        } catch {
            guard case .localization(.invalidValue(let fields)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(fields.parameter == "preferences.timeZone")
        }
        let cleared = try await fixture.service.setPreferences(.init(client: "app", bundle: "demo", clear: ["timeZone"]), caller: alice)
            .reply()
        #expect(cleared.preferences == .init(distanceUnit: "miles") && cleared.changed == ["timeZone"])
    }

    @Test func addedStringsOverlayOneClientOfOneUser() throws {
        let fixture = try ServiceFixture()
        let added = try fixture.service.addStrings(
            .init(client: "app", bundle: "demo", locale: "de", strings: ["greeting": "Servus", "new": "Neu"]), caller: alice)
        #expect(added.count == 2)
        #expect(try lookup(fixture, "greeting", locale: "de", client: "app").value == "Servus")
        #expect(try lookup(fixture, "greeting", locale: "de", client: "other").value == "Hallo")
        #expect(try lookup(fixture, "greeting", locale: "de", client: "app", caller: bob).value == "Hallo")
        #expect(fixture.events.events.last?.audience == .owner(ClientKey(uid: 1000, client: "app")))
        #expect(try fixture.service.removeAddedStrings(.init(client: "app", bundle: "demo"), caller: alice).removed == 2)
        #expect(try lookup(fixture, "greeting", locale: "de", client: "app").value == "Hallo")
    }

    @Test func negotiationFormattingAndNames() async throws {
        let fixture = try ServiceFixture()
        let negotiated = try await fixture.service.negotiate(.init(available: ["en", "en-GB", "fr"], preferredLanguages: ["en-AU"])).reply()
        #expect(negotiated == .init(locale: "en", match: .language))
        let none = try await fixture.service.negotiate(.init(available: ["fr"], preferredLanguages: ["ja"], defaultValue: "?")).reply()
        #expect(none == .init(value: "?", match: .default))
        #expect(try fixture.service.format(.init(style: .decimal, locale: "de", number: 1234.5), caller: alice).value == "1.234,5")
        #expect(throws: ServiceError.invalidParameter("number")) {
            try fixture.service.format(.init(style: .decimal, locale: "de"), caller: alice)
        }
        #expect(try fixture.service.parseDate(.init(text: "2023-11-14 22:13:20.000"), caller: alice).date == 1_700_000_000)
        let names = try await fixture.service.supportedLocales(.init(bundle: "demo", locale: "en"), caller: alice).reply()
        #expect(
            names.locales.first { $0.locale == "de" }
                == .init(locale: "de", name: "German", nativeName: "Deutsch", bundleName: "German (ours)"))
    }

    /// ICU's calendar arithmetic grows with a date's distance in some
    /// calendars (islamic-umalqura at 10¹⁴ s: 80 ms): a date within about
    /// 3,000 years is formatted at once, a farther one by the workers, and
    /// one past 317,000 years not at all.
    @Test func farDatesAreFormattedOffTheEventLoop() async throws {
        let fixture = try ServiceFixture()
        func call(_ seconds: Double, calendar: String = "islamic-umalqura") -> Localization.Format.Parameters {
            .init(style: .pattern, locale: "ar", date: .init(seconds), pattern: "EEEE d MMMM y G", timeZone: "UTC", calendar: calendar)
        }
        guard case .now(let near) = try fixture.service.answerFormat(call(1.7e9), caller: alice) else {
            Issue.record("a date of this century was not formatted at once")
            return
        }
        #expect(near.calendar == "islamic-umalqura")
        for seconds in [1.1e11, -5e12, 1e13] {
            guard case .later(let work) = try fixture.service.answerFormat(call(seconds), caller: alice) else {
                Issue.record("\(seconds) s was formatted on the event loop")
                continue
            }
            #expect(try await work().value.isEmpty == false)
        }
        #expect(throws: ServiceError.self) { try fixture.service.answerFormat(call(1.0001e13), caller: alice) }
        // Whatever the style: the edge of the quick range is still formatted at once.
        guard case .now = try fixture.service.answerFormat(call(1e11, calendar: "chinese"), caller: alice) else {
            Issue.record("a date at the edge of the quick range went to the workers")
            return
        }
    }

    @Test func statusShowsEachUserOnlyTheirOwnUsage() async throws {
        let fixture = try ServiceFixture(daemonUID: 999)
        _ = try fixture.service.addStrings(.init(client: "app", bundle: "demo", locale: "de", strings: ["k": "v"]), caller: alice)
        _ = try fixture.service.addStrings(.init(client: "app", bundle: "demo", locale: "de", strings: ["k": "v"]), caller: bob)
        #expect(fixture.service.getStatus(.init(), caller: bob).usage.map(\.uid) == [1001])
        #expect(fixture.service.getStatus(.init(), caller: Caller(uid: 999)).usage.map(\.uid) == [1000, 1001])
        #expect(fixture.service.getStatus(.init(), caller: alice).bundles == 1)
        #expect(throws: ServiceError.localization(.permissionDenied(.init(method: "Reload")))) {
            try fixture.service.reload(.init(), caller: alice)
        }
        // lprojd's own user reads the bundles again from the disk.
        try fixture.bundle.write("de.lproj/Localizable.strings", "\"welcome\" = \"Servus\";\n")
        let reloaded = try await fixture.service.reload(.init(bundle: "demo"), caller: Caller(uid: 999)).reply()
        #expect(reloaded.bundles.map(\.name) == ["demo"])
        #expect(try fixture.service.lookup(.init(bundle: "demo", key: "welcome", locale: "de"), caller: alice).value == "Servus")
    }

    @Test func aSubscriptionStartsReady() throws {
        let fixture = try ServiceFixture()
        let subscription = try fixture.service.subscribe(.init(client: "app", bundle: "demo"), caller: alice)
        #expect(subscription.uid == 1000 && subscription.client == "app" && subscription.bundle == "demo")
        #expect(subscription.ready.interfaceEvent.type == .ready)
        #expect(throws: ServiceError.localization(.bundleNotFound(.init(bundle: "nope")))) {
            try fixture.service.subscribe(.init(bundle: "nope"), caller: alice)
        }
    }
}
