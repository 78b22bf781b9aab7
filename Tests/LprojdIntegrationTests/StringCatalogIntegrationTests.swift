import Foundation
import LprojClient
import LprojInterface
import Testing

/// A bundle of String Catalogs only, served by the real daemon and
/// followed through inotify.
@Suite(.serialized) struct StringCatalogIntegrationTests {
    static func unit(_ value: String) -> String {
        #"{ "stringUnit" : { "state" : "translated", "value" : "\#(value)" } }"#
    }

    static func catalog(french hello: String) -> String {
        """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "Hello" : { "localizations" : { "fr" : \(unit(hello)), "de" : \(unit("Hallo")) } },
            "%lld files" : { "localizations" : {
              "en" : { "variations" : { "plural" : { "one" : \(unit("%lld file")), "other" : \(unit("%lld files")) } } },
              "ru" : { "variations" : { "plural" : { "one" : \(unit("%lld файл")), "few" : \(unit("%lld файла")),
                                                     "many" : \(unit("%lld файлов")), "other" : \(unit("%lld файла")) } } } } }
          },
          "version" : "1.1"
        }
        """
    }

    @Test func aCatalogOnlyBundleIsServedAndFollowed() async throws {
        let daemon = try await DaemonProcess(files: ["Localizable.xcstrings": Self.catalog(french: "Bonjour")])
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        let events = EventRecorder(try await lprojd.events(bundle: "demo"))
        _ = try await events.next()

        let bundle = try #require(try await lprojd.bundles().first)
        #expect(bundle.supportedLocales == ["de", "en", "fr", "ru"])
        #expect(bundle.tables == ["Localizable"])
        #expect(try await lprojd.lookup(bundle: "demo", key: "Hello", locale: "fr-BE").value == "Bonjour")
        let five = try await lprojd.lookup(bundle: "demo", key: "%lld files", locale: "ru", arguments: [.init(int: 5)])
        #expect(five.value == "5 файлов")
        #expect(try await lprojd.lookup(bundle: "demo", key: "%lld files", locale: "de", arguments: [.init(int: 1)]).value == "1 file")
        let table = try await lprojd.table(bundle: "demo", locale: "en")
        #expect(Set(table.strings.keys) == ["Hello"])
        #expect(table.plurals.keys.contains("%lld files"))

        // Renamed over, as editors and git do.
        try daemon.replace("Localizable.xcstrings", Self.catalog(french: "Salut"))
        let changed = try await events.next { $0.type == .tablesChanged }
        #expect(changed.tables == ["Localizable"] && changed.locales == ["fr"])
        #expect(try await lprojd.lookup(bundle: "demo", key: "Hello", locale: "fr").value == "Salut")

        // Broken: reported with its position; the last good version stays.
        try daemon.write("Localizable.xcstrings", "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : { \"Hello\" : [ }\n}")
        let error = try await events.next { $0.type == .tableError }
        #expect(error.file == "Localizable.xcstrings")
        #expect(error.line == 3 && error.column == 29)
        #expect(try await lprojd.lookup(bundle: "demo", key: "Hello", locale: "fr").value == "Salut")
        #expect(try await lprojd.status().errors.first?.file == "Localizable.xcstrings")

        // A catalog in a folder that did not exist yet.
        try daemon.write(
            "Resources/More/Settings.xcstrings",
            #"{ "sourceLanguage" : "en", "strings" : { "Theme" : { "localizations" : { "it" : \#(Self.unit("Tema")) } } } }"#)
        _ = try await events.next { $0.type == .localesChanged && $0.added == ["it"] }
        #expect(try await lprojd.lookup(bundle: "demo", key: "Theme", table: "Settings", locale: "it").value == "Tema")
    }
}
