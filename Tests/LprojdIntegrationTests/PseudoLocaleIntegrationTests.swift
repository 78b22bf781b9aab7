import Foundation
import LprojClient
import LprojInterface
import Testing
import VarlinkProtocol

/// lprojd's pseudo-locales, on the real daemon: a client that selects one
/// sees the bundle's strings transformed, the others do not.
@Suite struct PseudoLocaleIntegrationTests {
    @Test func aClientSelectingEnXASeesEveryStringTransformedAndOthersAreUntouched() async throws {
        let daemon = try await DaemonProcess(arguments: ["--pseudo-locales"])
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }

        let offered = try await lprojd.supportedLocales(bundle: "demo", locale: "en")
        #expect(offered.locales.suffix(2).map(\.locale) == ["en-XA", "ar-XB"])
        #expect(try await lprojd.bundles().first { $0.name == "demo" }?.supportedLocales.suffix(2) == ["en-XA", "ar-XB"])

        let selection = try await lprojd.select(client: "it.pseudo", bundle: "demo", locale: "en-XA")
        #expect(selection.locale == "en-XA")
        let pseudo = try await lprojd.lookup(bundle: "demo", key: "greeting", client: "it.pseudo", placeholders: ["name": "Ada"])
        #expect(pseudo.value == "[Ĥéļļö, Ada! one ]", "\(pseudo.value)")
        #expect(pseudo.found && pseudo.locale == "en")
        let formatted = try await lprojd.lookup(
            bundle: "demo", key: "download.progress", client: "it.pseudo",
            arguments: [.init(float: JSONNumber(12.5), fractionDigits: 1), .init(string: "a.txt")])
        #expect(formatted.value.hasPrefix("[Ðöŵñļöåðéð 12.5% öƒ a.txt"))
        // Another client of the same user is untouched.
        let plain = try await lprojd.lookup(bundle: "demo", key: "greeting", client: "it.other", placeholders: ["name": "Ada"])
        #expect(plain.value == "Hello, Ada!")
        // The whole table, as the in-process localizers mirror it.
        let table = try await lprojd.table(bundle: "demo", client: "it.pseudo")
        #expect(table.locale == "en-XA" && table.formatLocale == "en")
        #expect(table.strings["welcome.title"] == "[Ŵéļçöṁé ţö Ðéṁö one tw]")

        let bidi = try await lprojd.lookup(bundle: "demo", key: "inbox.unread", locale: "ar-XB", arguments: [.init(int: 1234)])
        #expect(bidi.value.contains("١٬٢٣٤") && bidi.value.hasPrefix("\u{200F}\u{202E}You\u{202C}\u{200F}"))
    }

    @Test func withoutTheSettingPseudoLocalesAreUnknown() async throws {
        let daemon = try await DaemonProcess()
        let lprojd = try await daemon.client()
        defer { Task { await lprojd.close() } }
        #expect(try await lprojd.bundles().first { $0.name == "demo" }?.supportedLocales.contains("en-XA") == false)
        await #expect(throws: LprojError.self) { try await lprojd.lookup(bundle: "demo", key: "greeting", locale: "en-XA") }
    }
}
