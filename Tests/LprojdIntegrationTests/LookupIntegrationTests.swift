import Foundation
import LprojClient
import LprojInterface
import LprojTestSupport
import Testing
import VarlinkProtocol

/// Lookups, tables, bundles and status, through the real daemon.
@Suite(.serialized) struct LookupIntegrationTests {
    @Test func lookupsResolvePerKeyAndFormat() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }

        let german = try await lprojd.lookup(bundle: "demo", key: "welcome.title", locale: "de-AT")
        #expect(german == .init(value: "Willkommen bei Demo", found: true, locale: "de"))
        // Per key: Japanese has no "inbox.unread", so the development locale answers.
        #expect(try await lprojd.lookup(bundle: "demo", key: "inbox.unread", locale: "ja").locale == "en")
        // Base answers what no locale has.
        #expect(try await lprojd.lookup(bundle: "demo", key: "menu.help", table: "Menu", locale: "de").locale == "Base")
        // zh-TW reads Traditional Chinese, never Simplified.
        #expect(try await lprojd.lookup(bundle: "demo", key: "settings.title", locale: "zh-TW").value == "設定")
        #expect(try await lprojd.lookup(bundle: "demo", key: "settings.title", locale: "zh-CN").value == "设置")
        // en-AU falls through en-001 to en; en-GB has its own colour.
        #expect(try await lprojd.lookup(bundle: "demo", key: "colour.label", locale: "en-GB").value == "Colour")
        #expect(try await lprojd.lookup(bundle: "demo", key: "colour.label", locale: "en-AU").value == "Color")

        let missing = try await lprojd.lookup(bundle: "demo", key: "no.such.key", locale: "de", defaultValue: "Fallback")
        #expect(missing == .init(value: "Fallback", found: false, locale: nil))
        #expect(try await lprojd.lookup(bundle: "demo", key: "no.such.key").value == "no.such.key")

        // Without arguments, values come back as written.
        #expect(try await lprojd.lookup(bundle: "demo", key: "files.selected", locale: "ru").value == "Выбрано: %#@files@")
        // With them, formatted, in the value's language.
        #expect(
            try await lprojd.lookup(bundle: "demo", key: "files.selected", locale: "ru", arguments: [.int(22)]).value == "Выбрано: 22 файла"
        )
        #expect(
            try await lprojd.lookup(bundle: "demo", key: "files.selected", locale: "ru", arguments: [.int(25)]).value
                == "Выбрано: 25 файлов")
        #expect(
            try await lprojd.lookup(bundle: "demo", key: "files.selected", locale: "en", arguments: [.int(0)]).value == "No files selected")
        #expect(
            try await lprojd.lookup(bundle: "demo", key: "files.selected", locale: "ar", arguments: [.int(2)]).value == "تم تحديد ملفين")
        #expect(
            try await lprojd.lookup(bundle: "demo", key: "trash.confirm", locale: "en", arguments: [.int(3), .int(1)]).value
                == "Move 3 items from one folder to the Trash?")
        #expect(
            try await lprojd.lookup(bundle: "demo", key: "download.progress", locale: "de", arguments: [.float(45.5), .string("a.pdf")])
                .value == "a.pdf: 45,5 % geladen")
        #expect(
            try await lprojd.lookup(bundle: "demo", key: "greeting", locale: "fr", placeholders: ["name": "Ada"]).value == "Bonjour, Ada !")
    }

    @Test func errorsAreNamedAndSayWhat() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }

        await expectError("org.lprojd.Localization.BundleNotFound", ["bundle": "nope"]) {
            _ = try await lprojd.lookup(bundle: "nope", key: "x")
        }
        await expectError("org.lprojd.Localization.InvalidLocale", ["locale": "tlh"]) {
            _ = try await lprojd.lookup(bundle: "demo", key: "x", locale: "tlh")
        }
        await expectError("org.lprojd.Localization.InvalidLocale", ["locale": "../../etc/passwd"]) {
            _ = try await lprojd.lookup(bundle: "demo", key: "x", locale: "../../etc/passwd")
        }
        await expectError(
            "org.lprojd.Localization.InvalidArguments",
            ["key": "inbox.unread", "position": 1, "specifier": "%d", "expected": "integer", "actual": "string"]
        ) {
            _ = try await lprojd.lookup(bundle: "demo", key: "inbox.unread", locale: "de", arguments: [.string("three")])
        }
        await expectError("org.lprojd.Localization.InvalidArguments", ["position": 2, "specifier": "%@"]) {
            _ = try await lprojd.lookup(bundle: "demo", key: "download.progress", locale: "en", arguments: [.float(1)])
        }
        await expectError("org.varlink.service.InvalidParameter", ["parameter": "table"]) {
            _ = try await lprojd.lookup(bundle: "demo", key: "x", table: "../Localizable")
        }
        await expectError("org.varlink.service.InvalidParameter", ["parameter": "key"]) {
            _ = try await daemon.call("Lookup", ["bundle": "demo", "key": 5])
        }
        await expectError("org.varlink.service.InvalidParameter", ["parameter": "lokale"]) {
            _ = try await daemon.call("Lookup", ["bundle": "demo", "key": "x", "lokale": "de"])
        }
        await expectError("org.varlink.service.InvalidParameter", ["parameter": "arguments"]) {
            _ = try await daemon.call("Lookup", ["bundle": "demo", "key": "x", "arguments": [["int": 1, "string": "a"]]])
        }
        await expectError("org.varlink.service.MethodNotFound", ["method": "org.lprojd.Localization.Nope"]) {
            _ = try await daemon.call("Nope")
        }
        await expectError("org.lprojd.Localization.TableNotFound", ["table": "Nope"]) {
            _ = try await lprojd.table(bundle: "demo", table: "Nope")
        }
        // After all that, the daemon still answers.
        #expect(try await lprojd.lookup(bundle: "demo", key: "settings.title", locale: "ja").value == "設定")
    }

    @Test func wholeTables() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let table = try await lprojd.table(bundle: "demo", locale: "de-CH")
        #expect(table.locale == "de-CH" && table.table == "Localizable")
        #expect(table.strings["welcome.title"] == "Willkommen bei Demo")
        #expect(table.sources["welcome.title"] == "de")
        #expect(table.strings["colour.label"] == "Farbe")
        guard let plural = table.plurals["files.selected"] else {
            Issue.record("no plural entry")
            return
        }
        #expect(plural.format == "%#@files@ ausgewählt")
        #expect(plural.locale == "de")
        guard let files = plural.variables["files"] else {
            Issue.record()
            return
        }
        #expect(files.one == "%d Datei" && files.other == "%d Dateien" && files.valueType == "d")
        // Keys only the development locale has are merged in.
        #expect(table.sources["greeting"] == "de")
        let japanese = try await lprojd.table(bundle: "demo", locale: "ja")
        #expect(japanese.sources["inbox.unread"] == "en")
    }

    @Test func negotiationBundlesAndStatus() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        #expect(
            try await lprojd.negotiate(available: ["en", "en-GB", "fr"], preferredLanguages: ["en-AU"])
                == Localization.Negotiate.Reply(locale: "en", match: .language))
        #expect(
            try await lprojd.negotiate(available: ["en", "fr"], preferredLanguages: ["en-GB"], specificity: .exact, defaultValue: "?")
                == Localization.Negotiate.Reply(value: "?", match: .default))
        #expect(
            try await lprojd.negotiate(values: ["de": "Hallo", "fr": "Salut"], preferredLanguages: ["it", "fr-CA"])
                == Localization.Negotiate.Reply(locale: "fr", value: "Salut", match: .language))
        await expectError("org.lprojd.Localization.InvalidLocale", ["locale": "not a tag"]) {
            _ = try await lprojd.negotiate(available: ["not a tag"], preferredLanguages: ["en"])
        }

        let bundles = try await lprojd.bundles()
        #expect(bundles.map(\.name) == ["demo"])
        #expect(bundles[0].supportedLocales.contains("zh-Hant") && bundles[0].hasBase && bundles[0].developmentLocale == "en")
        #expect(bundles[0].tables == ["Localizable", "Menu"])

        let status = try await lprojd.status()
        #expect(status.bundles == 1 && status.entries == bundles[0].entries && status.connections >= 1 && status.errors.isEmpty)
    }
}

/// Expects a Varlink error with these parameters (among others).
func expectError(
    _ name: String, _ parameters: JSONObject = [:], sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async {
    do {
        try await body()
        Issue.record("expected \(name), got a reply", sourceLocation: sourceLocation)
    } catch let error as LprojError {
        #expect(error.name == name, "\(error)", sourceLocation: sourceLocation)
        for (key, value) in parameters.members {
            #expect(error.parameters[key] == value, "\(key) in \(error.parameters)", sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("expected \(name), got \(error)", sourceLocation: sourceLocation)
    }
}

/// GetTable sends only variables an entry can use: `other` is required in
/// the interface's `PluralVariable`, and a variable without it can be no
/// variable the entry refers to (found by the `.stringsdict` fuzzer).
@Suite struct TableReplySchemaTests {
    @Test func anUnusedVariableWithoutOtherIsLeftOutOfGetTable() async throws {
        let daemon = try await DaemonProcess(files: [
            "en.lproj/Localizable.strings": "\"plain\" = \"Plain\";\n",
            "en.lproj/Localizable.stringsdict": """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>k</key><dict>
              <key>NSStringLocalizedFormatKey</key><string>%#@n@ selected</string>
              <key>n</key><dict>
                <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                <key>NSStringFormatValueTypeKey</key><string>d</string>
                <key>one</key><string>%d file</string><key>other</key><string>%d files</string>
              </dict>
              <key>unused</key><dict>
                <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                <key>NSStringFormatValueTypeKey</key><string>d</string>
                <key>one</key><string>%d thing</string>
              </dict>
            </dict></dict></plist>
            """,
        ])
        let raw = try RawClient(path: daemon.socket)
        try raw.send(#"{"method":"org.lprojd.Localization.GetTable","parameters":{"bundle":"demo","locale":"en"}}"#)
        let reply = try #require(try await raw.receiveJSON())
        let plurals = (reply["parameters"] as? [String: Any])?["plurals"] as? [String: Any]
        let variables = (plurals?["k"] as? [String: Any])?["variables"] as? [String: Any]
        #expect(variables?.keys.sorted() == ["n"], "\(String(describing: variables))")
    }
}
