import Testing
@testable import LprojExtract

@Suite struct SwiftExtractorTests {
    func extract(_ source: String) -> ExtractionResult {
        SwiftExtractor().extract(source: source, file: "App.swift")
    }

    @Test func theFormsXcodeExtracts() {
        let result = extract(
            #"""
            import SwiftUI
            struct V: View {
                var body: some View {
                    Text("Hello")
                    Text("Menu title", tableName: "Menu", comment: "The menu")
                    Button("Save") {}
                    Label("Inbox", systemImage: "tray")
                    Toggle("Dark mode", isOn: $dark)
                    List {}.navigationTitle("Settings")
                    Text(verbatim: "not me")
                    Text(title)
                }
            }
            let a = NSLocalizedString("welcome", tableName: "Onboarding", value: "Welcome!", comment: "First screen")
            let b = String(localized: "greeting", defaultValue: "Hi", table: "Main", comment: "Says hi")
            let c = LocalizedStringResource("resource.key", comment: "A resource")
            let d = LocalizedStringKey("key.key")
            let e = localizer.localized("from.localizer", table: "Extra", defaultValue: "Extra value")
            let f = "not localized"
            """#)
        #expect(
            result.strings.map(\.key) == [
                "Hello", "Menu title", "Save", "Inbox", "Dark mode", "Settings", "welcome", "greeting", "resource.key", "key.key",
                "from.localizer",
            ])
        let byKey = Dictionary(uniqueKeysWithValues: result.strings.map { ($0.key, $0) })
        #expect(byKey["Menu title"]?.table == "Menu" && byKey["Menu title"]?.comment == "The menu")
        #expect(byKey["welcome"]?.table == "Onboarding" && byKey["welcome"]?.defaultValue == "Welcome!")
        #expect(byKey["welcome"]?.comment == "First screen")
        #expect(byKey["greeting"]?.table == "Main" && byKey["greeting"]?.defaultValue == "Hi" && byKey["greeting"]?.comment == "Says hi")
        #expect(byKey["from.localizer"]?.table == "Extra" && byKey["from.localizer"]?.defaultValue == "Extra value")
        #expect(byKey["Hello"]?.location == Location(file: "App.swift", line: 4, column: 14))
        #expect(result.warnings.isEmpty)
    }

    @Test func interpolationsBecomeTheSpecifiersXcodeWrites() {
        let result = extract(
            #"""
            func row(name: String, total: Double, ratio: Float) -> some View {
                let count = 3
                var items: [Int] = []
                let small: Int32 = 1
                return VStack {
                    Text("\(name) has \(count) items")
                    Text("Total: \(total) of \(items.count)")
                    Text("\(ratio)% done, \(small) left")
                    Text("Price \(total, specifier: "%.2f")")
                    Text("Seen \(date, format: .dateTime)")
                    Text("Mystery \(something.value)")
                    Text("100% sure \(count)")
                }
            }
            """#)
        #expect(
            result.strings.map(\.key) == [
                "%@ has %lld items", "Total: %lf of %lld", "%f%% done, %d left", "Price %.2f", "Seen %@", "Mystery %@", "100%% sure %lld",
            ])
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.message.contains("something.value") == true)
    }

    @Test func escapesInLiteralsAreDecoded() {
        let result = extract(
            #"""
            Text("Line\nbreak \"quoted\" \u{1F600}")
            Text(#"Raw \n stays"#)
            Text("Tab\t\(1)")
            """#)
        #expect(result.strings.map(\.key) == ["Line\nbreak \"quoted\" 😀", #"Raw \n stays"#, "Tab\t%lld"])
    }

    @Test func anEmptyLiteralIsNoKey() {
        let result = extract(
            #"""
            Picker("", selection: $choice) {}
            Text("")
            Label("", systemImage: "ellipsis")
            Text(flag ? "On" : "")
            let a = NSLocalizedString("", comment: "")
            let b = String(localized: "", comment: "Nothing")
            static let title: LocalizedStringResource = ""
            Text(#""#)
            """#)
        #expect(result.strings.map(\.key) == ["On"])
        #expect(result.warnings.isEmpty)
    }

    @Test func keysThatAreNotLiteralsAreWarnedAbout() {
        let result = extract(
            #"""
            let key = "dynamic"
            let a = NSLocalizedString(key, comment: "")
            let b = String(localized: String.LocalizationValue(key))
            let c = NSLocalizedString("prefix." + key, comment: "")
            let d = NSLocalizedString("interpolated \(key)", comment: "")
            """#)
        #expect(result.strings.isEmpty)
        #expect(result.warnings.map(\.location.line) == [2, 3, 4, 5])
        #expect(result.warnings[0].message.contains("not a string literal"))
        #expect(result.warnings[3].message.contains("interpolated key"))
    }
}

/// What only a type checker knows, read from the module's declarations:
/// the literals that become `LocalizedStringKey`s and resources because of
/// where they go. (The forms IceCubes, the corpus's app, uses.)
@Suite struct ModuleWideExtractionTests {
    @Test func literalsGoingWhereTheModuleTakesAKey() {
        let views = #"""
            enum Tab {
                case home, settings, metrics
                var title: LocalizedStringKey {
                    switch self {
                    case .home: "tab.home"
                    case .settings: "tab.settings"
                    case .metrics:
                        if beta { "tab.metrics.beta" } else { "tab.metrics" }
                    }
                }
                func subtitle() -> LocalizedStringResource { return "tab.subtitle" }
                var identifier: String { "not.a.key" }
            }
            enum Status { case invalid(description: LocalizedStringKey) }
            struct Row: View {
                init(label: LocalizedStringKey, value: String) {}
            }
            func makePicker(selection: Int, label: LocalizedStringKey) -> some View { EmptyView() }
            struct Screen: View {
                @State private var error: LocalizedStringKey?
                var body: some View {
                    List {}.navigationTitle(isNew ? "title.new" : "title.edit")
                }
                func fail() { error = "error.network"; plain = "not.a.key.either" }
            }
            """#
        let uses = #"""
            let a = Status.invalid(description: "status.invalid")
            let b: Status = .invalid(description: "status.invalid.short")
            let c = Row(label: "row.label", value: "not.a.key")
            let d = makePicker(selection: 1, label: "picker.label")
            """#
        let intents = #"""
            struct Send: AppIntent {
                static let title: LocalizedStringResource = "Send a post"
                static let description: IntentDescription = "Sends a post"
                static var typeDisplayName: LocalizedStringResource { "Post" }
                @Parameter(title: "Caption", description: "The text") var caption: String
                static var caseDisplayRepresentations: [Visibility: DisplayRepresentation] {
                    [.pub: "Public", .priv: "Followers Only"]
                }
                static let cases: [Tab: DisplayRepresentation] = [.home: .init(title: "Home Timeline")]
                func perform() async throws -> some IntentResult {
                    .result(dialog: "Posted \(count) images")
                }
            }
            struct Shortcuts: AppShortcutsProvider {
                static var appShortcuts: [AppShortcut] {
                    AppShortcut(intent: Send(), phrases: ["Send with \(.applicationName)"], shortTitle: "Compose", systemImageName: "x")
                }
            }
            """#
        let result = SwiftExtractor().extract([
            (path: "Views.swift", text: views), (path: "Uses.swift", text: uses), (path: "Intents.swift", text: intents),
        ])
        #expect(
            Set(result.strings.map(\.key)) == [
                "tab.home", "tab.settings", "tab.metrics.beta", "tab.metrics", "tab.subtitle", "title.new", "title.edit", "error.network",
                "status.invalid", "status.invalid.short", "row.label", "picker.label",
                "Send a post", "Sends a post", "Post", "Caption", "The text", "Public", "Followers Only", "Home Timeline",
                "Posted %@ images", "Compose",
            ])
    }
}
