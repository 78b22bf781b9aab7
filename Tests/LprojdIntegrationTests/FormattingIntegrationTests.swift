import Foundation
import LprojClient
import LprojInterface
import Testing
import VarlinkProtocol

/// Formatters and locale names in each client's language, through the real
/// daemon: the locale a client selected, its saved preferences (kept across
/// a restart), the bundle's separator overrides, and preferencesChanged.
@Suite(.serialized) struct FormattingIntegrationTests {
    static let files = [
        "en.lproj/Localizable.strings": """
        "title" = "Title";
        "LM_locale_name_pt-BR" = "Brazilian Portuguese";
        "LM_decimal_separator" = "!";
        """,
        "de.lproj/Localizable.strings": "\"title\" = \"Titel\";\n\"LM_locale_name_pt_BR\" = \"Brasilianisch\";\n",
        // A grouping of the bundle's own for Swiss German.
        "de-CH.lproj/Localizable.strings": "\"LM_grouping_separator\" = \"'\";\n",
        "fr.lproj/Localizable.strings": "\"title\" = \"Titre\";\n",
        "ar.lproj/Localizable.strings": "\"title\" = \"عنوان\";\n",
        "pt-BR.lproj/Localizable.strings": "\"title\" = \"Título\";\n",
    ]
    /// 2023-11-14T22:13:20.123Z
    static let instant = 1_700_000_000.123

    @Test func aClientsSelectedLocaleDecides() async throws {
        let daemon = try await DaemonProcess(files: Self.files)
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        // Without a client: the locale asked for, or the development locale.
        #expect(try await lprojd.format(.number(1234.5, style: .decimal), locale: "de").value == "1.234,5")
        #expect(try await lprojd.format(.number(1234.5, style: .decimal), bundle: "demo").locale == "en")
        _ = try await lprojd.select(client: "app", bundle: "demo", locale: "fr")
        let french = try await lprojd.format(.number(25, style: .percent), bundle: "demo", client: "app")
        #expect(french.locale == "fr")
        #expect(french.value == "25\u{A0}%")
        let date = try await lprojd.format(.date(Self.instant, style: .simpleDate), bundle: "demo", client: "app")
        #expect(date.value == "14/11/2023" && date.pattern == "dd/MM/yyyy" && date.timeZone == "GMT")
        _ = try await lprojd.select(client: "app", bundle: "demo", locale: "ar")
        let arabic = try await lprojd.format(.distance(meters: 1500), bundle: "demo", client: "app")
        #expect(arabic.unit == "meters" && arabic.value.contains("١٬٥٠٠٫٠"))
        // An explicit locale wins over the selection.
        #expect(
            try await lprojd.format(.text("istanbul", style: .uppercase), bundle: "demo", client: "app", locale: "tr").value == "İSTANBUL")
    }

    @Test func theBundlesSeparatorsApplyToItsOwnLanguageOnly() async throws {
        let daemon = try await DaemonProcess(files: Self.files)
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        // The bundle's grouping for de-CH, and Swiss German's own decimal
        // point: English's "!" is the development locale's, not German's.
        #expect(try await lprojd.format(.number(1_234_567.5, style: .decimal), bundle: "demo", locale: "de-CH").value == "1'234'567.5")
        #expect(
            try await lprojd.format(.number(1_234.5, style: .currency, currency: "CHF"), bundle: "demo", locale: "de-CH").value.contains(
                "1'234.50"))
        #expect(try await lprojd.format(.distance(meters: 1_234_567), bundle: "demo", locale: "de-CH").value.hasPrefix("1'234'567.0"))
        #expect(try await lprojd.format(.number(1_234.5, style: .decimal), bundle: "demo", locale: "de").value == "1.234,5")
        // English sets its own decimal separator.
        #expect(try await lprojd.format(.number(1_234.5, style: .decimal), bundle: "demo", locale: "en").value == "1,234!5")
        // Added strings count too, for their client.
        try await lprojd.addStrings(["LM_decimal_separator": "·"], client: "app", bundle: "demo", locale: "fr")
        #expect(try await lprojd.format(.number(1.5, style: .decimal), bundle: "demo", client: "app", locale: "fr").value == "1·5")
        #expect(try await lprojd.format(.number(1.5, style: .decimal), bundle: "demo", locale: "fr").value == "1,5")
    }

    @Test func preferencesAreSavedCheckedAnnouncedAndKeptAcrossARestart() async throws {
        let daemon = try await DaemonProcess(files: Self.files)
        var lprojd = try await daemon.client()
        let mine = EventRecorder(try await lprojd.events(client: "app"))
        let other = EventRecorder(try await lprojd.events(client: "other.app"))
        _ = try await mine.next()
        _ = try await other.next()

        let reply = try await lprojd.setPreferences(
            Localization.Preferences(
                dateFormat: "yyyy.MM.dd", distanceUnit: "miles", currencySymbol: "US$", timeZone: "US/Pacific", calendar: "gregory"),
            client: "app", bundle: "demo")
        let (saved, changed) = (reply.preferences, reply.changed)
        #expect(changed == ["dateFormat", "distanceUnit", "currencySymbol", "timeZone", "calendar"])
        // Stored canonical.
        #expect(saved.timeZone == "America/Los_Angeles" && saved.calendar == "gregorian")
        let event = try await mine.next { $0.type == .preferencesChanged }
        #expect(event.client == "app" && event.bundle == "demo")
        #expect(event.changed == changed)
        guard let announced = event.preferences else {
            Issue.record("no preferences in \(event)")
            return
        }
        #expect(announced.distanceUnit == "miles")

        // Unusable values change nothing, and say which and why.
        await expectError("org.lprojd.Localization.InvalidValue", ["parameter": "preferences.timeZone"]) {
            _ = try await lprojd.setPreferences(
                Localization.Preferences(speedUnit: "knots", timeZone: "Mars/Base"), client: "app", bundle: "demo")
        }
        await expectError("org.lprojd.Localization.InvalidValue", ["parameter": "preferences.dateFormat"]) {
            _ = try await lprojd.setPreferences(Localization.Preferences(dateFormat: "yyyy-MM-dd Jj"), client: "app", bundle: "demo")
        }
        await expectError("org.lprojd.Localization.InvalidValue", ["parameter": "clear"]) {
            _ = try await lprojd.setPreferences(Localization.Preferences(), clear: ["colour"], client: "app", bundle: "demo")
        }
        #expect(try await lprojd.preferences(client: "app", bundle: "demo") == saved)

        // They apply to this client's formats.
        _ = try await lprojd.select(client: "app", bundle: "demo", locale: "de")
        #expect(try await lprojd.format(.distance(meters: 1_609.344), bundle: "demo", client: "app").value == "1,0 mi")
        #expect(try await lprojd.format(.date(Self.instant, style: .savedDate), bundle: "demo", client: "app").value == "2023.11.14")
        #expect(try await lprojd.format(.date(Self.instant, style: .time24), bundle: "demo", client: "app").value == "14:13")
        #expect(try await lprojd.format(.number(9.5, style: .currency), bundle: "demo", client: "app").value == "9,50\u{A0}US$")
        // Another client of the same bundle has its own: none, and no
        // selection, so the development locale's: en (likely en-US, so
        // feet), with the bundle's "!".
        #expect(try await lprojd.format(.distance(meters: 1_609.344), bundle: "demo", client: "other.app").value == "5,280!0 ft")

        // Clearing a field is a change too.
        let cleared = try await lprojd.setPreferences(Localization.Preferences(), clear: ["currencySymbol"], client: "app", bundle: "demo")
            .changed
        #expect(cleared == ["currencySymbol"])
        _ = try await mine.next { $0.type == .preferencesChanged && $0.changed == ["currencySymbol"] }
        // Setting what is already set changes nothing and says nothing.
        #expect(
            try await lprojd.setPreferences(Localization.Preferences(distanceUnit: "miles"), client: "app", bundle: "demo").changed == [])
        #expect(!other.events.contains { $0.type == .preferencesChanged })

        // A restart keeps them.
        await lprojd.close()
        #expect(try await daemon.stop() == 0)
        try await daemon.start()
        lprojd = try await daemon.client()
        var expected = saved
        expected.currencySymbol = nil
        #expect(try await lprojd.preferences(client: "app", bundle: "demo") == expected)
        #expect(
            try await lprojd.format(.date(Self.instant, style: .savedDateTime), bundle: "demo", client: "app").value == "2023.11.14 14:13")
        await lprojd.close()
    }

    @Test func supportedLocalesAreNamedInTheDisplayLocale() async throws {
        let daemon = try await DaemonProcess(files: Self.files)
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let inEnglish = try await lprojd.supportedLocales(bundle: "demo")
        let (display, english) = (inEnglish.displayLocale, inEnglish.locales)
        #expect(display == "en")
        #expect(english.map(\.locale) == ["ar", "de", "de-CH", "en", "fr", "pt-BR"])
        let portuguese = try #require(english.first { $0.locale == "pt-BR" })
        #expect(portuguese.name == "Portuguese (Brazil)" && portuguese.nativeName == "Português (Brasil)")
        #expect(portuguese.bundleName == "Brazilian Portuguese")
        #expect(english.first { $0.locale == "de" }?.nativeName == "Deutsch")
        #expect(english.first { $0.locale == "fr" }?.bundleName == nil)

        _ = try await lprojd.select(client: "app", bundle: "demo", locale: "de")
        let inGerman = try await lprojd.supportedLocales(bundle: "demo", client: "app")
        let (german, names) = (inGerman.displayLocale, inGerman.locales)
        #expect(german == "de")
        #expect(names.first { $0.locale == "fr" }?.name == "Französisch")
        // SDLocalizationManager's ids were written with '_'.
        #expect(names.first { $0.locale == "pt-BR" }?.bundleName == "Brasilianisch")
        #expect(try await lprojd.supportedLocales(bundle: "demo", locale: "ar").locales.first { $0.locale == "de" }?.name == "الألمانية")
    }

    @Test func theServerFormatRoundTripsAndBadRequestsAreClearErrors() async throws {
        let daemon = try await DaemonProcess(files: Self.files)
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let server = try await lprojd.format(.date(Self.instant, style: .server), locale: "ar")
        #expect(server.value == "2023-11-14 22:13:20.123" && server.timeZone == "GMT")
        #expect(try await lprojd.parseDate(server.value) == Self.instant)
        #expect(
            try await lprojd.parseDate("14.11.2023 23:13", pattern: "dd.MM.yyyy HH:mm", locale: "de", timeZone: "Europe/Berlin")
                == 1_699_999_980)

        await expectError("org.lprojd.Localization.InvalidValue", ["parameter": "text"]) { _ = try await lprojd.parseDate("yesterday") }
        await expectError("org.varlink.service.InvalidParameter", ["parameter": "number"]) {
            _ = try await daemon.call("Format", ["style": "decimal", "locale": "de"])
        }
        await expectError("org.varlink.service.InvalidParameter", ["parameter": "style"]) {
            _ = try await daemon.call("Format", ["style": "roman", "number": 4, "locale": "de"])
        }
        await expectError("org.varlink.service.InvalidParameter", ["parameter": "bundle"]) {
            _ = try await lprojd.format(.number(1, style: .decimal), client: "app", locale: "de")
        }
        await expectError("org.varlink.service.InvalidParameter", ["parameter": "locale"]) {
            _ = try await lprojd.format(.number(1, style: .decimal))
        }
        await expectError("org.lprojd.Localization.InvalidLocale") {
            _ = try await lprojd.format(.number(1, style: .decimal), locale: "xx-YY")
        }
        await expectError("org.lprojd.Localization.BundleNotFound") {
            _ = try await lprojd.format(.number(1, style: .decimal), bundle: "nope")
        }
        await expectError("org.lprojd.Localization.InvalidValue", ["parameter": "unit"]) {
            _ = try await lprojd.format(.distance(meters: 1, unit: "parsecs"), locale: "de")
        }
        await expectError("org.lprojd.Localization.InvalidValue", ["parameter": "timeZone"]) {
            _ = try await lprojd.format(.date(0, style: .time24, timeZone: "Nowhere"), locale: "de")
        }
        await expectError("org.lprojd.Localization.InvalidValue", ["parameter": "pattern"]) {
            _ = try await lprojd.format(.date(0, style: .pattern, pattern: "'open"), locale: "de")
        }
        await expectError("org.lprojd.Localization.InvalidValue", ["parameter": "fractionDigits"]) {
            _ = try await lprojd.format(.number(1, style: .decimal, fractionDigits: 40), locale: "de")
        }
        await expectError("org.lprojd.Localization.LimitExceeded", ["limit": "text"]) {
            _ = try await lprojd.format(.text(String(repeating: "a", count: 70_000), style: .uppercase), locale: "de")
        }
        // The connection is still good.
        #expect(try await lprojd.format(.number(1, style: .spellOut), locale: "fr").value == "un")
    }

    @Test func lprojctlFormatsAndNames() async throws {
        let daemon = try await DaemonProcess(files: Self.files)
        let ctl = DaemonProcess.binaries.appendingPathComponent("lprojctl").path
        func lprojctl(_ arguments: [String]) async throws -> Finished {
            try await run(ctl, arguments + ["--socket", daemon.socket])
        }
        #expect(try await lprojctl(["format", "currency", "1234.5", "--locale", "pt-BR"]).output == "R$\u{A0}1.234,50\n")
        #expect(
            try await lprojctl(["format", "template", "2023-11-14T22:13:20Z", "--template", "yMMMMd", "--locale", "fr"]).output
                == "14 novembre 2023\n")
        #expect(try await lprojctl(["preferences", "app", "demo", "--set", "speedUnit=knots"]).output.contains("speedUnit: knots"))
        // The development locale, en, with the bundle's decimal separator.
        #expect(try await lprojctl(["format", "speed", "10", "--bundle", "demo", "--client", "app"]).output == "19!4 kn\n")
        let locales = try await lprojctl(["locales", "demo", "--locale", "fr"])
        #expect(
            locales.output.contains("names in fr:")
                && locales.output.contains("pt-BR  Portugais (Brésil) — Português (Brasil) — bundle: Brazilian Portuguese"),
            "\(locales.output)")
        let bad = try await lprojctl(["format", "decimal", "many"])
        #expect(bad.status != 0 && bad.errors.contains("decimal takes a number"))
    }
}
