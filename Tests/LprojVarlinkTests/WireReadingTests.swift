import LprojInterface
import LprojVarlink
import Synchronization
import Testing
@testable import VarlinkProtocol

/// The server reads a call straight into the interface's types (the typed
/// path) and falls back to the tree (the reference path) for anything that
/// path cannot read. Both must read every message alike: the typed path
/// gives the very call the reference path gives, or gives up.
@Suite struct WireReadingTests {
    /// Records the call it was handed, and which path read it.
    final class Recorder: VarlinkTypedInterface {
        let name = Localization.interfaceName
        let description = Localization.definition
        let typed = Mutex<[Localization.Call]>([])
        let reference = Mutex<[Result<Localization.Call, VarlinkError>]>([])

        func answer(method: VarlinkWireReader.Name, rest reader: inout VarlinkWireReader, caller: VarlinkCaller)
            -> VarlinkDispatcher.Dispatched?
        {
            guard let (request, flags) = LocalizationVarlinkInterface.read(method: method, rest: &reader) else { return nil }
            typed.withLock { $0.append(request) }
            return VarlinkDispatcher.Dispatched(.reply([:]), flags)
        }

        func handle(_ method: Substring, call: VarlinkCall, caller: VarlinkCaller) -> VarlinkOutcome {
            let read: Result<Localization.Call, VarlinkError>
            do {
                if let call = try Localization.Call(method: method, parameters: call.parameters) {
                    read = .success(call)
                } else {
                    read = .failure(.methodNotFound(call.method))
                }
            } catch {
                read = .failure(.invalidParameter(error.field))
            }
            reference.withLock { $0.append(read) }
            return .reply([:])
        }
    }

    let caller = VarlinkCaller(uid: 1000, gid: 1000, pid: 1, connectionID: 1)

    /// What the typed path makes of a message (nil: it gave up), and what
    /// the reference path makes of it.
    func read(_ message: [UInt8]) -> (typed: Localization.Call?, reference: Result<Localization.Call, VarlinkError>, oneway: Bool?) {
        let recorder = Recorder()
        let dispatcher = VarlinkDispatcher(info: .init(vendor: "v", product: "p", version: "1", url: "u"), interfaces: [recorder])
        let typed = message.withUnsafeBytes { dispatcher.dispatchTyped($0, caller: caller, maximumValues: 64) }
        let typedCall = recorder.typed.withLock { $0.first }
        let reference = message.withUnsafeBytes { bytes in
            Result { () throws(VarlinkError) in try VarlinkCall.decode(bytes, maximumValues: 64) }
        }.flatMap { call in
            _ = dispatcher.dispatch(call, caller: caller)
            return recorder.reference.withLock { $0.first } ?? .failure(.interfaceNotFound(call.method))
        }
        return (typedCall, reference, typed?.oneway)
    }

    /// Calls as clients send them, to every method, with every kind of field.
    static let calls: [String] = [
        #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":"greeting","locale":"de"}}"#,
        #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":"files %d","table":"Plurals","client":"org.example.Editor","defaultValue":"%d Dateien","arguments":[{"int":3},{"float":1.50},{"float":2,"fractionDigits":1},{"string":"x"}],"placeholders":{"name":"Ana","city":"Köln"}}}"#,
        #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":"a\"b\\c\n\u00e9\ud83d\ude00","locale":null,"arguments":null}}"#,
        #"{"method":"org.lprojd.Localization.Lookup","oneway":true,"parameters":{"bundle":"demo","key":"k"}}"#,
        #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":"k","arguments":[{"int":-9223372036854775808},{"float":1e-3},{"float":-0.0}]},"more":false,"oneway":null}"#,
        #"  { "method" : "org.lprojd.Localization.GetTable" , "parameters" : { "bundle" : "demo" , "locale" : "fr-CA" , "table" : "Localizable" } }  "#,
        #"{"method":"org.lprojd.Localization.GetSelection","parameters":{"client":"c","bundle":"demo","preferredLanguages":["de-AT","fr"]}}"#,
        #"{"method":"org.lprojd.Localization.SelectLocale","parameters":{"client":"c","bundle":"demo","locale":"sr-Latn"}}"#,
        #"{"method":"org.lprojd.Localization.ResetSelection","parameters":{"client":"c","bundle":"demo"}}"#,
        #"{"method":"org.lprojd.Localization.ListBundles"}"#,
        #"{"method":"org.lprojd.Localization.ListBundles","parameters":{}}"#,
        #"{"method":"org.lprojd.Localization.ListBundles","parameters":null}"#,
        #"{"method":"org.lprojd.Localization.Negotiate","parameters":{"available":["en","de"],"values":{"en":"Hi","de":"Hallo"},"preferredLanguages":["de-CH"],"specificity":"language","defaultValue":"?"}}"#,
        #"{"method":"org.lprojd.Localization.AddStrings","parameters":{"client":"c","bundle":"demo","locale":"de","strings":{"a":"1","b":"2"}}}"#,
        #"{"method":"org.lprojd.Localization.RemoveAddedStrings","parameters":{"client":"c","bundle":"demo","table":null}}"#,
        #"{"method":"org.lprojd.Localization.Subscribe","more":true,"parameters":{"client":"c"}}"#,
        #"{"method":"org.lprojd.Localization.Format","parameters":{"style":"currency","number":12.50,"currency":"EUR","locale":"de","fractionDigits":2}}"#,
        #"{"method":"org.lprojd.Localization.ParseDate","parameters":{"text":"2026-11-26","style":"pattern","pattern":"yyyy-MM-dd","timeZone":"Europe/Berlin"}}"#,
        #"{"method":"org.lprojd.Localization.GetPreferences","parameters":{"client":"c","bundle":"demo"}}"#,
        #"{"method":"org.lprojd.Localization.SetPreferences","parameters":{"client":"c","bundle":"demo","preferences":{"dateFormat":"dd.MM.yyyy","timeZone":null},"clear":["calendar"]}}"#,
        #"{"method":"org.lprojd.Localization.SupportedLocales","parameters":{"bundle":"demo","locale":"ja"}}"#,
        #"{"method":"org.lprojd.Localization.Reload","parameters":{"bundle":"demo"}}"#,
        #"{"method":"org.lprojd.Localization.GetStatus","parameters":{}}"#,
        #"{"method":"org.lprojd.Localization.GetMisses","parameters":{"bundle":"demo"}}"#,
        #"{"method":"org.lprojd.Localization.ResetMisses","parameters":{"bundle":"demo"}}"#,
        #"{"method":"org.lprojd.Localization.ListClients","parameters":{"locale":"fr"}}"#,
        #"{"method":"org.lprojd.Localization.ListClients"}"#,
    ]

    @Test func everyCallAClientSendsIsReadTypedIntoTheCallTheTreeGives() throws {
        for text in Self.calls {
            let message = Array(text.utf8)
            let (typed, reference, _) = read(message)
            guard case .success(let expected) = reference else {
                Issue.record("the reference path refuses \(text): \(reference)")
                continue
            }
            #expect(typed == expected, "\(text)")
        }
        #expect(read(Array(Self.calls[3].utf8)).oneway == true)
    }

    /// Whatever the typed path cannot read is read by the reference path,
    /// which then says what is wrong; whatever it reads, it reads alike.
    @Test func brokenCallsAreLeftToTheReferencePath() {
        let broken = [
            // Not the typed path's to read: method not first, escaped, unknown.
            #"{"parameters":{"bundle":"demo","key":"k"},"method":"org.lprojd.Localization.Lookup"}"#,
            #"{"method":"org.lprojd.Localization.Look\u0075p","parameters":{"bundle":"demo","key":"k"}}"#,
            #"{"method":"org.lprojd.Localization.Teleport","parameters":{}}"#,
            #"{"method":"org.lprojd.Localization.","parameters":{}}"#,
            // Wrong: a member twice, at every depth, or a field of the wrong type.
            #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":"k","key":"l"}}"#,
            #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":"k"},"parameters":{}}"#,
            #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":"k","placeholders":{"a":"1","a":"2"}}}"#,
            #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":"k","arguments":[{"int":1,"int":2}]}}"#,
            #"{"method":"org.lprojd.Localization.Lookup","oneway":true,"oneway":true,"parameters":{"bundle":"demo","key":"k"}}"#,
            #"{"method":"org.lprojd.Localization.Lookup","method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"d","key":"k"}}"#,
            #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":1}}"#,
            #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo"}}"#,
            #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":"k","colour":"red"}}"#,
            #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":"k","arguments":[{"int":1.5}]}}"#,
            #"{"method":"org.lprojd.Localization.Format","parameters":{"style":"roman","number":4}}"#,
            #"{"method":"org.lprojd.Localization.Subscribe","more":true,"oneway":true,"parameters":{}}"#,
            #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":"k"},"upgrade":true}"#,
            #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":"k"}} x"#,
            // More values than allowed (64).
            #"{"method":"org.lprojd.Localization.Lookup","parameters":{"bundle":"demo","key":"k","arguments":["#
                + Array(repeating: #"{"int":1}"#, count: 40).joined(separator: ",") + "]}}",
        ]
        for text in broken {
            #expect(read(Array(text.utf8)).typed == nil, "the typed path read \(text)")
        }
    }

    /// Every call cut short, and every byte of it changed to a few that
    /// matter to JSON: the typed path reads nothing the reference path
    /// refuses, and nothing differently.
    @Test func everyMutationOfEveryCallIsReadAlikeOrLeftToTheReferencePath() {
        let replacements: [UInt8] = Array("\"\\{}[],:0 1a-.eE\u{7F}".utf8) + [0x00, 0xC3, 0xFF]
        var mutations = 0
        for text in Self.calls {
            let message = Array(text.utf8)
            var variants: [[UInt8]] = (0..<message.count).map { Array(message[..<$0]) }
            for index in message.indices {
                for byte in replacements where byte != message[index] {
                    var changed = message
                    changed[index] = byte
                    variants.append(changed)
                }
            }
            for variant in variants {
                let (typed, reference, _) = read(variant)
                guard let typed else { continue }
                mutations += 1
                #expect(
                    (try? reference.get()) == typed,
                    "read differently: \(String(decoding: variant, as: UTF8.self)), reference \(reference)")
            }
        }
        // Many mutations still make calls (a changed letter in a value).
        #expect(mutations > 1000)
    }

    /// A reply written straight from the struct is the same bytes as its
    /// tree written.
    @Test func repliesWriteTheBytesTheirTreesWrite() {
        let replies: [any VarlinkStruct] = [
            Localization.Lookup.Reply(value: "Hallo \"Welt\"\n", found: true, locale: "de"),
            Localization.Lookup.Reply(value: "", found: false),
            Localization.Negotiate.Reply(locale: nil, value: "v", match: .language),
            Localization.GetTable.Reply(
                bundle: "demo", table: "Localizable", locale: "de", formatLocale: "de", generation: 3, strings: ["a": "1", "b": "ü"],
                plurals: [:], sources: ["a": "de"]),
            Localization.Format.Reply(value: "12,50 €", locale: "de", pattern: nil, unit: nil, timeZone: "GMT", calendar: nil),
            Localization.ParseDate.Reply(date: JSONNumber(1.5e9, fractionDigits: 0)),
            Localization.SetPreferences.Reply(preferences: .init(dateFormat: "dd.MM.yyyy"), changed: ["dateFormat"]),
        ]
        for reply in replies {
            var writer = JSONWriter()
            reply.write(to: &writer)
            #expect(writer.bytes == JSONWriter.encode(reply.varlinkValue), "\(reply)")
        }
    }
}
